"""Translated names of games, titles and records on the player pages and the hall of fame."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring import clock

#: A game's competitions, as a column or line label.
GAMES: dict[str, Promise] = {
    "tour": _("Grand Tours"),
    "championship": _("Formula D championships"),
    "league": _("Leagues"),
    "rally": _("Rallies"),
}
#: One competition of a game.
GAME_ONE: dict[str, Promise] = {
    "tour": _("Grand Tour"),
    "championship": _("Formula D championship"),
    "league": _("League"),
    "rally": _("Rally"),
}
TITLES: dict[str, Promise] = {
    "tour_points": _("Tour winner (Tour Points)"),
    "drivers": _("Drivers' title"),
    "overall": _("Rally winner"),
    "yellow": _("Yellow jersey"),
    "green": _("Green jersey"),
    "polka_dot": _("Polka Dot jersey"),
    "leader": _("Leader"),
}
RECORDS: dict[tuple[str, str], Promise] = {
    ("event_wins", "tour"): _("Most stage wins in one tour"),
    ("event_wins", "championship"): _("Most race wins in one championship"),
    ("event_wins", "league"): _("Most race wins in one league"),
    ("event_wins", "rally"): _("Most stage wins in one rally"),
    ("margin", "tour"): _("Largest winning margin (Tour Points)"),
    ("margin", "championship"): _("Largest winning margin (points)"),
    ("margin", "league"): _("Largest winning margin (points)"),
    ("margin", "rally"): _("Largest winning margin (time)"),
    ("lead_run", "tour"): _("Longest run in yellow (stages)"),
    ("lead_run", "championship"): _("Longest run leading the championship (races)"),
    ("lead_run", "league"): _("Longest run leading the league (races)"),
    ("lead_run", "rally"): _("Longest run leading the rally (stages)"),
    ("jersey_stages", "tour"): _("Most jerseys in one tour (stages in a jersey)"),
}


def title(key: str) -> str:
    return str(TITLES.get(key, key))


def record(key: str, kind: str) -> str:
    return str(RECORDS.get((key, kind), key))


def figure(key: str, kind: str, value: int) -> str:
    """A record's figure as the page writes it (a rally's margin is a time)."""
    if key == "margin" and kind == "rally":
        return clock.clock(value)
    return str(value)
