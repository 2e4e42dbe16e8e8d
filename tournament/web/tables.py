"""Responsive tables (issue #16): every table keeps its key columns on any width.

A table's *key* columns (its rank, its name and the figure that decides it: the time, with its
gap, or the points or total) always show. The others either

- **fold** (standings, results): when the table's box is narrower than the width the whole
  table needs, they hide and their values appear under the name, each with its column's label.
  The width is estimated here from the longest text of each column and written as a class
  (``fold-40``: fold below 40rem); ``podium.css`` has one container query per class, so a table
  folds by the width of its own box (a column of the desktop grid as well as a phone), or
- **scroll** (a matrix: one column per race or stage, e.g. the race-by-race grid): the rank and
  name stick to the left edge and the deciding figure to the right, and the columns between
  scroll inside the table's box, with shadows at the edges that have more (``podium.css``) and
  the box focusable by keyboard once it scrolls (``podium.js``).

The rows are written here rather than by template loops (only a row's tie-break note, rare,
is ``components/_tie_break.html``): a 21-stage tour page has hundreds of
cells, and Python string building is several times faster than the template engine's tags.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from django.template.loader import render_to_string
from django.utils.html import conditional_escape, escape
from django.utils.safestring import SafeString, mark_safe

from tournament.web.components import (
    GAP,
    KEY,
    MORE,
    NUMERIC_KINDS,
    RANK,
    TEXT,
    TIME,
    Cell,
    Column,
    EventList,
    EventRow,
    Table,
)

# Width estimates, in rem: a character of a 0.9rem cell, of a 0.8rem heading, a cell's padding
# and a jersey icon. Generous: a table that folds a little early is better than one cut off.
CHAR_REM, HEAD_CHAR_REM, PAD_REM, ICON_REM = 0.56, 0.5, 1.0, 1.4
FOLD_STEP, FOLD_MIN, FOLD_MAX = 4, 16, 80  # the fold-N classes of podium.css
DECIDING_KEYS = ("points", "total")
SERIES_KEY = re.compile(r"[a-z]+\d+")  # r1, ss3: the columns of a matrix
MATRIX_MIN = 4  # this many such columns make a table a matrix (it scrolls, never folds)


@dataclass(frozen=True)
class TableLayout:
    css: str  # the <table>'s classes: "fold-40", "fold-all", "matrix" or ""
    head: tuple[tuple[Any, str], ...]  # (label, class) of each column
    body: SafeString  # the <tr> rows


@dataclass(frozen=True)
class EventLayout:
    css: str  # the fold-N class of the event list
    rows: tuple[tuple[EventRow, SafeString], ...]  # each row with its folded winner and holders
    #: The <tr> rows, written here (a 21-stage list cost its template loop 1.5 ms a page).
    body: SafeString


def fold_class(need_rem: float) -> str:
    """The class folding a table whose columns need ``need_rem``: none when it always fits."""
    if need_rem <= FOLD_MIN:
        return ""
    if need_rem > FOLD_MAX:
        return "fold-all"
    return f"fold-{math.ceil(need_rem / FOLD_STEP) * FOLD_STEP}"


def key_columns(columns: tuple[Column, ...]) -> set[int]:
    """Indexes of the columns that always show: explicit priorities when a column has one,
    otherwise the rank, the first text column (the name) and the deciding figure."""
    if any(c.priority for c in columns):
        return {i for i, c in enumerate(columns) if c.priority == KEY}
    keys = {i for i, c in enumerate(columns) if c.kind == RANK}
    name = name_column(columns)
    if name is not None:
        keys.add(name)
    return keys | deciding_columns(columns)


def name_column(columns: tuple[Column, ...]) -> int | None:
    return next((i for i, c in enumerate(columns) if c.kind == TEXT and c.priority != MORE), None)


def deciding_columns(columns: tuple[Column, ...]) -> set[int]:
    """The time (and the gap beside it), else the points or total, else the last figure."""
    for i, column in enumerate(columns):
        if column.kind == TIME:
            after = i + 1
            gap = after < len(columns) and columns[after].kind == GAP
            return {i, after} if gap else {i}
    named = [i for i, c in enumerate(columns) if c.key in DECIDING_KEYS]
    if named:
        return {named[-1]}
    figures = [i for i, c in enumerate(columns) if c.numeric and c.kind != RANK]
    return {figures[-1]} if figures else set()


def cell_text(item: Cell) -> str:
    """A cell's text, formatted by its kind as the ``cell`` template tag does."""
    from tournament.web.templatetags import podium

    if item.kind == TIME:
        return podium.duration(item.value)
    if item.kind == GAP:
        return podium.gap(item.value)
    if item.kind in NUMERIC_KINDS:
        return podium.num(item.value)
    return "" if item.value is None else str(item.value)


def cell_html(item: Cell, text: str) -> str:
    from tournament.web.templatetags import podium

    content: str = escape(text)
    if item.href:
        content = f'<a href="{escape(item.href)}">{content}</a>'
    if item.icon:
        content = str(podium.jersey(item.icon)) + content
    return content


