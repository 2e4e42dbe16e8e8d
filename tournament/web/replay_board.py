"""The Flamme Rouge board replay as SVG, drawn on the server (``replay.Board``).

The course is cut into blocks of ten squares, one small SVG each, that the page wraps into rows
(one block a row on a phone, three or four on a desktop): text keeps its size at every width
instead of a whole-course drawing scaled down. Lanes run left to right with lane 1 (the right
lane, FR-16) at the bottom. Shapes and patterns are defined once (``<defs>`` of a hidden SVG) and
reused with ``<use>``; colours and fills are CSS classes of ``static/podium/replay.css``.

Riders are drawn where the grid puts them; ``static/podium/replay.js`` moves them round by round
from :func:`board_data` (the same positions, as JSON) and writes each token's square and lane to
its ``data-sq`` / ``data-lane`` attributes.
"""

from __future__ import annotations

from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scoring.clock import clock
from tournament.web.replay import Board, BoardRider, Replay

BLOCK = 10  # squares per block
CELL = 27  # width of a square (four blocks a row on a 72rem page)
LANE = 26  # height of a lane
TOP = 15  # the row of square numbers and token stacks above the lanes
SHAPES = {"rouleur": "fr-rou", "sprinteur": "fr-spr", "dummy": "fr-dum"}
TERRAIN_CLASSES = {"F": "t-F", "U": "t-U", "D": "t-D", "S": "t-S", "C": "t-C"}


def _defs(lane_counts: set[int]) -> str:
    lanes = "".join(
        f'<g id="fr-l{n}">'
        + "".join(f'<rect y="{LANE * i}" width="{CELL}" height="{LANE}"/>' for i in range(n))
        + "</g>"
        for n in sorted(lane_counts)
    )
    hatch = '<path d="M-2 2l4-4M0 8l8-8M6 10l4-4"/>'
    return (
        '<svg class="sprite" width="0" height="0" aria-hidden="true"><defs>'
        f"{lanes}"
        '<pattern id="fr-pU" width="8" height="8" patternUnits="userSpaceOnUse">'
        f'<rect width="8" height="8" class="f-U"/>{hatch}</pattern>'
        '<pattern id="fr-pD" width="8" height="8" patternUnits="userSpaceOnUse"'
        ' patternTransform="scale(-1 1)">'
        f'<rect width="8" height="8" class="f-D"/>{hatch}</pattern>'
        '<pattern id="fr-pC" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="6" class="f-C"/><circle cx="3" cy="3" r="1.3"/></pattern>'
        '<pattern id="fr-pS" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="6" class="f-S"/><path d="M0 3h6"/></pattern>'
        '<pattern id="fr-chk" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="6" fill="#fff"/><rect width="3" height="3"/>'
        '<rect x="3" y="3" width="3" height="3"/></pattern>'
        '<g id="fr-rou"><circle r="11"/></g>'
        '<g id="fr-spr"><rect x="-10" y="-10" width="20" height="20" rx="3"/></g>'
        '<g id="fr-dum"><path d="M0-12 12 0 0 12-12 0z"/></g>'
        '<g id="fr-slip"><path d="M-17-5l4 5-4 5"/></g>'
        '<g id="fr-exh"><rect x="6" y="-13" width="7" height="7"/></g>'
        '<g id="fr-sprint"><circle r="5"/></g>'
        '<g id="fr-mountain"><path d="M-6 5 0-6 6 5z"/></g>'
        "</defs></svg>"
    )


def _square(square: Any, col: int, height: int) -> str:
    classes = [TERRAIN_CLASSES.get(square.terrain, "t-F")]
    if square.role:
        classes.append(f"r-{square.role}")
    y = TOP + (height - square.lanes) * LANE
    return f'<use href="#fr-l{square.lanes}" x="{col * CELL}" y="{y}" class="{" ".join(classes)}"/>'


