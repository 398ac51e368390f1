"""The pages of the HTML report: self-contained, escaped, and saying what the results say."""

from __future__ import annotations

import re
from pathlib import Path

from verifier import api
from verifier.htmlreport.site import _case, case_page_name

from .conftest import HOSTILE_TITLE, REPORTED


def pages(site: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(site.glob("*.html"))}


def test_every_page_is_written(site: Path, repo_root: Path) -> None:
    names = set(pages(site))
    assert {"index.html", "rules.html", "contradictions.html", "accepted.html", "coverage.html", "explore.html",
            "sweep.html"} <= names
    for case in REPORTED:
        assert case_page_name(str(repo_root / "cases" / case)) in names
    assert len(names) == 12


def test_pages_fetch_nothing_and_run_nothing(site: Path) -> None:
    for name, text in pages(site).items():
        assert "<script" not in text, name
        assert not re.search(r"""<[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:|//)""", text), name
        assert not re.search(r"url\(\s*['\"]?(?:https?:|//)", text) and "@import" not in text, name
        for href in re.findall(r'href="([^"#]+)', text):  # every link stays inside the site
            assert (site / href).is_file(), (name, href)


def test_input_text_is_escaped(site: Path) -> None:
    index = pages(site)["index.html"]
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &lt;img src=https://example.invalid/x.png&gt;" \
        in index
    assert HOSTILE_TITLE not in index


def test_summary_counts(site: Path) -> None:
    index = pages(site)["index.html"]
    counts = re.search(r'<p id="counts">(.*?)</p>', index)
    assert counts is not None
    assert re.sub(r"<[^>]+>", "", counts.group(1)) == "5 cases, 17 questions: 17 ok, 0 not ok"
    assert index.count('<tr><td><a href="case-') == 5


def test_case_page_draws_the_timeline(site: Path, repo_root: Path) -> None:
    page = pages(site)[case_page_name(str(repo_root / "cases" / REPORTED[0]))]
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img"') == 1
    assert '<title id="tl-title">Timeline of Provisions sets a Hero aside' in page
    assert "elijah: territory from turn 1 Draw; set-aside area from turn 1 Preparation, play_provisions; " \
           "territory from turn 3 Preparation." in page  # the picture in words
    assert page.count('class="cell"') == 2 * 20  # two cards, twenty steps
    assert page.count("&#8617;") == 2  # the return, in the picture and in its legend


def test_contradiction_marks_its_statements_in_the_rules_text(site: Path) -> None:
    page = pages(site)["contradictions.html"]
    marked = re.findall(r'<mark class="conflicting"><strong>([A-Z]+(?:-[A-Z]+)*-\d+[a-z]?)</strong>', page)
    assert "SA-5" in marked and "GLOSS-12" in marked
    assert len(marked) == len(set(marked))
    assert "Darkness (Fall of Man) is negated in the battle" in page
    rules = pages(site)["rules.html"]
    assert re.search(r'id="SA-5".*?In a contradiction: <a href="case-', rules, re.S)


def test_contradiction_page_shows_its_ways_out_and_the_answers_under_each(site: Path, repo_root: Path) -> None:
    page = pages(site)[case_page_name(str(repo_root / "cases" / "set-aside" / "darkness-negated-in-battle.yaml"))]
    assert "Ways out of the contradiction, and this question's answer under each" in page
    assert re.search(r"<td>interpretation SA-5-I1, in place of SA-5</td><td>yes</td>"
                     r'<td><span class="verdict">determined = yes</span></td>', page)
    assert re.search(r'leave out <a href="rules.html#GLOSS-3">GLOSS-3</a> \(rules GLOSS-3\)</td><td>yes</td>', page)


def test_sweep_page_lists_new_and_accepted_findings_with_their_witnesses(site: Path) -> None:
    page = pages(site)["sweep.html"]
    assert "1 combination of 2 cards: 1 done, 0 refused, 0 failed, 0 unknown, 0 pending" in page
    new, accepted = page.split("<h2>Accepted findings")
    assert "<h2>New findings (" in new
    # Provisions' paired ability (SA-2c) and the heal's open place are findings awaiting a ruling
    assert "paired_targets" in accepted and "Rules involved: SA-2c." in accepted
    assert "Accepted as cases/set-aside/paired-ability-targets-are-not-stated.yaml: targets_aaron" in accepted
    assert "<pre>title: &#x27;sweep: Miracle of Healing, Provisions" in page
    assert 'id="sweep-counts"' in pages(site)["index.html"]


