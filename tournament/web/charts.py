"""SVG standings charts, laid out in Python for the width they get (issue #16).

Two generic charts: a *line chart* of a rank, gap or points per entrant across events, and a
*holder timeline* (who held each jersey, or led, after each event). Each is laid out twice, for
a phone (``narrow``, 320 units) and for a wider box (``wide``, 640 units); ``podium.css`` shows
the one that fits its figure (a container query) and never scales it below 1:1 nor above 1.5:1,
so that 12-unit text stays between 11 and 18 CSS px. Within a layout:

- the end labels of a line chart never overlap: they are pushed apart (at least one text line
  each), with a leader from the line's end when a label moved; the plot is tall enough for all;
- tick labels never overlap either: the x labels skip events so that each has its width, the
  y ticks are at least a text line apart, in the unit's natural steps (1, 2, 5 × 10^k points or
  places; 15 s, 30 s, 1, 2, 5, 10, 15, 30 min, 1 h, ... for times, written ``m:ss``);
- the SVG is written here, as a string (a 21-stage tour draws hundreds of points: the template
  engine's loops cost several milliseconds), with every text escaped.

Both come with the data their text alternative needs: the templates add ``role="img"``,
``<title>``, ``<desc>`` and a data table.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.safestring import SafeString, mark_safe


def escape(text: object) -> str:
    """``text`` escaped for HTML and SVG, as Django's ``escape`` writes it, without its lazy
    wrapper and SafeString per call (charts escape a few thousand short texts per page)."""
    return html.escape(str(text))


PALETTE_SIZE = 8  # CSS classes .c0 … .c7 (static/podium/podium.css)
#: At most this many intervals between y ticks, whatever the values (issue #13, item 3): a
#: chart's cost depends on the number of entrants and events, never on the size of a value.
MAX_INTERVALS = 12
NICE_BASES = (1, 2, 5)  # steps of 1, 2, 5, 10, 20, 50, …


def nice_step(span: float, *, max_intervals: int = MAX_INTERVALS) -> int:
    """The smallest step of 1, 2, 5, 10, 20, 50, … that cuts ``span`` in at most ``max_intervals``.

    Integer arithmetic throughout: a stored value may have hundreds of digits, past a float.
    """
    target = max(-(-int(span) // max_intervals), 1)  # ceil(span / max_intervals)
    power = 10 ** max(len(str(target)) - 2, 0)  # one decade below target: few rounds at most
    while True:
        for base in NICE_BASES:
            if base * power >= target:
                return base * power
        power *= 10


#: Steps of a time axis in seconds (then whole hours in 1, 2, 5, 10, … hours).
TIME_STEPS = (1, 5, 15, 30, 60, 300, 600, 900, 1800, 3600)

#: Text metrics of the charts' 12-unit font (generous averages for system-ui): a character's
#: width, the ascent and descent around the baseline, and the distance between two labels.
FONT, CHAR, ASCENT, DESCENT, LINE = 12, 7.0, 11.5, 3.5, 16
#: The two layouts: a phone's and a wider box's (podium.css picks one by the figure's width).
LAYOUTS = (("narrow", 320), ("wide", 640))
TIME_INTERVALS = 8  # time labels ("+12m") are wider: fewer of them


def time_step(span: int, *, max_intervals: int = TIME_INTERVALS) -> int:
    """A step of seconds, minutes or hours cutting ``span`` seconds in ``max_intervals`` at most."""
    target = -(-int(span) // max_intervals)
    for step in TIME_STEPS:
        if step >= target:
            return step
    return 3600 * nice_step(-(-int(span) // 3600), max_intervals=max_intervals)


def tick_values(low: int, high: int, *, anchor: int = 0, step: int | None = None) -> list[int]:
    """Tick values in ``low..high``: every ``step`` (a nice one by default) counted from ``anchor``.

    At most ``MAX_INTERVALS + 1`` values for the default step, however wide the span.
    """
    step = step or nice_step(high - low)
    first = low + (anchor - low) % step  # the first value ≥ low on the anchor's grid
    return list(range(first, high + 1, step))


@dataclass(frozen=True)
class Series:
    label: str
    values: tuple[int | None, ...]  # one per x label; None where the entrant has no value
    colour: int = 0  # palette index
    dashed: bool = False
    marked: frozenset[int] = field(default_factory=frozenset)  # x indexes drawn as open squares


@dataclass(frozen=True)
class ChartLayout:
    """One drawing of a chart: ``name`` (narrow or wide), its size and its SVG content."""

    name: str
    suffix: str  # of the element ids: "" for the wide layout, "-n" for the narrow one
    width: int
    height: int
    body: SafeString
    y_ticks: tuple[tuple[float, str], ...] = ()


@dataclass(frozen=True)
class LineChart:
    x_labels: tuple[str, ...]
    series: tuple[Series, ...]
    layouts: tuple[ChartLayout, ...]
    #: The data table's rows: (label, each value as on the axis, bracketed where marked, "" where
    #: there is none).
    rows: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def y_ticks(self) -> tuple[tuple[float, str], ...]:
        """The wide layout's y ticks (position, label)."""
        return self.layouts[-1].y_ticks

    @cached_property
    def table_body(self) -> SafeString:
        """The data table's rows, written here as the SVG is: a 21-stage tour's GC table has
        252 cells, whose template loop cost a millisecond; right-aligned by the table's class
        (``nums``), not one ``class="num"`` per cell."""
        return _table_body((escape(label), values) for label, values in self.rows)