def _numbers(first: int, count: int) -> str:
    texts = []
    for col in range(count):
        number = first + col
        if col == 0 or number % 5 == 0:
            texts.append(f'<text x="{col * CELL + 2}" y="11">{number}</text>')
    return "".join(texts)


def _stacks(board: Board, first: int, count: int) -> str:
    out = []
    for stack in board.stacks:
        _stack_id, size, side, square = stack
        if first <= square < first + count:
            x = (square - first) * CELL + CELL - 7
            title = _stack_text(stack)
            out.append(
                f'<use href="#fr-{"mountain" if side == "mountain" else "sprint"}" x="{x}" y="8"'
                f' class="stk stk-{escape(size)}"><title>{escape(title)}</title></use>'
            )
    return "".join(out)


def _lines(board: Board, first: int, count: int, height: int) -> str:
    """The finish line after square L (FR-14) and the start line after the last start square."""
    out = []
    starts = [s.number for s in board.squares if s.role == "s"]
    base = TOP + height * LANE
    for after, cls in ((board.last, "finish"), (max(starts, default=0), "start")):
        if first <= after < first + count:
            x = (after - first + 1) * CELL - 3
            lanes = board.squares[after - 1].lanes if after >= 1 else height
            y = base - lanes * LANE
            out.append(
                f'<rect class="line-{cls}" x="{x}" y="{y}" width="6" height="{lanes * LANE}"/>'
            )
    return "".join(out)


def token_xy(square: int, lane: int, height: int) -> tuple[int, int]:
    """Centre of a rider token on ``square`` (its block's column) and ``lane`` (1 at the bottom)."""
    col = (square - 1) % BLOCK
    return col * CELL + CELL // 2, TOP + (height - lane) * LANE + LANE // 2


def _token(index: int, rider: BoardRider, at: tuple[int, int], height: int) -> str:
    x, y = token_xy(at[0], at[1], height)
    team = "kd" if rider.team < 0 else f"k{rider.team % 6}"
    return (
        f'<g class="rd {team}" data-r="{index}" data-sq="{at[0]}" data-lane="{at[1]}"'
        f' transform="translate({x} {y})"><use href="#{SHAPES[rider.shape]}"/>'
        f'<use class="b-slip" href="#fr-slip"/><use class="b-exh" href="#fr-exh"/>'
        f'<text dy=".35em">{escape(rider.label)}</text><title>{escape(rider.name)}</title></g>'
    )


def _block(board: Board, first: int) -> str:
    squares = board.squares[first - 1 : first - 1 + BLOCK]
    height = max(s.lanes for s in squares)
    width, total = len(squares) * CELL + 4, TOP + height * LANE + 2
    start = board.positions[0]
    tokens = "".join(
        _token(i, rider, start[i], height)  # type: ignore[arg-type]
        for i, rider in enumerate(board.riders)
        if start[i] is not None and first <= start[i][0] < first + BLOCK  # type: ignore[index]
    )
    return (
        f'<svg class="fr-block" data-first="{first}" data-lanes="{height}" width="{width}"'
        f' height="{total}" viewBox="0 0 {width} {total}" aria-hidden="true">'
        f"{_numbers(first, len(squares))}{_stacks(board, first, len(squares))}"
        + "".join(_square(s, col, height) for col, s in enumerate(squares))
        + f"{_lines(board, first, len(squares), height)}{tokens}</svg>"
    )


def render_board(board: Board) -> SafeString:
    """Every square of the course in blocks of ten, the lines, the stacks and the grid."""
    blocks = "".join(_block(board, first) for first in range(1, len(board.squares) + 1, BLOCK))
    return mark_safe(_defs({s.lanes for s in board.squares}) + blocks)


