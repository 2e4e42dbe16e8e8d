"""Share cards: a 1200×630 PNG of one resolved event, for chats and social previews.

The card shows the club and competition names, the event's podium and the leaders after it
(for a tour, the jersey holders in their colours), drawn with Pillow in DejaVu Sans, shipped in
``static/podium/fonts/`` (Bitstream Vera licence, ``LICENSE-DejaVu.txt``) so every accented
letter of Portuguese, Spanish and French is drawn the same on any server. The card reads the
standings stored after the event (its snapshot): a correction of the event's results stores a
new snapshot and a new event version, and so a new card.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Final

from django.conf import settings
from django.utils.translation import gettext as _
from PIL import Image, ImageDraw, ImageFont

from scoring.clock import clock, gap
from tournament.competitions.kinds import get_kind

WIDTH, HEIGHT = 1200, 630
FONT_DIR: Final = Path(settings.BASE_DIR) / "static" / "podium" / "fonts"

INK, MUTED, PAPER, BAND, ACCENT = "#1d2228", "#5b6570", "#ffffff", "#0b5cad", "#0b5cad"
MEDALS: Final = ("#d4a017", "#9aa3ad", "#b0703c")
#: Jersey colours as on the pages (podium.css): fill, outline.
JERSEY_COLOURS: Final = {
    "yellow": ("#f2c500", "#333333"),
    "green": ("#2e9d48", "#333333"),
    "polka_dot": ("#ffffff", "#d42c2c"),
}
#: The jersey of the pages' sprite (a 24-unit box), as a polygon.
JERSEY_SHAPE: Final = (
    (8, 2), (2, 6), (5, 11), (7, 10), (7, 22), (17, 22), (17, 10), (19, 11), (22, 6),
    (16, 2), (14.5, 4.2), (12, 5), (9.5, 4.2),
)  # fmt: skip


@dataclass(frozen=True)
class Line:
    place: int | None
    name: str
    detail: str = ""
    jersey: str = ""  # a jersey key (tours): drawn in its colours before the name


@dataclass
class Card:
    club: str
    competition: str
    event: str  # "Stage 3 · Etapa 3"
    footer: str  # "Standings after stage 3 of 5"
    podium: list[Line] = field(default_factory=list)
    leaders_title: str = ""
    leaders: list[Line] = field(default_factory=list)


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    return ImageFont.truetype(str(FONT_DIR / name), size)


def fit(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _jersey(draw: ImageDraw.ImageDraw, key: str, x: float, y: float, size: float) -> None:
    fill, outline = JERSEY_COLOURS.get(key, ("#cccccc", "#333333"))
    scale = size / 24
    points = [(x + px * scale, y + py * scale) for px, py in JERSEY_SHAPE]
    draw.polygon(points, fill=fill, outline=outline, width=3)
    if key == "polka_dot":  # the dots: the polka-dot jersey is white with red dots
        for dx, dy in ((10, 9), (14, 9), (12, 13), (10, 17), (14, 17)):
            cx, cy, r = x + dx * scale, y + dy * scale, 1.3 * scale
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=outline)


def _podium(draw: ImageDraw.ImageDraw, lines: list[Line], x: int, y: int, width: int) -> None:
    for i, line in enumerate(lines[:3]):
        top = y + i * 112
        colour = MEDALS[(line.place or i + 1) - 1] if (line.place or i + 1) <= 3 else MUTED
        draw.ellipse((x, top, x + 64, top + 64), fill=colour)
        draw.text((x + 32, top + 32), str(line.place or i + 1), font=font(34, True), fill=PAPER,
                  anchor="mm")  # fmt: skip
        draw.text((x + 84, top - 2), fit(draw, line.name, font(38, True), width - 84),
                  font=font(38, True), fill=INK)  # fmt: skip
        if line.detail:
            draw.text((x + 84, top + 44), fit(draw, line.detail, font(24), width - 84),
                      font=font(24), fill=MUTED)  # fmt: skip


def _leaders(draw: ImageDraw.ImageDraw, card: Card, x: int, y: int, width: int) -> None:
    draw.text((x, y), fit(draw, card.leaders_title, font(26, True), width), font=font(26, True),
              fill=ACCENT)  # fmt: skip
    for i, line in enumerate(card.leaders[:4]):
        top = y + 50 + i * 82
        left = x
        if line.jersey:
            _jersey(draw, line.jersey, x, top, 52)
            left = x + 66
        elif line.place is not None:
            draw.text((x, top + 4), f"{line.place}.", font=font(30, True), fill=MUTED)
            left = x + 50
        draw.text((left, top), fit(draw, line.name, font(30, True), x + width - left),
                  font=font(30, True), fill=INK)  # fmt: skip
        if line.detail:
            draw.text((left, top + 38), fit(draw, line.detail, font(22), x + width - left),
                      font=font(22), fill=MUTED)  # fmt: skip


def draw_card(card: Card) -> bytes:
    """The card as PNG bytes (1200×630)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, WIDTH, 130), fill=BAND)
    draw.text((48, 22), fit(draw, card.club, font(26), WIDTH - 96), font=font(26), fill="#d6e4f5")
    draw.text((48, 56), fit(draw, card.competition, font(50, True), WIDTH - 96),
              font=font(50, True), fill=PAPER)  # fmt: skip
    draw.text((48, 156), fit(draw, _("Podium") + " · " + card.event, font(28, True), 620),
              font=font(28, True), fill=ACCENT)  # fmt: skip
    _podium(draw, card.podium, 48, 210, 620)
    draw.line((710, 160, 710, 560), fill="#d8dde3", width=2)
    _leaders(draw, card, 740, 156, 412)
    draw.rectangle((0, HEIGHT - 56, WIDTH, HEIGHT), fill="#f2f4f7")
    draw.text((48, HEIGHT - 28), fit(draw, card.footer, font(22), 900), font=font(22),
              fill=MUTED, anchor="lm")  # fmt: skip
    draw.text((WIDTH - 48, HEIGHT - 28), "Podium", font=font(24, True), fill=ACCENT, anchor="rm")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