def table_layout(table: Table) -> TableLayout:
    columns = table.columns
    keys = key_columns(columns)
    name = name_column(columns)
    more = [i for i in range(len(columns)) if i not in keys]
    matrix = sum(1 for i in more if SERIES_KEY.fullmatch(columns[i].key)) >= MATRIX_MIN
    classes = [("num" if c.numeric else "") for c in columns]
    if matrix:
        _stick(classes, columns, keys, name)
    else:
        for i in more:
            classes[i] = f"{classes[i]} more".strip()
    labels = [conditional_escape(c.label) for c in columns]
    widths = [len(str(c.label)) * HEAD_CHAR_REM + PAD_REM for c in columns]
    rows = []
    for row in table.rows:
        texts = [cell_text(c) for c in row.cells]
        html = [cell_html(c, t) for c, t in zip(row.cells, texts, strict=False)]
        for i, (item, text) in enumerate(zip(row.cells, texts, strict=False)):
            width = len(text) * CHAR_REM + PAD_REM + (ICON_REM if item.icon else 0)
            widths[i] = max(widths[i], width)
        if getattr(row, "tie_break", ""):  # issue #17: why it ranks after the level row above
            html[0] += render_to_string("components/_tie_break.html", {"tie_break": row.tie_break})
        if not matrix and name is not None and more:
            folded = "".join(
                f'<span class="fi"><span class="fk">{labels[i]}</span> {html[i]}</span>'
                for i in more
                if i < len(texts) and texts[i]
            )
            if folded:
                html[name] += f'<span class="folded">{folded}</span>'

        cells = "".join(
            f'<td class="{css}">{content}</td>' if css else f"<td>{content}</td>"
            for css, content in zip(classes, html, strict=False)
        )
        rows.append(f'<tr class="hl">{cells}</tr>' if row.highlight else f"<tr>{cells}</tr>")
    css = "matrix" if matrix else (fold_class(sum(widths)) if more else "")
    return TableLayout(
        css=css,
        head=tuple(zip((c.label for c in columns), classes, strict=True)),
        body=mark_safe("".join(rows)),  # every text above is escaped
    )


def _stick(
    classes: list[str], columns: tuple[Column, ...], keys: set[int], name: int | None
) -> None:
    """A matrix's leading key columns (rank, name) stick left, its last key column right."""
    stuck = 0
    while stuck < min(len(columns), 2) and stuck in keys:
        classes[stuck] = f"{classes[stuck]} stick-l stick-l{stuck}".strip()
        stuck += 1
        if stuck - 1 == name:
            break
    if stuck:
        classes[stuck - 1] += " stick-last"
    last = len(columns) - 1
    if last in keys and "stick-l" not in classes[last]:
        classes[last] = f"{classes[last]} stick-r".strip()


def event_layout(events: EventList) -> EventLayout:
    """An event list folds its winner and holder columns below the width it needs."""
    from django.utils.translation import gettext

    from tournament.web.templatetags import podium

    if not events.rows:
        return EventLayout(css="", rows=(), body=mark_safe(""))
    name = max(
        len(r.name or str(r.number)) + len(str(r.note)) + len(str(r.after_break))
        for r in events.rows
    )
    status = max(len(str(r.status_label)) for r in events.rows)
    winner = max([len(r.winner) for r in events.rows] + [6])
    holders = [
        max([len(h) for h in hs] + [3])
        for hs in zip(*(r.holders for r in events.rows), strict=False)
    ]
    chars = name + status + winner + sum(holders)
    need = 3 + chars * CHAR_REM + (3 + len(holders)) * PAD_REM + 2  # 2: the name's badges
    label = escape(gettext("Winner"))
    # One sprite <use> per icon, named for screen readers by hidden text (lighter than a titled
    # image: a 21-stage tour lists some sixty holders).
    icons = [
        f'<svg class="jersey jersey--{escape(a.icon)}" aria-hidden="true"><use href="#i-jersey">'
        f'</use></svg><span class="sr-only">{escape(podium.JERSEY_LABELS[a.icon])}: </span>'
        if a.icon in podium.JERSEY_LABELS
        else ""
        for a in events.awards
    ]
    rows = []
    for row in events.rows:
        folded = [f'<span class="fk">{label}</span> {escape(row.winner)}'] if row.winner else []
        folded += [f"{icon}{escape(h)}" for icon, h in zip(icons, row.holders, strict=False) if h]
        items = "".join(f'<span class="fi">{item}</span>' for item in folded)
        html = f'<span class="folded">{items}</span>' if items else ""
        rows.append((row, mark_safe(html)))  # escaped above
    body = mark_safe("".join(_event_row(row, folded) for row, folded in rows))  # escaped there
    return EventLayout(css=fold_class(need), rows=tuple(rows), body=body)


def _event_row(row: EventRow, folded: str) -> str:
    """One event's ``<tr>``: number, name (linked, with its note, break and folded figures),
    status (in words), winner and holders (hidden where they fold)."""
    name = escape(row.name or row.number)
    title = f'<a href="{escape(row.url)}">{name}</a>' if row.url else escape(row.name)
    if row.note:
        title += f" <small>{escape(row.note)}</small>"
    if row.after_break:
        title += f' <span class="badge rest">{escape(row.after_break)}</span>'
    holders = "".join(f'<td class="more">{escape(h)}</td>' for h in row.holders)
    return (
        f'<tr><td class="num">{row.number}</td><td>{title}{folded}</td>'
        f'<td><span class="status status--{escape(row.status)}">{escape(row.status_label)}'
        f'</span></td><td class="more">{escape(row.winner)}</td>{holders}</tr>'
    )