def test_explore_page_lists_each_scope_with_its_findings_and_witnesses(site: Path) -> None:
    page = pages(site)["explore.html"]
    assert "negated-in-battle.yaml: a set-aside negated in the Battle Phase</h2>" in page
    assert "3 of 3 scenarios checked (1 answered in full)" in page and "1 new finding, 0 accepted" in page
    finding = page.split('<section class="finding"', 1)[1]
    assert "new contradiction of the whole scenario" in finding and "SA-5" in finding
    assert "<li>turn 1 Battle: sets_aside</li><li>turn 1 Battle: negates</li>" in finding
    assert "<pre>title: " in finding and "expect:" in finding
    assert "Statements no scenario of the scope reaches: " in page
    assert 'id="explore-counts"' in pages(site)["index.html"]
    assert "1 scope, 1 new finding, 0 accepted." in pages(site)["index.html"]


def test_coverage_page_lists_what_blocks_each_category() -> None:
    from verifier.htmlreport.site import Site, _coverage

    counts = {"definition": "'set X aside' <as an effect>", "modelled": 1, "override": 0, "unsupported": 2,
              "not-read": 0, "texts": 3, "modelled_or_override_percent": 33.3}
    blockers = {"set-aside": [{"reason": "banding is not modelled <b>", "texts": 2, "cards": ["King Xerxes", "A & B"]}],
                "heal": []}
    site = Site("t", (), (), (), {}, (), {"coverage": {"set-aside": counts}, "blockers": blockers}, {})
    page = _coverage(site)
    assert "What blocks the unsupported set-aside texts" in page and "heal texts" not in page
    assert "<td>&#x27;set X aside&#x27; &lt;as an effect&gt;</td><td>1</td>" in page  # the definition, escaped
    assert "<td>banding is not modelled &lt;b&gt;</td><td>2</td><td>King Xerxes; A &amp; B</td>" in page


def test_an_ambiguitys_page_names_the_statements_at_fault_first(repo_root: Path) -> None:
    [report] = api.report_cases(api.open_repository(repo_root),
                                [repo_root / "cases/set-aside/upkeep-set-aside-counts-its-own-upkeep.yaml"], jobs=1)
    assert isinstance(report, api.CaseReport)
    page = _case(report)
    fault = page.index('<p class="at-fault">Statements at fault')
    assert page[fault:].split("</p>", 1)[0].count('<a href="rules.html#') == 1
    assert 'href="rules.html#GLOSS-2"' in page[fault:].split("</p>", 1)[0]
    assert fault < page.index("Statements that would have to say more")


def test_the_battle_row_is_on_only_where_a_card_is_in_battle(site: Path, repo_root: Path) -> None:
    quiet = pages(site)[case_page_name(str(repo_root / "cases" / REPORTED[0]))]  # Provisions: nobody enters battle
    assert 'class="battle on"' not in quiet
    assert "no battle: no card is in the field of battle" in quiet
    fought = pages(site)[case_page_name(str(repo_root / "cases" / REPORTED[3]))]  # two Heroes enter battle
    assert 'class="battle on"' in fought


def test_contradiction_page_draws_the_timeline_under_each_resolving_interpretation(site: Path,
                                                                                   repo_root: Path) -> None:
    page = pages(site)[case_page_name(str(repo_root / "cases" / "set-aside" / "darkness-negated-in-battle.yaml"))]
    assert page.count('<svg xmlns="http://www.w3.org/2000/svg" class="timeline"') == 2
    assert '<h2 id="timeline-sa-5-i1">Timeline under the interpretation SA-5-I1</h2>' in page
    assert 'aria-labelledby="tl-title-sa-5-i1 tl-desc-sa-5-i1"' in page
    under = page[page.index('id="timeline-sa-5-i1"'):]
    assert 'class="cell"' in under.split("</section>", 1)[0]  # the picture has cells: the conflict is resolved


def test_a_case_page_names_the_readings_an_answer_rests_on_when_asked(repo_root: Path) -> None:
    case = [repo_root / "cases/cannot-be/cannot-be-interrupted-ability-cannot-be-negated-by-david.yaml"]
    repo = api.open_repository(repo_root)
    [plain] = api.report_cases(repo, case, jobs=1)
    [asked] = api.report_cases(repo, case, jobs=1, readings=True)
    assert isinstance(plain, api.CaseReport) and isinstance(asked, api.CaseReport)
    assert 'class="rests-on"' not in _case(plain)
    page = _case(asked)
    negate = page[page.index('id="q-negate_legal"'):].split("</section>", 1)[0]
    assert '<p class="rests-on">Rests on readings <a href="rules.html#CBN-1-R1">CBN-1-R1</a>, ' \
           '<a href="rules.html#CBN-1-R2">CBN-1-R2</a></p>' in negate
    discard = page[page.index('id="q-discard_legal"'):].split("</section>", 1)[0]
    assert "rests-on" not in discard