def line_chart(
    x_labels: list[str],
    series: list[Series],
    *,
    lower_is_better: bool = True,
    left: int = 0,
    y_step: Callable[..., int] = nice_step,
    y_label: Callable[[int], str] = str,
) -> LineChart:
    """Each series on a grid: x = event, y = value (rank 1 at the top by default), twice.

    ``y_step(span, max_intervals=n)`` picks the distance between y ticks (at most ``n`` of
    them), ``y_label(value)`` writes a tick's label (and the data table's values); ``left`` is
    the least room for the y labels (they get as much as their longest one needs).
    """
    values = [v for s in series for v in s.values if v is not None]
    low, high = (min(values), max(values)) if values else (1, 1)
    if high == low:
        high = low + 1
    plan = _Plan(x_labels, series, low, high, lower_is_better, y_step, y_label, left)
    layouts = tuple(plan.layout(name, width) for name, width in LAYOUTS)
    rows = tuple(
        (s.label, tuple(_written(s, i, y_label) for i in range(len(s.values)))) for s in series
    )
    return LineChart(tuple(x_labels), tuple(series), layouts, rows)


def _written(item: Series, index: int, y_label: Callable[[int], str]) -> str:
    """A value as the data table writes it: as on the axis, in brackets where marked."""
    value = item.values[index]
    if value is None:
        return ""
    return f"({y_label(value)})" if index in item.marked else y_label(value)


