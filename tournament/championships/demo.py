"""Demo Formula D championship for ``manage.py demo``: 6 drivers, 5 races, 3 resolved."""

from __future__ import annotations

from typing import Any

from tournament.championships.models import Championship, Race
from tournament.championships.serializers import ChampionshipCreateSerializer
from tournament.competitions import services
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Source

DEMO_NAME = "Taça Fórmula D Demo"
DEMO_DRIVERS = [
    ("Ana", "Scuderia Tejo"),
    ("Rui", "Scuderia Tejo"),
    ("Eva", "Equipa Sado"),
    ("Gil", "Equipa Sado"),
    ("Inês", "Douro Racing"),
    ("Tiago", None),
]
# Finishing orders (indexes into DEMO_DRIVERS); the last ``out`` drivers were eliminated.
HAND_RESULTS = {1: ([2, 0, 4, 1, 3, 5], 1), 3: ([0, 4, 2, 5, 1, 3], 2)}


def _rows(race: Race, order: list[int], out: int) -> list[dict[str, Any]]:
    """FD-78 rows as a scorekeeper would type them: eliminated cars last, pole to the winner."""
    rows = []
    for position, index in enumerate(order, start=1):
        eliminated = position > len(order) - out
        rows.append(
            {
                "driver": race.drivers[index],
                "position": position,
                "status": "eliminated" if eliminated else "finished",
                "laps": 0 if eliminated else race.laps,
                **({"pole": True} if position == 1 else {}),
            }
        )
    return rows


def build(*, club: Any, organiser: Any, scorekeeper: Any) -> list[str]:
    """Create the demo championship (idempotent); lines to print."""
    if Championship.objects.filter(club=club, name=DEMO_NAME).exists():
        return []
    body = ChampionshipCreateSerializer(
        data={
            "club": club.slug,
            "name": DEMO_NAME,
            "seed": 2026,
            "points": "f1-2010",
            "drivers": [{"name": name, "team": team} for name, team in DEMO_DRIVERS],
            "races": [{"circuit": "monaco", "laps": 1}] * 5,
            "rules": {"drop_worst": 1, "pole_bonus": 1},
        }
    )
    body.is_valid(raise_exception=True)
    data = body.validated_data
    kind = get_kind("championship")
    championship = services.create_competition(
        kind=kind,
        club=club,
        name=DEMO_NAME,
        public=True,
        seed=data["seed"],
        setup=data,
        by=organiser,
    )
    races = {r.number: r for r in Race.objects.filter(competition=championship)}
    for number in (1, 2, 3):
        race = races[number]
        if number in HAND_RESULTS:
            order, out = HAND_RESULTS[number]
            services.submit_results(
                kind=kind,
                competition_id=championship.pk,
                number=number,
                rows=_rows(race, order, out),
                by=scorekeeper,
            )
        else:
            # Race 2 was played by the simulator, so the demo has a replay to look at.
            rows, replay = kind.simulate(championship, race)
            services.submit_results(
                kind=kind,
                competition_id=championship.pk,
                number=number,
                rows=rows,
                by=scorekeeper,
                source=Source.SIMULATED,
                replay=replay,
            )
    return [f"Demo championship {championship.pk}: {championship.name}"]
