"""Demo Grand Tour: a 6-stage tour of 4 teams with 4 stages resolved and one Rest Day."""

from __future__ import annotations

import random
from typing import Any

from tournament.competitions import services
from tournament.competitions.kinds import get_kind
from tournament.tours.models import Rider, Tour
from tournament.tours.setup import TourSetupSerializer

DEMO_STAGES = [
    {
        "name": "Avenue Corso Paseo",
        "course": "abcdefghijklmnopqrstu",
        "stacks": [{"id": "s1", "type": "major", "side": "sprint", "square": 40}],
    },
    {
        "name": "Firenze–Milano",
        "course": "abcgiDHqntmKOLrepJsfu",
        "stacks": [
            {"id": "m1", "type": "minor", "side": "mountain", "square": 30},
            {"id": "s1", "type": "minor", "side": "sprint", "square": 60},
        ],
    },
    {
        "name": "La Haute Montagne",
        "course": "abcfimetKGLHJsdopRQNU",
        "stacks": [{"id": "m1", "type": "major", "side": "mountain", "square": 43}],
    },
    {
        "name": "La Classicissima",
        "course": "AebQRNHPcgikDFsLojmtu",
        "stacks": [{"id": "m1", "type": "minor", "side": "mountain", "square": 20}],
    },
    {"name": "Le Col du Ballon", "course": "AnLHgceqtrMBoipjDFkSu"},
    {"name": "Ronde van Wevelgem", "course": "abcmgfteqonLPjkIDHrSu"},
]
DEMO_TEAMS = [
    ("Vermelho", "Ana", "grimpeur", None),
    ("Azul", "Rui", None, "squirrel"),
    ("Verde", "Inês", "puncheur", None),
    ("Amarelo", "Tiago", None, None),
]


def demo_results(riders: list[Rider], rng: random.Random, finish: str) -> list[dict[str, Any]]:
    """Plausible results: packs crossing over a few rounds, as a table would produce them."""
    timing = [50, 40, 30, 20, 10, 0] if finish == "flat" else [40, 30, 20, 10, 0]
    order = riders[:]
    rng.shuffle(order)
    rows = []
    minutes, seconds = 0, rng.choice(timing[2:])
    for position, rider in enumerate(order, start=1):
        if position > 1 and rng.random() < 0.35:
            minutes += 1
            seconds = rng.choice(timing)
        rows.append(
            {
                "rider": rider.pk,
                "position": position,
                "minutes": minutes,
                "seconds": seconds,
                "sprint_points": rng.choice([0, 0, 0, 1, 2, 3]),
                "mountain_points": rng.choice([0, 0, 0, 0, 2, 4])
                if finish == "ascent"
                else rng.choice([0, 0, 0, 0, 1]),
                "exhaustion": rng.randint(0, 5),
            }
        )
    return rows


def create_demo_tour(*, club: Any, organiser: Any, scorekeeper: Any) -> Tour:
    setup = TourSetupSerializer(
        data={
            "stages": DEMO_STAGES,
            "rest_days_after": [3],
            "teams": [
                {
                    "name": name,
                    "player": player,
                    "riders": [
                        {
                            "name": f"{player} Rouleur",
                            "role": "rouleur",
                            "specialist": r_spec or "",
                        },
                        {
                            "name": f"{player} Sprinteur",
                            "role": "sprinteur",
                            "specialist": s_spec or "",
                        },
                    ],
                }
                for name, player, r_spec, s_spec in DEMO_TEAMS
            ],
            "rules": {},
        }
    )
    setup.is_valid(raise_exception=True)
    kind = get_kind("tour")
    tour = services.create_competition(
        kind=kind,
        club=club,
        name="Volta Demo 2026",
        public=True,
        seed=2026,
        setup=setup.validated_data,
        by=organiser,
    )
    riders = list(Rider.objects.filter(team__tour=tour).order_by("team__order", "role"))
    rng = random.Random(2026)
    for stage in tour.stages.order_by("number")[:4]:
        services.submit_results(
            kind=kind,
            competition_id=tour.pk,
            number=stage.number,
            rows=demo_results(riders, rng, stage.finish),
            by=scorekeeper,
        )
    return tour


def build(*, club: Any, organiser: Any, scorekeeper: Any) -> list[str]:
    """Create the demo tour unless the club has a tour already; lines to print."""
    if Tour.objects.filter(club=club).exists():
        return []
    tour = create_demo_tour(club=club, organiser=organiser, scorekeeper=scorekeeper)
    return [f"Demo tour {tour.pk}: {tour.name}"]
