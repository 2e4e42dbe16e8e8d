"""Demo league for ``manage.py demo``: a Heat club league, 5 drivers, 4 races, 2 resolved."""

from __future__ import annotations

from typing import Any

from tournament.competitions import services
from tournament.competitions.kinds import get_kind
from tournament.leagues.models import League, Race

DEMO_NAME = "Liga Heat Demo"
# (name, team); Inês drives for no team.
DRIVERS: list[tuple[str, str | None]] = [
    ("Ana", "Vermelho"),
    ("Rui", "Vermelho"),
    ("Eva", "Azul"),
    ("Gil", "Azul"),
    ("Inês", None),
]
# Finishing orders (indexes into DRIVERS) and the drivers who did not finish (last).
RESULTS = {1: ([2, 0, 4, 1, 3], 1), 2: ([0, 2, 1, 3, 4], 0)}


def build(*, club: Any, organiser: Any, scorekeeper: Any) -> list[str]:
    """Create the demo league (idempotent); lines to print."""
    if League.objects.filter(club=club, name=DEMO_NAME).exists():
        return []
    kind = get_kind("league")
    body = kind.create_serializer(
        data={
            "club": club.slug,
            "name": DEMO_NAME,
            "game": "Heat: Pedal to the Metal",
            "points": "classic",
            "drop_worst": 1,
            "bonus_points": True,
            "drivers": [{"name": name, "team": team} for name, team in DRIVERS],
            "races": [{"name": n} for n in ("USA", "Italia", "France", "Great Britain")],
        }
    )
    body.is_valid(raise_exception=True)
    league = services.create_from_request(kind=kind, data=body.validated_data, by=organiser)
    races = {r.number: r for r in Race.objects.filter(competition=league)}
    for number, (order, dnf) in RESULTS.items():
        entered = races[number].drivers
        rows = [
            {
                "driver": entered[index],
                "position": position,
                "status": "dnf" if position > len(order) - dnf else "finished",
                **({"bonus": 1} if position == 1 else {}),  # the club's point for the winner
            }
            for position, index in enumerate(order, start=1)
        ]
        services.submit_results(
            kind=kind, competition_id=league.pk, number=number, rows=rows, by=scorekeeper
        )
    return [f"Demo league {league.pk}: {league.name}"]
