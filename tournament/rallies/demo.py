"""Demo rallies and a rally championship for ``manage.py demo`` (idempotent).

Two rallies of four drivers on the sample layouts: the first complete (times, ``m:ss``, turn
logs, a penalty and a Super Rally retirement), the second with two of its three stages scored,
and a championship of both with a power stage, so every page has something to show.
"""

from __future__ import annotations

import random
from typing import Any

from tournament.competitions import services as workflow
from tournament.competitions.kinds import get_kind
from tournament.rallies.models import Driver, Rally
from tournament.rallies.services import create_championship
from tournament.rallies.setup import RallySetupSerializer

DEMO_DRIVERS = ["Ana", "Rui", "Inês", "Tiago"]
DEMO_RALLIES = [
    ("Rali Demo de Sintra", 11, ["SS1 Pena", "SS2 Azoia", "SS3 Colares"], 3),
    ("Rali Demo da Arrábida", 12, ["SS1 Portinho", "SS2 Risco", "SS3 Serra"], 2),
]
LAYOUTS = ["gravel-flats", "twisty-jumps", "ford-cuts"]
CHAMPIONSHIP = "Taça Demo de Ralis"


def demo_log(rng: random.Random) -> str:
    """A plausible RM-55 turn log: mostly high gears, now and then a LoC card."""
    turns = [str(rng.choice([3, 4, 5, 5, 6, 6, 6, 4, 0])) for _ in range(rng.randint(8, 12))]
    return " ".join([*turns, f"t{rng.randint(0, 4)}"])


def demo_sheet(
    drivers: list[int], rng: random.Random, number: int, rally_index: int
) -> list[dict[str, Any]]:
    """A sheet mixing the three ways of giving a time (RM-52), a penalty and a retirement."""
    rows: list[dict[str, Any]] = []
    for index, driver in enumerate(drivers):
        seconds = rng.randint(150, 240)
        if rally_index == 0 and number == 2 and index == 3:
            rows.append({"driver": driver, "status": "retired"})  # RM-46: Super Rally
        elif index % 3 == 0:
            rows.append({"driver": driver, "log": demo_log(rng)})
        elif index % 3 == 1:
            rows.append({"driver": driver, "time": f"{seconds // 60}:{seconds % 60:02d}"})
        else:
            rows.append({"driver": driver, "time": seconds})
    if number == 1:
        rows[1]["penalties"] = [{"seconds": 10, "reason": "jump start"}]
    return rows


def build(*, club: Any, organiser: Any, scorekeeper: Any) -> list[str]:
    """Create the demo rallies and championship unless the club has them; lines to print."""
    if Rally.objects.filter(club=club, name=DEMO_RALLIES[0][0]).exists():
        return []
    rng = random.Random(2026)
    rallies = []
    lines = []
    for rally_index, (name, seed, stage_names, scored) in enumerate(DEMO_RALLIES):
        setup = RallySetupSerializer(
            data={
                "drivers": [{"name": n} for n in DEMO_DRIVERS],
                "stages": [
                    {"name": s, "layout": layout}
                    for s, layout in zip(stage_names, LAYOUTS, strict=True)
                ],
                "rules": {},
            }
        )
        setup.is_valid(raise_exception=True)
        rally = workflow.create_competition(
            kind=get_kind("rally"),
            club=club,
            name=name,
            public=True,
            seed=seed,
            setup=setup.validated_data,
            by=organiser,
        )
        drivers = list(
            Driver.objects.filter(rally=rally).order_by("order").values_list("pk", flat=True)
        )
        for number in range(1, scored + 1):
            workflow.submit_results(
                kind=get_kind("rally"),
                competition_id=rally.pk,
                number=number,
                rows=demo_sheet(drivers, rng, number, rally_index),
                by=scorekeeper,
            )
        rallies.append(rally)
        lines.append(f"Demo rally {rally.pk}: {rally.name}")
    championship = create_championship(
        club=club,
        name=CHAMPIONSHIP,
        public=True,
        settings={
            "points": "wrc-2010",
            "power_stage": True,
            "power_stage_points": [5, 4, 3, 2, 1],
            "drop_worst": 0,
        },
        rallies=rallies,
        by=organiser,
    )
    lines.append(f"Demo rally championship {championship.pk}: {championship.name}")
    return lines
