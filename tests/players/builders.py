"""Hand-made competitions for the player page and hall-of-fame tests (ORM rows, no engine).

The standings documents carry only the keys the pages read, with figures the tests state: a
tour's Tour Points and jerseys, a championship's drivers' points. Events past ``resolved`` are
planned (the competition is then running, not finished).
"""

from __future__ import annotations

from typing import Any

from tournament.championships.models import Championship, Race, RaceStandings
from tournament.championships.models import Driver as FDDriver
from tournament.clubs.models import Club
from tournament.competitions.models import Status
from tournament.players.models import Player
from tournament.rallies.models import Driver as RallyDriver
from tournament.rallies.models import Rally, RallyStage, RallyStandings
from tournament.tours.models import Rider, Stage, StageStandings, Team, Tour

STAGE_POINTS = [5, 3, 1, 0, 0, 0]  # Tour Points per stage by the team's best rider's place


def tour(
    club: Club,
    name: str,
    players: list[Player],
    orders: list[list[int]],
    *,
    yellow: list[int] | None = None,
    green: list[int] | None = None,
    planned: int = 0,
    public: bool = True,
) -> Tour:
    """Teams of ``players``; per stage, ``orders`` lists team indexes in finishing order (their
    rouleurs in that order, then their sprinteurs); ``yellow`` / ``green``: the team index
    whose rouleur / sprinteur holds the jersey after each stage (default: no jersey)."""
    made = Tour.objects.create(club=club, name=name, public=public)
    teams = [
        Team.objects.create(tour=made, order=i + 1, name=f"{p.name} team", club_player=p)
        for i, p in enumerate(players)
    ]
    riders = [
        (
            Rider.objects.create(team=t, name=f"{t.name} R", role="rouleur"),
            Rider.objects.create(team=t, name=f"{t.name} S", role="sprinteur"),
        )
        for t in teams
    ]
    points = [0] * len(teams)
    for number, order in enumerate(orders, start=1):
        results = [{"rider": riders[t][0].pk, "position": i + 1} for i, t in enumerate(order)]
        results += [
            {"rider": riders[t][1].pk, "position": len(order) + i + 1} for i, t in enumerate(order)
        ]
        stage = Stage.objects.create(
            competition=made, number=number, status=Status.RESOLVED, results=results
        )
        for place, t in enumerate(order):
            points[t] += STAGE_POINTS[place]
        ranking = sorted(range(len(teams)), key=lambda t: (-points[t], t))
        jerseys = {
            "yellow": riders[yellow[number - 1]][0].pk if yellow else None,
            "green": riders[green[number - 1]][1].pk if green else None,
            "polka_dot": None,
        }
        data = {
            "tour_points": [
                {"team": teams[t].pk, "rank": r + 1, "total": points[t]}
                for r, t in enumerate(ranking)
            ],
            "jerseys": jerseys,
        }
        StageStandings.objects.create(competition=made, event=stage, number=number, data=data)
    for extra in range(planned):
        Stage.objects.create(competition=made, number=len(orders) + extra + 1)
    return made


RACE_POINTS = [10, 6, 4, 3, 2, 1]


def championship(
    club: Club,
    name: str,
    players: list[Player],
    orders: list[list[int]],
    *,
    planned: int = 0,
    public: bool = True,
) -> Championship:
    """Formula D drivers ``players``; per race, driver indexes in finishing order."""
    made = Championship.objects.create(club=club, name=name, public=public)
    drivers = [
        FDDriver.objects.create(championship=made, order=i + 1, name=p.name, club_player=p)
        for i, p in enumerate(players)
    ]
    points = [0] * len(drivers)
    for number, order in enumerate(orders, start=1):
        race = Race.objects.create(
            competition=made,
            number=number,
            circuit="monaco",
            status=Status.RESOLVED,
            results=[{"driver": drivers[d].pk, "position": i + 1} for i, d in enumerate(order)],
        )
        for place, d in enumerate(order):
            points[d] += RACE_POINTS[place]
        ranking = sorted(range(len(drivers)), key=lambda d: (-points[d], d))
        rows = [
            {"driver": drivers[d].pk, "rank": r + 1, "points": points[d]}
            for r, d in enumerate(ranking)
        ]
        RaceStandings.objects.create(
            competition=made, event=race, number=number, data={"drivers": rows}
        )
    for extra in range(planned):
        Race.objects.create(competition=made, number=len(orders) + extra + 1, circuit="monaco")
    return made


def rally(
    club: Club, name: str, players: list[Player], times: list[list[int]], *, public: bool = True
) -> Rally:
    """Rally drivers ``players``; per stage, each driver's time (seconds, in player order)."""
    made = Rally.objects.create(club=club, name=name, public=public)
    drivers = [
        RallyDriver.objects.create(rally=made, order=i + 1, name=p.name, club_player=p)
        for i, p in enumerate(players)
    ]
    totals = [0] * len(drivers)
    stages: list[dict[str, Any]] = []
    for number, row in enumerate(times, start=1):
        stage = RallyStage.objects.create(competition=made, number=number, status=Status.RESOLVED)
        order = sorted(range(len(drivers)), key=lambda d: (row[d], d))
        stages.append(
            {
                "number": number,
                "times": [{"driver": drivers[d].pk, "rank": r + 1} for r, d in enumerate(order)],
            }
        )
        for d, seconds in enumerate(row):
            totals[d] += seconds
        ranking = sorted(range(len(drivers)), key=lambda d: (totals[d], d))
        overall = [
            {"driver": drivers[d].pk, "rank": r + 1, "time": totals[d]}
            for r, d in enumerate(ranking)
        ]
        RallyStandings.objects.create(
            competition=made,
            event=stage,
            number=number,
            data={"overall": overall, "stages": list(stages)},
        )
    return made