# --- each kind: the card of event ``number`` from the snapshot stored after it ----------------


def _footer(label: str, number: int, total: int) -> str:
    if label in ("championship", "league"):
        return _("Standings after race %(n)s of %(total)s") % {"n": number, "total": total}
    return _("Standings after stage %(n)s of %(total)s") % {"n": number, "total": total}


def _event_name(label: str, event: Any) -> str:
    base = str(get_kind(label).event_label(event.number))
    name = getattr(event, "name", "") or ""
    if label == "championship":
        name = event.circuit.title()
    return f"{base} · {name}" if name and name != base else base


def tour_card(tour: Any, event: Any, snapshot: dict[str, Any]) -> Card:
    from tournament.tours.pages import JERSEY_NAMES, Names

    names = Names.of(tour)
    results = {row["rider"]: row for row in event.results or []}

    def detail(rider: int) -> str:
        team = names.team_of(rider)
        row = results.get(rider)
        time = clock(60 * row["minutes"] + row["seconds"]) if row else ""
        return " · ".join(part for part in (team.name if team else "", time) if part)

    card = Card(
        tour.club.name,
        tour.name,
        _event_name("tour", event),
        _footer("tour", event.number, len(tour.stages.all())),
        podium=[
            Line(i, names.rider(rider), detail(rider))
            for i, rider in enumerate((snapshot.get("stage") or {}).get("podium") or [], 1)
        ],
        leaders_title=_("Jerseys"),
    )
    jerseys = snapshot.get("jerseys") or {}
    general = {row.get("rider"): row for row in snapshot.get("general") or []}
    for key, label in JERSEY_NAMES.items():
        rider = jerseys.get(key)
        if rider is None:
            continue
        extra = ""
        if key == "yellow" and rider in general and general[rider].get("time") is not None:
            extra = " · " + clock(general[rider]["time"])
        card.leaders.append(Line(None, names.rider(rider), f"{label}{extra}", jersey=key))
    return card


def _points_card(label: str, competition: Any, event: Any, snapshot: dict[str, Any]) -> Card:
    n = event.number
    drivers = snapshot.get("drivers") or []
    placed = [
        d for d in drivers if len(d.get("results") or []) >= n and d["results"][n - 1] in (1, 2, 3)
    ]
    placed.sort(key=lambda d: d["results"][n - 1])

    def scored(d: dict[str, Any]) -> str:
        totals = d.get("race_points") or []
        got = totals[n - 1] if n <= len(totals) else None
        pts = _("%(n)s pts") % {"n": got} if got is not None else ""
        return " · ".join(part for part in (d.get("team") or "", pts) if part)

    return Card(
        competition.club.name,
        competition.name,
        _event_name(label, event),
        _footer(label, n, len(competition.races.all())),
        podium=[Line(d["results"][n - 1], d["name"], scored(d)) for d in placed],
        leaders_title=_("Drivers"),
        leaders=[
            Line(d.get("rank"), d["name"], _("%(n)s pts") % {"n": d["points"]}) for d in drivers[:4]
        ],
    )


def championship_card(champ: Any, event: Any, snapshot: dict[str, Any]) -> Card:
    return _points_card("championship", champ, event, snapshot)


def league_card(league: Any, event: Any, snapshot: dict[str, Any]) -> Card:
    return _points_card("league", league, event, snapshot)


def rally_card(rally: Any, event: Any, snapshot: dict[str, Any]) -> Card:
    from tournament.rallies import pages as rally_pages

    names = rally_pages.names_of(rally)
    stage = rally_pages.stage_table(snapshot, event.number, names)
    podium = []
    for row in stage.rows[:3]:
        rank, name, time = row.cells[0].value, row.cells[1].value, row.cells[2].value
        podium.append(Line(rank, str(name), clock(time) if isinstance(time, int) else ""))
    leaders = [
        Line(
            row.get("rank"),
            str(row.get("name", "")),
            clock(row["time"]) + (f" ({gap(row['gap'])})" if row.get("gap") else "")
            if isinstance(row.get("time"), int)
            else "",
        )
        for row in (snapshot.get("overall") or [])[:4]
    ]
    return Card(
        rally.club.name,
        rally.name,
        _event_name("rally", event),
        _footer("rally", event.number, len(rally.stages.all())),
        podium=podium,
        leaders_title=_("Overall classification"),
        leaders=leaders,
    )


BUILDERS: Final[dict[str, Callable[[Any, Any, dict[str, Any]], Card]]] = {
    "tour": tour_card,
    "championship": championship_card,
    "league": league_card,
    "rally": rally_card,
}