def course_summary(board: Board) -> str:
    """The course in words: the text alternative of the drawing."""
    counts: dict[str, int] = {}
    for square in board.squares:
        key = "s" if square.role == "s" else square.terrain
        if square.role != "f":
            counts[key] = counts.get(key, 0) + 1
    names = {
        "s": _("start"),
        "F": _("flat"),
        "U": _("ascent"),
        "D": _("descent"),
        "S": _("supply zone"),
        "C": _("cobbles"),
    }
    parts = ", ".join(f"{counts[k]} {names[k]}" for k in names if counts.get(k))
    text = _("%(n)s squares (%(parts)s); the finish line is after square %(last)s.") % {
        "n": len(board.squares),
        "parts": parts,
        "last": board.last,
    }
    return " ".join([text] + [f"{_stack_text(stack)}." for stack in board.stacks])


def _stack_text(stack: tuple[str, str, str, int]) -> str:
    stack_id, size, side, square = stack
    return _("Token stack %(id)s (%(size)s, %(side)s) at square %(square)s") % {
        "id": stack_id,
        "size": _("major") if size == "major" else _("minor"),
        "side": _("mountain") if side == "mountain" else _("sprint"),
        "square": square,
    }


def board_data(replay: Replay) -> dict[str, Any]:
    """What replay.js plays: per round, every rider's square and lane, badges and a line of text.

    ``at`` holds square, lane pairs (0, 0 once the rider has left the track), ``fx`` a flag per
    rider (1 slipstream, 2 an Exhaustion card, 4 crossed the line), ``ev`` one sentence per
    rider who rode that round, and ``done`` the riders who have crossed, in finishing order.
    """
    board = replay.board
    assert board is not None
    rounds: list[dict[str, Any]] = [{"n": 0, "at": _flat(board.positions[0])}]
    crossed: list[tuple[int, int, int, int, str]] = []  # (round, -square, lane, rider, time)
    for number, (rnd, at) in enumerate(zip(replay.rounds, board.positions[1:], strict=True), 1):
        events, flags = [], []
        for i, cell in enumerate(rnd.cells):
            flags.append(_flags(cell))
            if cell is None:
                continue
            events.append(f"{board.riders[i].label} {board.riders[i].name}: {_sentence(cell)}")
            place = at[i]
            if cell.crossed and place is not None:
                time = clock(cell.time) if cell.time is not None else ""
                crossed.append((number, -place[0], place[1], i, time))
        crossed.sort()
        done = [f"{board.riders[c[3]].name} {c[4]}".strip() for c in crossed]
        rounds.append({"n": number, "at": _flat(at), "fx": flags, "ev": events, "done": done})
    return {
        "kind": "board",
        "geometry": {"block": BLOCK, "cell": CELL, "lane": LANE, "top": TOP},
        "rounds": rounds,
        "text": _texts(),
    }


def _texts() -> dict[str, str]:
    return {
        "round": _("Round %(n)s of %(total)s"),
        "start": _("The start grid"),
        "play": _("Play"),
        "pause": _("Pause"),
    }


def _flags(cell: Any) -> int:
    if cell is None:
        return 0
    return (1 if cell.slip else 0) | (2 if cell.exhausted else 0) | (4 if cell.crossed else 0)


def _sentence(cell: Any) -> str:
    squares = {"card": cell.card, "start": cell.start, "end": cell.end}
    if cell.card == "X":  # CARD_MARKS: an Exhaustion card played, the Peloton's Attack card
        first = _("Exhaustion card, square %(start)s → %(end)s") % squares
    elif cell.card == "A":
        first = _("Attack card, square %(start)s → %(end)s") % squares
    else:
        first = _("card %(card)s, square %(start)s → %(end)s") % squares
    parts = [first]
    if cell.slip:
        parts.append(_("slipstream +%(n)s") % {"n": cell.slip})
    if cell.exhausted:
        parts.append(_("takes an Exhaustion card"))
    if cell.tokens:
        parts.append(_("tokens %(tokens)s") % {"tokens": cell.tokens})
    if cell.crossed:
        parts.append(_("crosses the line"))
    return ", ".join(parts)


def _flat(at: tuple[tuple[int, int] | None, ...]) -> list[int]:
    out: list[int] = []
    for place in at:
        out += list(place) if place is not None else [0, 0]
    return out
