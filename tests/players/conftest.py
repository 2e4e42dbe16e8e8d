"""A small hand-made club history shared by the player page and hall-of-fame tests.

Ana, Rui and Gil of velo-lisboa (figures worked out in the comments of ``history``):

- Tour "Volta" (public, finished, 3 stages, teams Ana, Rui, Gil): stage orders A R G / R A G /
  A G R, Tour Points A 13, R 9, G 5; yellow A, A, R; green Gil's sprinteur on all three stages.
- Championship "Taça" (public, finished, 2 races, Ana and Rui): Rui wins both, 20 to 12.
- Rally "Serra" (public, finished, 2 stages, Ana and Rui): Rui 290 s, 300 s; Ana 300 s, 280 s:
  Ana wins by 10 s, one stage win each, each led after one stage.
- Tour "Clube" (private, running: 1 of 2 stages, Ana and Rui): Ana wins the stage, in yellow.
- Championship "Inverno" (public, running: 1 of 2 races, Ana and Gil): Gil leads.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.players import builders
from tournament.clubs.models import Club
from tournament.players.models import Player


@pytest.fixture
def history(users: dict[str, Any]) -> dict[str, Any]:
    club = Club.objects.get(slug="velo-lisboa")
    ana, rui, gil = (Player.objects.create(club=club, name=n) for n in ("Ana", "Rui", "Gil"))
    made = {
        "club": club,
        "ana": ana,
        "rui": rui,
        "gil": gil,
        "volta": builders.tour(
            club,
            "Volta",
            [ana, rui, gil],
            [[0, 1, 2], [1, 0, 2], [0, 2, 1]],
            yellow=[0, 0, 1],
            green=[2, 2, 2],
        ),
        "taca": builders.championship(club, "Taça", [ana, rui], [[1, 0], [1, 0]]),
        "serra": builders.rally(club, "Serra", [ana, rui], [[300, 290], [280, 300]]),
        "clube": builders.tour(
            club, "Clube", [ana, rui], [[0, 1]], yellow=[0], planned=1, public=False
        ),
        "inverno": builders.championship(club, "Inverno", [ana, gil], [[1, 0]], planned=1),
    }
    return made
