"""The timeline picture of a case as inline SVG: cards by steps, each cell the zone the card is in after
the step, the battle, and the attempts numbered in the order they are made."""

from __future__ import annotations

__all__ = ["timeline_svg", "ZONE_COLOURS", "zone_colour"]

from html import escape

from ..timeline import Cell, Timeline
from ..vocabulary import VALUE_SETS, display_value

# One colour per zone, told apart in print too (each has its own lightness); the set-aside area stands out.
ZONE_COLOURS = {
    "territory": "#b7d7a8", "field of battle": "#f4b183", "set-aside area": "#c9a0dc", "discard pile": "#9e9e9e",
    "hand": "#d9e7f5", "draw pile": "#e8e8e8", "Land of Bondage": "#f6d186", "artifact pile": "#c5e0dc",
    "banish pile": "#5f5f5f", "reserve": "#fff2a8", "Land of Redemption": "#8fbce6",
}
assert set(ZONE_COLOURS) == {display_value(z) for z in VALUE_SETS["zone"]}

LEFT, TOP, CELL_W, CELL_H, GAP = 150, 64, 30, 24, 4
PHASE_SHORT = {"Draw": "Dr", "Upkeep": "Up", "Preparation": "Pr", "Battle": "Ba", "Discard": "Di"}


def zone_colour(zone: str) -> str:
    return ZONE_COLOURS.get(zone, "#ffffff")


def _cell_fill(cell: Cell) -> str:
    if cell.decided:
        return zone_colour(cell.text)
    return "url(#open)"


