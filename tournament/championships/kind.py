"""Formula D as a :class:`GameKind`: FD-79 validation, standings and simulation via the engines.

The pure packages do the rules: ``scoring.formula_d`` validates a race's rows (FD-78, FD-79) and
computes the standings (FD-70 to FD-77); ``games.formula_d`` plays a race with automatic drivers.
This module only loads rows into their dataclasses and maps their answers to the workflow's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from games.formula_d import Entrant, FormulaDError, shipped_circuits, simulate_race
from scoring.formula_d import (
    ChampionshipDriver,
    FormulaDRules,
    RaceResult,
    Standings,
    build_formula_d_rules,
    compute_standings,
    parse_race_results,
    validate_race_results,
)
from scoring.rng import derive_rng
from tournament.championships.messages import issues_to_errors
from tournament.championships.models import (
    Championship,
    Driver,
    Race,
    RaceResultVersion,
    RaceStandings,
)
from tournament.competitions.errors import InvalidInput, ResolutionError
from tournament.competitions.kinds import GameKind

#: Result fields in the order they are stored (``driver`` first: corrections diff by it).
ROW_FIELDS = ("driver", "position", "status", "laps", "elimination_order", "wp_left", "pole")


def fd_rules(championship: Championship) -> FormulaDRules:
    """The rules of a championship's stored (already validated) parameters."""
    rules, _errors = build_formula_d_rules(championship.rules, championship.rule_set)
    return rules


def load_drivers(championship: Championship) -> list[Driver]:
    """The championship's drivers in entry order (one query)."""
    return list(Driver.objects.filter(championship=championship).order_by("order"))


def championship_drivers(drivers: Sequence[Driver]) -> list[ChampionshipDriver]:
    # FD-77: a driver without a team is in no team row.
    return [ChampionshipDriver(id=d.pk, name=d.name, team=d.team or None) for d in drivers]


def race_result(race: Race) -> RaceResult:
    return RaceResult(number=race.number, entries=parse_race_results(race.results))


def standings_json(
    drivers: Sequence[ChampionshipDriver],
    races: Sequence[RaceResult],
    points: Sequence[int],
    rules: FormulaDRules,
    progression: dict[int, list[int]],
) -> dict[str, Any]:
    """API.md's standings plus per-driver ``race_points``, ``dropped`` and ``progression``.

    ``progression`` (driver → standings points after each race so far) is extended in place, so
    the snapshots of races 1..k are computed in one pass; the web chart reads the last one.
    """
    standings: Standings = compute_standings(drivers, races, points=points, rules=rules)
    data = standings.to_json()
    for row, standing in zip(data["drivers"], standings.drivers, strict=True):
        history = progression.setdefault(standing.driver, [])
        history.append(standing.points)
        row["race_points"] = list(standing.race_totals)  # FD-73 totals, dropped ones included
        row["dropped"] = list(standing.dropped)  # FD-74
        row["progression"] = list(history)
    return data