@dataclass
class _Plan:
    """What both layouts of a line chart share: the data, the value range and the formatters."""

    x_labels: list[str]
    series: list[Series]
    low: int
    high: int
    lower_is_better: bool
    y_step: Callable[..., int]
    y_label: Callable[[int], str]
    left: int

    def layout(self, name: str, width: int) -> ChartLayout:
        top, bottom = 12, 24
        count = max(len(self.x_labels), 1)
        plot_height = max(140 if name == "wide" else 120, LINE * max(len(self.series) - 1, 1))
        intervals = min(MAX_INTERVALS, max(int(plot_height // LINE), 1))
        low, high = self.low, self.high
        # Points and times run from zero up to the first tick above the most; a rank chart
        # counts from its leader.
        zero_based = not self.lower_is_better or self.y_step is time_step
        if zero_based:
            low = min(low, 0)
        step = self.y_step(high - low, max_intervals=intervals)
        if zero_based:
            high = low + -(-(high - low) // step) * step
        anchor = 0 if zero_based else low
        tick_list = tick_values(low, high, anchor=anchor, step=step)
        tick_texts = [self.y_label(v) for v in tick_list]
        left = max(self.left, int(max((len(t) for t in tick_texts), default=1) * CHAR) + 8)
        room = int(width * (0.3 if name == "narrow" else 0.25))
        longest = max((len(s.label) for s in self.series), default=1)
        label_width = min(room, int(longest * CHAR) + 14)
        plot_width = width - left - label_width

        # Every point's x and y from two tables: a 21-stage GC chart places 500 points per
        # layout, over at most 21 x and a few dozen y values.
        if count == 1:
            xs = [round(left + plot_width / 2, 1)]
        else:
            xs = [round(left + plot_width * i / (count - 1), 1) for i in range(count)]
        ys: dict[int, float] = {}

        def x_at(index: int) -> float:
            return xs[index]

        def y_at(value: int) -> float:
            y = ys.get(value)
            if y is None:
                share = (value - low) / (high - low)
                y = ys[value] = round(
                    top + (share if self.lower_is_better else 1 - share) * plot_height, 1
                )
            return y

        parts = ['<g class="grid" aria-hidden="true">']
        for value, text in zip(tick_list, tick_texts, strict=True):
            y = y_at(value)
            parts.append(
                f'<line x1="{left}" x2="{left + plot_width}" y1="{y}" y2="{y}"/>'
                f'<text x="{left - 4}" y="{y + 4}" text-anchor="end">{escape(text)}</text>'
            )
        baseline = top + plot_height + 20
        for index, text in _spread(self.x_labels, xs):
            parts.append(
                f'<text x="{x_at(index)}" y="{baseline}" text-anchor="middle">{escape(text)}</text>'
            )
        parts.append("</g>")
        ends = _end_labels(
            [_last_y(s, y_at) for s in self.series], top + ASCENT - 11, top + plot_height + 4
        )
        label_x = left + plot_width + 8
        dots = count <= 12  # past a dozen events the lines alone (a lighter page)
        for item, (end_y, label_y) in zip(self.series, ends, strict=True):
            parts.append(self._series(item, x_at, y_at, dots, label_x, end_y, label_y, label_width))
        return ChartLayout(
            name=name,
            suffix="" if name == "wide" else "-n",
            width=width,
            height=top + plot_height + bottom,
            body=mark_safe("".join(parts)),  # every text is escaped
            y_ticks=tuple((y_at(v), t) for v, t in zip(tick_list, tick_texts, strict=True)),
        )

    def _series(
        self,
        item: Series,
        x_at: Callable[[int], float],
        y_at: Callable[[int], float],
        dots: bool,
        label_x: float,
        end_y: float | None,
        label_y: float,
        label_width: int,
    ) -> str:
        points = [(i, x_at(i), y_at(v)) for i, v in enumerate(item.values) if v is not None]
        css = f"series c{item.colour % PALETTE_SIZE}" + (" dashed" if item.dashed else "")
        out = [f'<g class="{css}"><title>{escape(item.label)}</title>']
        if points:
            out.append(
                '<polyline points="' + " ".join(f"{x:g},{y:g}" for _, x, y in points) + '"/>'
            )
        for i, x, y in points:
            if i in item.marked:
                out.append(f'<rect class="mark" x="{x - 3.5}" y="{y - 3.5}" width="7" height="7"/>')
            elif dots:
                out.append(f'<circle cx="{x:g}" cy="{y:g}" r="2.5"/>')
        if points and end_y is not None:
            last_x = points[-1][1]
            out.append(
                f'<polyline class="leader" points="{last_x},{end_y} {label_x - 6},{end_y} '
                f'{label_x - 2},{label_y - 4}"/>'
            )
        text = _fit(item.label, label_width + 6)
        out.append(f'<text x="{label_x}" y="{label_y}">{escape(text)}</text></g>')
        return "".join(out)


def _last_y(item: Series, y_at: Callable[[int], float]) -> float | None:
    last = next((v for v in reversed(item.values) if v is not None), None)
    return None if last is None else y_at(last)


def _end_labels(ends: list[float | None], lowest: float, highest: float) -> list[tuple[Any, float]]:
    """(line end y, label baseline) per series: each label as near its line's end as it can be,
    at least ``LINE`` from the next, baselines within ``lowest..highest`` when they fit."""
    wanted = [(highest if y is None else y + 4, i) for i, y in enumerate(ends)]
    order = sorted(wanted)
    placed = [0.0] * len(order)
    for k, (y, _i) in enumerate(order):  # downwards: each at least a line below the previous
        placed[k] = max(y, lowest) if k == 0 else max(y, placed[k - 1] + LINE)
    for k in range(len(order) - 1, -1, -1):  # then back up from the bottom edge
        limit = highest if k == len(order) - 1 else placed[k + 1] - LINE
        placed[k] = min(placed[k], limit)
    labels = [0.0] * len(order)
    for k, (_y, i) in enumerate(order):
        labels[i] = round(placed[k], 1)
    return [(ends[i], labels[i]) for i in range(len(ends))]


def _spread(labels: list[str], xs: list[float]) -> list[tuple[int, str]]:
    """The x labels to write: every ``k``-th (and the last) so that none touches the next."""
    if not labels:
        return []
    width = max(len(t) for t in labels) * CHAR + 8
    gap = (xs[-1] - xs[0]) / (len(xs) - 1) if len(xs) > 1 else width
    every = max(1, math.ceil(width / gap)) if gap > 0 else 1
    shown = list(range(0, len(labels), every))
    last = len(labels) - 1
    if shown[-1] != last:
        if (last - shown[-1]) * gap < width:
            shown.pop()
        shown.append(last)
    return [(i, labels[i]) for i in shown]


@dataclass(frozen=True)
class Segment:
    x: float
    width: float
    label: str  # the holder's name; "" when nobody held it
    text: str  # the name as it fits in the segment (the full name is in the tooltip)
    first: int  # first and last event of the run, for the tooltip
    last: int


@dataclass(frozen=True)
class Lane:
    key: str  # CSS modifier (yellow, green, polka_dot)
    label: Any
    y: float
    segments: tuple[Segment, ...]


@dataclass(frozen=True)
class Timeline:
    events: tuple[int, ...]
    labels: tuple[Any, ...]  # lane labels: the data table's columns
    table: tuple[tuple[int, tuple[str, ...]], ...]  # (event, holder per lane): its rows
    lanes: tuple[tuple[str, Any, tuple[str, ...]], ...]  # (key, label, holder per event)

    @cached_property
    def table_body(self) -> SafeString:
        """The data table's rows (event, then each lane's holder), written here."""
        rows = ((str(n), holders) for n, holders in self.table)
        return _table_body(rows, empty="—", head="num stick-l stick-l0 stick-last")

    @cached_property
    def layouts(self) -> tuple[ChartLayout, ...]:
        """Both drawings (each segment's tooltip: the holder and the events of the run)."""
        return tuple(self._layout(name, width) for name, width in LAYOUTS)

    def _layout(self, name: str, width: int) -> ChartLayout:
        lane_height, gap, top = 26, 6, 4
        left = min(int(max(len(str(label)) for _, label, _ in self.lanes) * CHAR) + 8, width // 3)
        count = max(len(self.events), 1)
        cell = (width - left) / count
        parts = []
        for index, (key, label, holders) in enumerate(self.lanes):
            y = top + index * (lane_height + gap)
            parts.append(
                f'<g class="lane lane--{escape(key)}"><text class="lane-label" x="0" '
                f'y="{y + 17}">{escape(_fit(str(label), left))}</text>'
            )
            for seg in _segments(self.events, holders, left, cell):
                tip = f"{seg.label or '—'} ({seg.first}"
                tip += f"–{seg.last})" if seg.last != seg.first else ")"
                none = "" if seg.label else ' class="none"'
                parts.append(
                    f'<g><title>{escape(tip)}</title><rect x="{seg.x}" y="{y}" '
                    f'width="{seg.width}" height="{lane_height}" rx="3"{none}/>'
                    f'<text x="{round(seg.x + 4, 1)}" y="{y + 17}">{escape(seg.text)}</text></g>'
                )
            parts.append("</g>")
        height = top + len(self.lanes) * (lane_height + gap) + 16
        xs = [round(left + (i + 0.5) * cell, 1) for i in range(count)]
        parts.append('<g class="grid" aria-hidden="true">')
        for i, text in _spread([str(n) for n in self.events], xs):
            parts.append(
                f'<text x="{xs[i]}" y="{height - 3}" text-anchor="middle">{escape(text)}</text>'
            )
        parts.append("</g>")
        return ChartLayout(
            name=name,
            suffix="" if name == "wide" else "-n",
            width=width,
            height=height,
            body=mark_safe("".join(parts)),  # every text is escaped
        )


def _segments(
    events: list[int] | tuple[int, ...], holders: tuple[str, ...], left: int, cell: float
) -> list[Segment]:
    """Consecutive events with the same holder merged into one segment."""
    segments: list[Segment] = []
    start = 0
    for i in range(1, len(holders) + 1):
        if i == len(holders) or holders[i] != holders[start]:
            span = (i - start) * cell - 1
            segments.append(
                Segment(
                    x=round(left + start * cell, 1),
                    width=round(span, 1),
                    label=holders[start],
                    text=_fit(holders[start], span),
                    first=events[start],
                    last=events[i - 1],
                )
            )
            start = i
    return segments


def timeline(events: list[int], lanes: list[tuple[str, Any, list[str]]]) -> Timeline:
    """One lane per award (key, label, holder after each event)."""
    return Timeline(
        events=tuple(events),
        labels=tuple(label for _, label, _ in lanes),
        table=tuple(
            (event, tuple(holders[i] for _, _, holders in lanes)) for i, event in enumerate(events)
        ),
        lanes=tuple((key, label, tuple(holders)) for key, label, holders in lanes),
    )


def _table_body(
    rows: Iterable[tuple[str, tuple[str, ...]]],
    *,
    empty: str = "–",
    head: str = "stick-l stick-l0 stick-last",
) -> SafeString:
    """``<tr>`` rows of a chart's data table: the row's label (escaped by the caller, in a
    sticky header cell of class ``head``) then its values (escaped here; ``empty`` where there
    is none)."""
    start = f'<tr><th scope="row" class="{head}">'
    return mark_safe(  # every value is escaped
        "".join(
            f"{start}{label}</th>"
            + "".join(f"<td>{escape(v) if v else empty}</td>" for v in values)
            + "</tr>"
            for label, values in rows
        )
    )


def _fit(text: str, width: float, char_width: float = CHAR) -> str:
    """``text`` cut to what ``width`` units hold at the charts' font size ("" if nothing does)."""
    room = int((width - 8) // char_width)
    if len(text) <= room:
        return text
    return text[: room - 1] + "…" if room >= 3 else ""
