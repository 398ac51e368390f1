"""A ruling's impact over a sweep: its general rules checked on every combination of cards a sweep's results
database holds.

Each combination's scope is written again from the template and the cards the database records, as the sweep
wrote it, and each of its scenarios (every plan, asking every question of the sweep's outcome symbols) is checked
as a case is (`ruling_check`: answered with and without the ruling's rules). Every combination is checked,
whatever its status in the database: the sweep's search and the ruling's check are apart. The database must be
of this regcheck and of today's rule base and card readings, or the scenarios would not be the sweep's.

Runs on local worker processes or on a Dask cluster, as a sweep does (`run_local`, `run_on_cluster`); a worker
returns the checks of its combination, and the results come in the database's order whatever the order they
arrive in.
"""

from __future__ import annotations

__all__ = ["SweepCombinations", "read_sweep", "ruling_over_combination", "rulings_over_sweep"]

import json
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import InputError, Location, RegcheckError, UsageError
from ..explore.search import DEFAULT_MAX_SCENARIOS
from ..ruling import Ruling, ruling_check, scope_scenarios
from ..scenario.model import Scenario
from ..verdicts import CombinationImpact, RulingCheck, RulingVerdict, SweepImpact
from .pool import CardPool, SweepCard, cards_fingerprint
from .run import Job, WorkerIdentity, rules_fingerprint, run_local, run_on_cluster, worker_identity, worker_repository
from .store import FORMAT, read_store
from .template import SweepTemplate, combination_name, scope_text, template_fingerprint


class SweepCombinations(NamedTuple):
    """What a sweep's results database holds to write its scopes again: the template, the cards by name, and the
    combinations (position, key, card names) in order."""

    template: SweepTemplate
    cards: dict[str, SweepCard]
    combinations: tuple[tuple[int, str, tuple[str, ...]], ...]


def _tuples(fields: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()}


def read_sweep(database: Path, root: Path) -> SweepCombinations:
    """A sweep's results database read to check a ruling over its combinations. Refused (InputError) when it is
    missing or not a sweep's, or when it was made by another regcheck, for another rule base, or with cards that
    read otherwise today."""
    from .. import __version__
    from ..scenario.cards import RealCard, find_card, read_card
    from ..scenario.cardview import card_json

    def bad(message: str) -> InputError:
        return InputError(message, Location(str(database), 1))

    run, rows = read_store(database)
    if run["format"] != FORMAT:
        raise bad(f"the database is of format {run['format']}, this regcheck reads format {FORMAT}")
    if run["regcheck_version"] != __version__:
        raise bad(f"the database holds a sweep made by regcheck {run['regcheck_version']}, this is regcheck "
                  f"{__version__}: run the sweep again with this regcheck")
    now = rules_fingerprint(root)
    if run["rules_fingerprint"] != now:
        raise bad(f"the database holds a sweep of another rule base (fingerprint {run['rules_fingerprint']}, now "
                  f"{now}): run the sweep again on today's rules")
    try:
        template = SweepTemplate(**_tuples({k: v for k, v in run["template"].items() if k != "size"}))
        cards = tuple(SweepCard(**_tuples(c)) for c in run["cards"])
    except (TypeError, AttributeError, UsageError) as err:
        raise bad(f"the database's template or cards cannot be read: {err}") from None
    if template_fingerprint(template) != run["template_fingerprint"]:
        raise bad("the database's template does not match its fingerprint")
    readings = []
    for c in sorted(cards, key=lambda c: c.name):
        card = find_card(c.name)
        if not isinstance(card, RealCard):
            raise bad(f"the database's card {c.name} is not in today's card list: run the sweep again")
        readings.append(json.dumps(card_json(read_card(card, cached=True)), sort_keys=True))
    now = cards_fingerprint(CardPool(cards, (), tuple(readings)))
    if run["cards_fingerprint"] != now:
        raise bad(f"the database's cards read otherwise today (fingerprint {run['cards_fingerprint']}, now {now}): "
                  "run the sweep again")
    by_name = {c.name: c for c in cards}
    for row in rows:
        missing = [n for n in row.cards if n not in by_name]
        if missing:
            raise bad(f"combination {row.key} names cards the database does not hold: {', '.join(missing)}")
    return SweepCombinations(template, by_name, tuple((r.position, r.key, r.cards) for r in rows))