class FormulaDKind(GameKind):
    label = "championship"
    competition_model = Championship
    event_model = Race
    version_model = RaceResultVersion
    snapshot_model = RaceStandings
    after_param = "after_race"
    setup_fields = ("drivers", "races", "rules", "rule_set", "points")
    entrant_field = "driver"

    def event_label(self, number: int) -> str:
        return _("Race %(number)s") % {"number": number}

    def validate_results(
        self, competition: Any, event: Any, rows: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        drivers = load_drivers(competition)
        issues = validate_race_results(
            rows,
            race_drivers=list(event.drivers),
            championship_drivers=[d.pk for d in drivers],
            laps=event.laps,
            rules=fd_rules(competition),
            rule_set=competition.rule_set,
            builds={d.pk: d.build for d in drivers if d.build},
        )
        if issues:
            names = {d.pk: d.name for d in drivers}
            raise InvalidInput(issues_to_errors(issues, len(rows), names))
        # Stored in finishing order with every field (absent optional ones as null/false).
        return sorted((_normalise(row) for row in rows), key=lambda r: r["position"])

    def compute_snapshots(self, competition: Any, events: Sequence[Any]) -> list[dict[str, Any]]:
        drivers = championship_drivers(load_drivers(competition))
        rules = fd_rules(competition)
        races = [race_result(e) for e in events]
        progression: dict[int, list[int]] = {}
        return [
            standings_json(drivers, races[: k + 1], competition.points, rules, progression)
            for k in range(len(races))
        ]

    def initial_standings(self, competition: Any) -> dict[str, Any]:
        # API.md: before any race the lists are empty (no query needed).
        return Standings(None, (), ()).to_json()

    def export_setup(self, competition: Any) -> dict[str, Any]:
        from tournament.championships.serializers import setup_payload

        return {
            "name": competition.name,
            "public": competition.public,
            "seed": competition.seed,
            **setup_payload(competition),
        }

    def entrant_keys(self, competition: Any) -> dict[int, str]:
        # Driver names are unique within a championship (API.md).
        return dict(competition.drivers.values_list("pk", "name"))

    def patch_serializer(self) -> Any:
        from tournament.championships.serializers import ChampionshipPatchSerializer

        return ChampionshipPatchSerializer

    def patched_setup(self, competition: Any, data: dict[str, Any]) -> dict[str, Any] | None:
        from tournament.championships.serializers import check_patch_setup

        return check_patch_setup(competition, data)

    def update(
        self, *, competition_id: int, changes: dict[str, Any], setup: dict[str, Any] | None, by: Any
    ) -> Any:
        from tournament.championships.services import update_championship

        return update_championship(
            championship_id=competition_id, changes=changes, setup=setup, by=by
        )

    def create_serializer(self) -> Any:
        from tournament.championships.serializers import ChampionshipCreateSerializer

        return ChampionshipCreateSerializer

    def create(self, *, club: Any, data: dict[str, Any], by: Any) -> Any:
        from tournament.championships.services import create_championship

        return create_championship(
            club=club,
            name=data["name"],
            public=data["public"],
            seed=data.get("seed"),
            setup=data,
            by=by,
        )

    def check_simulable(self, competition: Any, event: Any) -> None:
        if event.circuit not in shipped_circuits():
            raise InvalidInput(
                {
                    "circuit": [
                        _("The simulator has no data for %(circuit)s; it knows %(known)s.")
                        % {"circuit": event.circuit, "known": ", ".join(shipped_circuits())}
                    ]
                }
            )

    def simulate(self, competition: Any, event: Any) -> tuple[list[dict[str, Any]], Any]:
        """Play the race with automatic drivers; randomness from the seed and race number."""
        names = {d.pk: d for d in load_drivers(competition)}
        rules = fd_rules(competition)
        # FD-59: a driver's own spread of WP, when the championship lets drivers build cars.
        builds = competition.rule_set == "advanced" and rules.own_car_build
        # FD-44: entry order (the race's ``drivers``) assigns the pit boxes.
        entrants = [
            Entrant(
                driver=pk,
                name=names[pk].name,
                team=names[pk].team or None,
                build=(names[pk].build or None) if builds else None,
            )
            for pk in event.drivers
        ]
        try:
            outcome = simulate_race(
                event.circuit,
                entrants,
                laps=event.laps,
                rules=rules,
                rule_set=competition.rule_set,
                rng=derive_rng(competition.seed, "race", event.number),
            )
        except FormulaDError as exc:
            raise ResolutionError(event.number, exc.message) from exc
        return outcome.submission(), outcome.replay_json()


def _normalise(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "driver": row["driver"],
        "position": row["position"],
        "status": row["status"],
        "laps": row["laps"],
        "elimination_order": row.get("elimination_order"),
        "wp_left": row.get("wp_left"),
        "pole": row.get("pole") is True,
    }
