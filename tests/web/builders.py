"""Tours of any size for page tests and the page benchmark, built through the services.

Results are plausible table results (``tournament.tours.demo.demo_results``); each stage is
resolved by calling the worker's service directly, so the build does not depend on whether
on-commit callbacks run (they do not inside a test transaction).
"""

from __future__ import annotations

import random
from typing import Any

from tournament.competitions.kinds import get_kind
from tournament.competitions.services import create_competition, resolve_event, submit_results
from tournament.tours.demo import demo_results
from tournament.tours.models import Rider, Stage, Tour
from tournament.tours.setup import TourSetupSerializer

PLAYERS = ["Ana", "Rui", "Gil", "Eva", "Leo", "Mia"]


def build_tour(
    *,
    club: Any,
    by: Any,
    stages: int,
    teams: int = 3,
    resolved: int | None = None,
    public: bool = True,
    name: str = "Built Tour",
    seed: int = 7,
) -> Tour:
    """A tour of ``stages`` flat stages and ``teams`` teams, the first ``resolved`` resolved."""
    setup = TourSetupSerializer(
        data={
            "stages": [{"name": f"Etapa {n}"} for n in range(1, stages + 1)],
            "rest_days_after": [stages // 2] if stages > 2 else [],
            "teams": [
                {
                    "name": f"Team {player}",
                    "player": player,
                    "riders": [
                        {"name": f"{player} R", "role": "rouleur"},
                        {"name": f"{player} S", "role": "sprinteur"},
                    ],
                }
                for player in PLAYERS[:teams]
            ],
            "rules": {},
        }
    )
    setup.is_valid(raise_exception=True)
    kind = get_kind("tour")
    tour = create_competition(
        kind=kind, club=club, name=name, public=public, seed=seed, setup=setup.validated_data, by=by
    )
    riders = list(Rider.objects.filter(team__tour=tour).order_by("team__order", "role"))
    rng = random.Random(seed)
    for stage in Stage.objects.filter(competition=tour).order_by("number")[: resolved or 0]:
        submit_results(
            kind=kind,
            competition_id=tour.pk,
            number=stage.number,
            rows=demo_results(riders, rng, "flat"),
            by=by,
        )
        resolve_event(kind=kind, event_id=stage.pk)
    tour.refresh_from_db()
    return tour