def _asked(check: RulingCheck, scenario: Scenario | RulingCheck) -> RulingCheck:
    """The check with each changed question named by what it asks (`zone(card_2, at(1, Preparation))`): the
    questions of a sweep's scenarios are its templates', numbered."""
    if isinstance(scenario, RulingCheck) or not check.changes:
        return check
    asks = {q.name: q.text for q in scenario.questions}
    return replace(check, changes=tuple(replace(c, question=asks.get(c.question, c.question)) for c in check.changes))


def ruling_over_combination(root: str, cards: tuple[SweepCard, ...], template: SweepTemplate,
                            rulings: tuple[Ruling, ...], timeout_ms: int, memory_mb: int | None,
                            expected: WorkerIdentity | None = None, own_root: bool = False
                            ) -> tuple[tuple[RulingCheck, ...], ...]:
    """Each ruling checked on every scenario of one combination's scope (in a worker): its checks, in order. With
    `expected`, a worker whose regcheck or rule base differs refuses (ClusterError) before it checks; with
    `own_root`, a worker reads the repository at its `REGCHECK_SWEEP_ROOT` when that is set."""
    from ..explore.scope import ScopeText, load_scope

    repo = worker_repository(root, expected, own_root)
    name = combination_name(cards)
    scenarios: list[Scenario | RulingCheck]
    try:
        scope = load_scope(ScopeText(name, scope_text(cards, template)), repo.rules)
        scenarios = scope_scenarios(scope, repo.rules, None, DEFAULT_MAX_SCENARIOS)
    except RegcheckError as err:
        scenarios = [RulingCheck(name, RulingVerdict.UNKNOWN, reason=f"regcheck does not answer this combination: {err}",
                                 scenario=True)]
    out = []
    for ruling in rulings:
        with_ruling = ruling.rule_base(repo.rules)
        checks = []
        for sc in scenarios:
            try:
                check = ruling_check(sc, repo.rules, with_ruling, repo.document, timeout_ms, memory_mb)
            except RegcheckError as err:
                check = RulingCheck(sc.path if isinstance(sc, Scenario) else sc.case, RulingVerdict.UNKNOWN,
                                    reason=str(err), scenario=True)
            except Exception as err:  # a scenario that breaks regcheck is reported, and the others are checked
                check = RulingCheck(sc.path if isinstance(sc, Scenario) else sc.case, RulingVerdict.UNKNOWN,
                                    reason=f"internal error: {type(err).__name__}: {err}", scenario=True)
            checks.append(_asked(check, sc))
        out.append(tuple(checks))
    return tuple(out)


def rulings_over_sweep(root: Path, database: Path, found: SweepCombinations, rulings: Sequence[Ruling],
                       timeout_ms: int, memory_mb: int | None, jobs: int | None = None, scheduler: str | None = None,
                       progress: Callable[[int, int], None] | None = None) -> tuple[SweepImpact, ...]:
    """Each ruling's general rules checked on every combination `found` in the sweep's results `database` (see
    `read_sweep` and the module's description), on `jobs` local processes or on the Dask cluster of `scheduler`;
    `progress` is told how many combinations are done. Returns each ruling's impact, in order."""
    where = str(root.resolve())
    expected = worker_identity(root.resolve())
    worker_repository(where, expected)  # read before the workers are forked, which inherit it
    sent = tuple(r._replace(scenario=None) for r in rulings)  # a worker needs a ruling's rules only

    def work() -> Iterator[Job]:
        for position, _, names in found.combinations:
            yield position, (where, tuple(found.cards[n] for n in names), found.template, sent, timeout_ms, memory_mb,
                             expected)

    if scheduler:
        results = run_on_cluster(scheduler, ruling_over_combination, work(), lambda why: why, kept=None)
    else:
        workers = max(1, min(jobs or os.cpu_count() or 1, len(found.combinations) or 1))
        results = run_local(ruling_over_combination, work(), workers)
    got: dict[int, tuple[tuple[RulingCheck, ...], ...] | str] = {}
    for done, (position, result) in enumerate(results, 1):
        got[position] = result
        if progress is not None:
            progress(done, len(found.combinations))

    def checks(position: int, key: str, i: int) -> tuple[RulingCheck, ...]:
        result = got[position]
        if isinstance(result, str):  # the cluster could not run it
            return (RulingCheck(f"sweep: {key}", RulingVerdict.UNKNOWN, reason=result, scenario=True),)
        return result[i]

    return tuple(SweepImpact(str(database), tuple(CombinationImpact(key, checks(position, key, i))
                                                  for position, key, _ in found.combinations))
                 for i in range(len(rulings)))
