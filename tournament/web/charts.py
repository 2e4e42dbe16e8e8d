"""SVG geometry for the standings charts, computed in Python so templates only draw.

Two generic charts: a *line chart* of a rank (or gap) per entrant across events, and a *holder
timeline* (who held each jersey, or led, after each event). Both come with the data a text
alternative needs; the templates add ``role="img"``, ``<title>``, ``<desc>`` and a data table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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
TIME_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600)
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


@dataclass(frozen=True)
class PlottedSeries:
    label: str
    points: str  # the polyline's "x,y x,y"
    dots: tuple[tuple[float, float, int], ...]  # (x, y, value) of every point
    label_x: float
    label_y: float
    colour: int
    dashed: bool
    values: tuple[int | None, ...]


@dataclass(frozen=True)
class LineChart:
    width: int
    height: int
    left: int
    top: int
    plot_width: int
    plot_height: int
    x_ticks: tuple[tuple[float, str], ...]
    y_ticks: tuple[tuple[float, str], ...]
    series: tuple[PlottedSeries, ...]
    x_labels: tuple[str, ...]


def line_chart(
    x_labels: list[str],
    series: list[Series],
    *,
    lower_is_better: bool = True,
    row_height: int = 18,
    width: int = 640,
    label_width: int = 120,
    left: int = 28,
    y_step: Callable[[int], int] = nice_step,
    y_label: Callable[[int], str] = str,
) -> LineChart:
    """Place each series on a grid: x = event, y = value (rank 1 at the top by default).

    The height grows with the number of series so that every end label gets its own line; for
    ranks without ties the labels therefore never overlap. ``y_step(span)`` picks the distance
    between y ticks (a bounded number of them), ``y_label(value)`` writes a tick's label.
    """
    top, bottom = 12, 24  # ``left`` holds the y-axis labels: wider ones need a wider margin
    values = [v for s in series for v in s.values if v is not None]
    low, high = (min(values), max(values)) if values else (1, 1)
    if high == low:
        high = low + 1
    plot_height = max(120, row_height * max(len(series) - 1, 1))
    plot_width = width - left - label_width
    count = max(len(x_labels), 1)

    def x_at(index: int) -> float:
        return round(left + (plot_width * index / (count - 1) if count > 1 else plot_width / 2), 1)

    def y_at(value: int) -> float:
        share = (value - low) / (high - low)
        if not lower_is_better:
            share = 1 - share
        return round(top + share * plot_height, 1)

    plotted = []
    for item in series:
        dots = tuple((x_at(i), y_at(v), v) for i, v in enumerate(item.values) if v is not None)
        last = dots[-1] if dots else (x_at(0), y_at(low), 0)
        plotted.append(
            PlottedSeries(
                label=item.label,
                points=" ".join(f"{x},{y}" for x, y, _ in dots),
                dots=dots,
                label_x=round(left + plot_width + 6, 1),
                label_y=round(last[1] + 4, 1),
                colour=item.colour % PALETTE_SIZE,
                dashed=item.dashed,
                values=item.values,
            )
        )
    # A tick per event; with many events only every other label is written, to stay legible.
    step = 1 if count <= 12 else 2
    x_ticks = tuple(
        (x_at(i), label if i % step == 0 or i == count - 1 else "")
        for i, label in enumerate(x_labels)
    )
    # A rank chart counts from its leader (rank 1 keeps its tick); any other from zero.
    anchor = low if lower_is_better else 0
    y_ticks = tuple(
        (y_at(v), y_label(v))
        for v in tick_values(low, high, anchor=anchor, step=y_step(high - low))
    )
    return LineChart(
        width=width,
        height=top + plot_height + bottom,
        left=left,
        top=top,
        plot_width=plot_width,
        plot_height=plot_height,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        series=tuple(plotted),
        x_labels=tuple(x_labels),
    )


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
    width: int
    height: int
    left: int
    lane_height: int
    lanes: tuple[Lane, ...]
    x_ticks: tuple[tuple[float, str], ...]
    events: tuple[int, ...]
    labels: tuple[Any, ...]  # lane labels: the data table's columns
    table: tuple[tuple[int, tuple[str, ...]], ...]  # (event, holder per lane): its rows


def timeline(
    events: list[int], lanes: list[tuple[str, Any, list[str]]], *, width: int = 640
) -> Timeline:
    """One lane per award; consecutive events with the same holder merge into one segment."""
    left, lane_height, gap, top = 90, 26, 6, 4
    count = max(len(events), 1)
    cell = (width - left) / count
    built = []
    for index, (key, label, holders) in enumerate(lanes):
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
        built.append(
            Lane(
                key=key, label=label, y=top + index * (lane_height + gap), segments=tuple(segments)
            )
        )
    x_ticks = tuple((round(left + (i + 0.5) * cell, 1), str(n)) for i, n in enumerate(events))
    return Timeline(
        width=width,
        height=top + len(lanes) * (lane_height + gap) + 16,
        left=left,
        lane_height=lane_height,
        lanes=tuple(built),
        x_ticks=x_ticks,
        events=tuple(events),
        labels=tuple(label for _, label, _ in lanes),
        table=tuple(
            (event, tuple(holders[i] for _, _, holders in lanes)) for i, event in enumerate(events)
        ),
    )


def _fit(text: str, width: float, char_width: float = 6.5) -> str:
    """``text`` cut to what ``width`` SVG units hold at the timeline's font size."""
    room = int((width - 6) // char_width)
    if len(text) <= room:
        return text
    return text[: room - 1] + "…" if room >= 3 else ""
