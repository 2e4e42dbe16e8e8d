"""Formula D and Rallyman replays as a progress view: one row per car, its distance along the lap
(Formula D, from the finish line) or the stage (Rallyman, start to finish) after every turn.

Drawn on the server as one SVG whose horizontal positions are percentages of its width, so it
fills a phone or a desktop without scaling its text; corners (and their stops or gear limits)
are shaded bands, the finish line is checkered. ``static/podium/replay.js`` moves the cars round
by round from :meth:`Progress.data`. Both games read their own replay log (``replay_json()`` of
``games.formula_d.model.RaceOutcome`` and ``games.rallyman.simulate.StageRun``) and board
geometry (``games.formula_d.track.Track``, ``games.rallyman.track.Track``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.clock import clock

TOP = 30  # two rows of corner labels
ROW = 34  # a car: its name, then its lane of the track


@dataclass(frozen=True)
class Mark:
    start: float  # percent of the lap or stage
    end: float
    label: str  # short, drawn above the band
    title: str  # in words, for the text alternative
    kind: str = "corner"


@dataclass
class Progress:
    kind: str  # "formula_d" | "rallyman"
    cars: list[tuple[str, str]]  # (short label, name), one row each
    marks: list[Mark]
    rounds: list[dict[str, Any]] = field(default_factory=list)

    @property
    def turns(self) -> int:
        """Turns played (``rounds`` starts with the start, turn 0)."""
        return len(self.rounds) - 1

    def svg(self) -> SafeString:
        return render_progress(self)

    def data(self) -> dict[str, Any]:
        return {"kind": "progress", "rounds": self.rounds, "text": texts()}

    def summary(self) -> str:
        return "; ".join(m.title for m in self.marks)


def texts() -> dict[str, str]:
    return {
        "round": _("Turn %(n)s of %(total)s"),
        "start": _("The start"),
        "play": _("Play"),
        "pause": _("Pause"),
    }


def _label_rows(marks: list[Mark]) -> list[int]:
    """Row 0 or 1 for each mark's label so that labels of a row never overlap on a phone: a
    character of 11 px is taken as 2.2 % of a 320 px drawing."""
    last: list[tuple[float, float]] = [(-100.0, 0.0), (-100.0, 0.0)]  # (middle, half width)
    rows = []
    for mark in marks:
        middle, half = (mark.start + mark.end) / 2, 1.1 * len(mark.label) + 0.5
        fits = [middle - m - h >= half for m, h in last]
        row = 0 if fits[0] else 1 if fits[1] else 0
        last[row] = (middle, half)
        rows.append(row)
    return rows


def render_progress(view: Progress) -> SafeString:
    height = TOP + ROW * len(view.cars) + 4
    parts = [
        f'<svg class="pg" width="100%" height="{height}" aria-hidden="true">',
        '<defs><pattern id="pg-chk" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="6" fill="#fff"/><rect width="3" height="3"/>'
        '<rect x="3" y="3" width="3" height="3"/></pattern><g id="pg-car"><circle r="8"/></g>'
        '<g id="pg-out"><circle r="8"/><path d="M-4-4 4 4M4-4-4 4"/></g></defs>',
    ]
    for mark, row in zip(view.marks, _label_rows(view.marks), strict=True):
        middle = (mark.start + mark.end) / 2
        width = max(mark.end - mark.start, 0.6)
        parts.append(
            f'<rect class="pg-{mark.kind}" x="{mark.start:.2f}%" y="{TOP - 4}" width="{width:.2f}%"'
            f' height="{height - TOP + 4}"><title>{escape(mark.title)}</title></rect>'
            f'<text class="pg-mark" x="{middle:.2f}%" y="{11 + 13 * row}">'
            f"{escape(mark.label)}</text>"
        )
    parts.append(
        f'<rect class="pg-finish" x="99.2%" y="{TOP - 4}" width="0.8%" height="{height}"/>'
    )
    for i, (label, name) in enumerate(view.cars):
        y = TOP + ROW * i
        at = view.rounds[0]["at"][i] if view.rounds else 0
        parts.append(
            f'<g class="car k{i % 6}" data-c="{i}" data-d="{at}">'
            f'<text x="0" y="{y + 11}">{escape(label)} {escape(name)}'
            f'<tspan class="note">{_note(view, i)}</tspan></text>'
            f'<line x1="0" x2="100%" y1="{y + 24}" y2="{y + 24}"/>'
            f'<use class="tok" href="#pg-car" data-x="x" x="{at}%" y="{y + 24}"/>'
            f'<use class="x" href="#pg-out" data-x="x" x="{at}%" y="{y + 24}"/></g>'
        )
    parts.append("</svg>")
    return mark_safe("".join(parts))  # every name is escaped above


def _note(view: Progress, i: int) -> str:
    note = view.rounds[0]["lap"][i] if view.rounds else ""
    return f" · {escape(note)}" if note else ""


def initials(name: str) -> str:
    words = name.split()
    return ("".join(w[0] for w in words[:2]) if len(words) > 1 else name[:2]).upper() or "?"


# --- Formula D -------------------------------------------------------------------------------


def _fd_event_words() -> dict[str, str]:
    return {
        "overshoot": _("overshoots a corner"),
        "collision": _("collision"),
        "blocked": _("blocked"),
        "eliminated": _("out of the race"),
        "finish": _("finishes"),
        "pit_stop": _("pit stop"),
        "spin": _("spins"),
        "engine": _("engine damage"),
        "debris": _("debris"),
    }


class _Lap:
    """Distances along a Formula D lap in average spaces, from the finish line (0 to lap)."""

    def __init__(self, circuit_name: str) -> None:
        from games.formula_d.circuit import load_circuit
        from games.formula_d.simulate import track_for

        self.circuit = load_circuit(circuit_name)
        self.track = track_for(self.circuit)
        self.segment = {s.id: i for i, s in enumerate(self.circuit.segments)}
        self.lane = {name: i for i, name in enumerate(self.circuit.lanes)}
        line = self.circuit.finish_line
        seg = self.circuit.segments[line.segment]
        share = sum(a / n for a, n in zip(line.after, seg.lengths, strict=True)) / len(seg.lengths)
        self.line = self.track.nominal_base[line.segment] + self.track.nominal[line.segment] * share
        self.length = self.track.nominal_lap

    def of(self, space: Mapping[str, Any]) -> float:
        if space["segment"] == "PIT":
            pit = self.circuit.pit
            assert pit is not None
            a, b = self.track.nominal_coord(pit.entry), self.track.nominal_coord(pit.exit)
            b += self.length if b < a else 0
            d = a + (b - a) * int(space["space"]) / (pit.length + 1)
        else:
            pos = (
                self.segment[space["segment"]],
                self.lane[space["lane"]],
                int(space["space"]) - 1,
            )
            d = self.track.nominal_coord(pos)
        return (d - self.line) % self.length

    def marks(self) -> list[Mark]:
        out = []
        for i, seg in enumerate(self.circuit.segments):
            if not seg.is_corner:
                continue
            start = (self.track.nominal_base[i] - self.line) % self.length
            end = start + self.track.nominal[i]
            stops = (
                ngettext("%(n)s stop", "%(n)s stops", seg.stops) % {"n": seg.stops}
                if seg.stops
                else ""
            )
            number = seg.id.lstrip("C") or seg.id
            out.append(
                Mark(
                    100 * start / self.length,
                    100 * end / self.length,
                    f"{number}{'•' * seg.stops}",
                    f"{seg.id} {seg.label}: {stops}",
                )
            )
        return sorted(out, key=lambda m: m.start)


def formula_d_progress(
    replay: Mapping[str, Any] | None, names: Mapping[int, str]
) -> Progress | None:
    """The progress view of a simulated Formula D race, or None without a readable log."""
    if not isinstance(replay, Mapping) or "moves" not in replay:
        return None
    try:
        return _formula_d(replay, names)
    except (KeyError, IndexError, TypeError, ValueError, LookupError):
        return None


def _formula_d(replay: Mapping[str, Any], names: Mapping[int, str]) -> Progress:
    from games.formula_d.errors import FormulaDError

    try:
        lap = _Lap(replay["circuit"])
    except FormulaDError as exc:
        raise ValueError(str(exc)) from None
    grid = [int(d) for d in replay["grid"]]
    laps = int(replay["laps"])
    cars = [(initials(names.get(d, str(d))), names.get(d, str(d))) for d in grid]
    index = {d: i for i, d in enumerate(grid)}
    state = [""] * len(grid)
    words = _fd_event_words()
    moves_by_round: dict[int, list[Mapping[str, Any]]] = {}
    for move in replay["moves"]:
        moves_by_round.setdefault(int(move["round"]), []).append(move)
    # Distance covered since the line, in average spaces: the grid is behind it, so a car
    # starts at its first move's first space less one lap.
    total = [0.0] * len(grid)
    for move in moves_by_round.get(1, []):
        if move["path"]:
            total[index[move["driver"]]] = lap.of(move["path"][0]) - lap.length
    view = Progress("formula_d", cars, lap.marks())
    view.rounds.append(_fd_round(0, total, state, lap, laps, []))
    for number in sorted(moves_by_round):
        events = []
        for move in moves_by_round[number]:
            i = index[move["driver"]]
            end = (move.get("legs") or [move])[-1]["path"]
            if end:
                here = lap.of(end[-1])
                previous = total[i] % lap.length
                total[i] += (here - previous) % lap.length
            kinds = [e["kind"] for e in move.get("events", [])]
            if "eliminated" in kinds:
                state[i] = "out"
            elif "finish" in kinds:
                state[i] = "fin"
            events.append(_fd_sentence(cars[i], move, words))
        view.rounds.append(_fd_round(number, total, state, lap, laps, events))
    return view


def _fd_round(
    number: int, total: list[float], state: list[str], lap: _Lap, laps: int, events: list[str]
) -> dict[str, Any]:
    at, notes = [], []
    for i, distance in enumerate(total):
        done = min(max(int(distance // lap.length), -1), laps)
        fraction = 100.0 if state[i] == "fin" else 100 * (distance % lap.length) / lap.length
        at.append(round(fraction, 1))
        if state[i] == "fin":
            notes.append(_("finished"))
        elif state[i] == "out":
            notes.append(_("out"))
        else:
            notes.append(_("lap %(n)s of %(laps)s") % {"n": max(done + 1, 1), "laps": laps})
    return {"n": number, "at": at, "st": list(state), "lap": notes, "ev": events}


def _fd_sentence(car: tuple[str, str], move: Mapping[str, Any], words: Mapping[str, str]) -> str:
    parts = [_("gear %(gear)s, %(n)s spaces") % {"gear": move["gear"], "n": move["moved"]}]
    if move.get("braked"):
        parts.append(_("brakes %(n)s") % {"n": move["braked"]})
    for event in move.get("events", []):
        kind = event["kind"]
        if kind == "start" or kind not in words:
            continue
        text = words[kind]
        if event.get("wp"):
            text += f" ({event['wp']:+d} WP)".replace("-", "−")
        parts.append(text)
    return f"{car[0]} {car[1]}: " + ", ".join(parts)


# --- Rallyman --------------------------------------------------------------------------------


def rallyman_progress(
    replay: Mapping[str, Any] | None, layout: Any, names: Mapping[int, str]
) -> Progress | None:
    """The progress view of a simulated Rallyman stage, or None without a readable log."""
    if not isinstance(replay, Mapping) or "turns" not in replay or layout is None:
        return None
    from games.rallyman import build_track, load_layout
    from games.rallyman.errors import RallymanError
    from games.rallyman.layout import LayoutInvalid

    try:
        track = build_track(load_layout(layout))
        return _rallyman(replay, track, names)
    except (KeyError, IndexError, TypeError, ValueError, RallymanError, LayoutInvalid):
        return None


def _rallyman_marks(track: Any) -> list[Mark]:
    from games.rallyman.track import CORNER

    areas: dict[int, list[int]] = {}
    for space, kind in enumerate(track.kind):
        if kind == CORNER:
            areas.setdefault(track.area[space], []).append(space)
    marks = []
    for spaces in areas.values():
        ends = [track.progress[s] for s in spaces]
        limit = max(track.corner_limit[s] for s in spaces)
        start, end = max(min(ends) - 1, 0), max(ends)
        title = _("corner at %(at)s %% of the stage, gear %(gear)s at most") % {
            "at": round(100 * start / track.length),
            "gear": limit,
        }
        marks.append(Mark(100 * start / track.length, 100 * end / track.length, str(limit), title))
    fords = sorted({track.progress[s] for s, ford in enumerate(track.ford) if ford})
    for at in fords:
        title = _("ford at %(at)s %% of the stage") % {"at": round(100 * at / track.length)}
        marks.append(
            Mark(100 * (at - 1) / track.length, 100 * at / track.length, "~", title, "ford")
        )
    return sorted(marks, key=lambda m: m.start)


def _rallyman(replay: Mapping[str, Any], track: Any, names: Mapping[int, str]) -> Progress:
    order = [int(r["car"]) for r in replay["results"]]
    index = {car: i for i, car in enumerate(order)}
    label = {name: i for i, name in enumerate(track.labels)}
    cars = [(initials(names.get(c, str(c))), names.get(c, str(c))) for c in order]
    at = [0.0] * len(order)
    state = ["wait"] * len(order)
    times = {int(r["car"]): r.get("net_time") for r in replay["results"]}
    view = Progress("rallyman", cars, _rallyman_marks(track))
    view.rounds.append(_rm_round(0, at, state, []))
    by_round: dict[int, list[Mapping[str, Any]]] = {}
    for turn in replay["turns"]:
        by_round.setdefault(int(turn["round"]), []).append(turn)
    for number in sorted(by_round):
        events = []
        for turn in by_round[number]:
            i = index[int(turn["car"])]
            at[i] = round(min(100.0, 100 * track.progress[label[turn["to"]]] / track.length), 1)
            state[i] = _rm_state(turn)
            events.append(f"{cars[i][0]} {cars[i][1]}: {_rm_sentence(turn, times.get(order[i]))}")
        view.rounds.append(_rm_round(number, at, state, events))
    return view


def _rm_state(turn: Mapping[str, Any]) -> str:
    if turn.get("retired"):
        return "out"
    if turn.get("finished"):
        return "fin"
    return "crash" if (turn.get("loc") or {}).get("outcome") == "crash" else ""


def _rm_round(number: int, at: list[float], state: list[str], events: list[str]) -> dict[str, Any]:
    notes = {
        "wait": _("not started"),
        "out": _("retired"),
        "fin": _("finished"),
        "crash": _("crashed"),
    }
    return {
        "n": number,
        "at": list(at),
        "st": list(state),
        "lap": [notes.get(s, "") for s in state],
        "ev": events,
    }


def _rm_sentence(turn: Mapping[str, Any], net_time: int | None) -> str:
    parts = [
        _("gear %(a)s → %(b)s, %(n)s steps")
        % {"a": turn["gear_start"], "b": turn["gear_end"], "n": turn["steps"]}
    ]
    if turn.get("hazards"):
        parts.append(
            ngettext("%(n)s hazard", "%(n)s hazards", turn["hazards"]) % {"n": turn["hazards"]}
        )
    loc = turn.get("loc")
    if loc:
        outcomes = {"sisu": _("sisu (keeps going)"), "spin": _("spin"), "crash": _("crash")}
        outcome = outcomes.get(loc.get("outcome", ""), loc.get("outcome", ""))
        parts.append(_("loss of control: %(outcome)s") % {"outcome": outcome})
    if turn.get("retired"):
        parts.append(_("retires"))
    if turn.get("finished"):
        parts.append(_("finishes") + (f" ({clock(net_time)})" if net_time is not None else ""))
    return ", ".join(parts)