def timeline_svg(t: Timeline, title: str, key: str = "") -> str:
    """The picture, with a title and a description for screen readers (their ids end with `key`, for a page
    with more than one picture)."""
    n = len(t.columns)
    rows = len(t.cards)
    width = LEFT + n * CELL_W + 10
    battle_y = TOP + rows * CELL_H + GAP
    attempts_y = battle_y + CELL_H + GAP
    height = attempts_y + CELL_H + 12
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" role="img" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" aria-labelledby="tl-title{key} tl-desc{key}">',
           f'<title id="tl-title{key}">Timeline of {escape(title)}</title>',
           f'<desc id="tl-desc{key}">{escape(_description(t))}</desc>',
           '<defs><pattern id="open" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
           '<rect width="6" height="6" fill="#ffffff"/><line x1="0" y1="0" x2="0" y2="6" stroke="#d04040" '
           'stroke-width="3"/></pattern></defs>']
    # turns and phases across the top
    turn_start: dict[int, int] = {}
    for j, c in enumerate(t.columns):
        turn_start.setdefault(c.turn, j)
    for turn, j in turn_start.items():
        x0 = LEFT + j * CELL_W
        out.append(f'<line x1="{x0}" y1="4" x2="{x0}" y2="{attempts_y + CELL_H}" class="turn-line"/>')
        active = next(c.active_player for c in t.columns if c.turn == turn)
        out.append(f'<text x="{x0 + 3}" y="16" class="turn">turn {turn} ({escape(active)})</text>')
    for j, c in enumerate(t.columns):
        x = LEFT + j * CELL_W + CELL_W / 2
        if j == 0 or t.columns[j - 1].phase != c.phase or t.columns[j - 1].turn != c.turn:
            out.append(f'<text x="{x}" y="34" class="phase" text-anchor="middle">{PHASE_SHORT[c.phase]}'
                       f'<title>{escape(c.phase)}</title></text>')
        if c.attempt:
            number = next(k for k, a in enumerate(t.attempts, 1) if a.id == c.attempt)
            out.append(f'<text x="{x}" y="54" class="step-number" text-anchor="middle">{number}</text>')
    # one row per card
    for i, card in enumerate(t.cards):
        y = TOP + i * CELL_H
        out.append(f'<text x="{LEFT - 6}" y="{y + CELL_H * 0.68}" class="card" text-anchor="end">{escape(card)} '
                   f'<tspan class="owner">({escape(t.controllers[i])})</tspan></text>')
        if not t.zones:
            continue
        row = t.zones[i]
        for j, cell in enumerate(row):
            x = LEFT + j * CELL_W
            label = f"{card} after {t.columns[j].label}: {cell.text}"
            css = "cell" if cell.decided else "cell open"
            out.append(f'<rect x="{x + 1}" y="{y + 1}" width="{CELL_W - 2}" height="{CELL_H - 2}" class="{css}" '
                       f'fill="{_cell_fill(cell)}" data-zone="{escape(cell.text)}"><title>{escape(label)}</title></rect>')
            if not cell.decided:
                out.append(f'<text x="{x + CELL_W / 2}" y="{y + CELL_H * 0.68}" class="open-mark" '
                           f'text-anchor="middle">?</text>')
            before = row[j - 1] if j else None
            if before is not None and before.decided and cell.decided and before.text == "set-aside area" \
                    and cell.text != "set-aside area":
                out.append(f'<text x="{x + 3}" y="{y + CELL_H * 0.7}" class="return-mark">&#8617;'
                           f'<title>{escape(card)} returns at {escape(t.columns[j].label)}</title></text>')
    # the battle
    out.append(f'<text x="{LEFT - 6}" y="{battle_y + CELL_H * 0.68}" class="row-name" text-anchor="end">battle</text>')
    for j, cell in enumerate(t.battle):
        x = LEFT + j * CELL_W
        # the Battle Phase is a battle in progress (GLOSS-3) only where a card is in the field of battle
        empty = all(row[j].decided and row[j].text != "field of battle" for row in t.zones)
        on = cell.decided and cell.text == "yes" and not empty
        fill = "#e06666" if on else "#ffffff" if cell.decided else "url(#open)"
        said = "no battle: no card is in the field of battle" if cell.text == "yes" and empty else cell.text
        out.append(f'<rect x="{x + 1}" y="{battle_y + 1}" width="{CELL_W - 2}" height="{CELL_H - 2}" '
                   f'class="battle{" on" if on else ""}" fill="{fill}"><title>battle after '
                   f'{escape(t.columns[j].label)}: {escape(said)}</title></rect>')
    # the attempts, numbered in order; an illegal one crossed out, a negated one struck through
    out.append(f'<text x="{LEFT - 6}" y="{attempts_y + CELL_H * 0.68}" class="row-name" text-anchor="end">'
               'attempts</text>')
    for k, a in enumerate(t.attempts, 1):
        cx = LEFT + a.column * CELL_W + CELL_W / 2
        cy = attempts_y + CELL_H / 2
        state = ("illegal" if a.legal.decided and a.legal.text == "no" else "")
        negated = a.negated.decided and a.negated.text == "yes"
        out.append(f'<g class="attempt {state}{" negated" if negated else ""}"><circle cx="{cx}" cy="{cy}" r="10"/>'
                   f'<text x="{cx}" y="{cy + 4}" text-anchor="middle">{k}</text>'
                   f'<title>{k}. {escape(a.id)}: legal {escape(a.legal.text)}, negated {escape(a.negated.text)}'
                   f'</title></g>')
        if state:
            out.append(f'<path d="M{cx - 9} {cy - 9} L{cx + 9} {cy + 9} M{cx + 9} {cy - 9} L{cx - 9} {cy + 9}" '
                       'class="cross"/>')
        if negated:
            out.append(f'<line x1="{cx - 12}" y1="{cy}" x2="{cx + 12}" y2="{cy}" class="strike"/>')
    out.append("</svg>")
    return "\n".join(out)


def _description(t: Timeline) -> str:
    """The picture in words, for readers who cannot see it."""
    parts = [f"{len(t.cards)} cards over {len(t.columns)} steps."]
    if t.contradiction:
        parts.append("The rules allow no outcome for this case, so no zones are shown.")
    elif t.zones:
        for card, row in zip(t.cards, t.zones):
            changes = []
            last = None
            for c, cell in zip(t.columns, row):
                if cell.text != last:
                    changes.append(f"{cell.text} from {c.label}")
                    last = cell.text
            parts.append(f"{card}: " + "; ".join(changes) + ".")
    return " ".join(parts)
