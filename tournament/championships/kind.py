"""Formula D as a :class:`GameKind`: FD-79 validation, standings and simulation via the engines.

The pure packages do the rules: ``scoring.formula_d`` validates a race's rows (FD-78, FD-79) and
computes the standings (FD-70 to FD-77); ``games.formula_d`` plays a race with automatic drivers.
This module only loads rows into their dataclasses and maps their answers to the workflow's.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from games.formula_d import Entrant, FormulaDError, shipped_circuits, simulate_race
from scoring.formula_d import (
    ChampionshipDriver,
    FormulaDRules,
    RaceResult,
    Standings,
    build_formula_d_rules,
    parse_race_results,
    standings_snapshots,
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
from tournament.championships.serializers import (
    ChampionshipCreateSerializer,
    ChampionshipPatchSerializer,
    ChampionshipSerializer,
    ChampionshipStandingsSerializer,
    RaceDetailSerializer,
    RaceResultsInputSerializer,
    RaceResultsSchemaSerializer,
)
from tournament.championships.setup import ChampionshipSetupSerializer, explicit_rules
from tournament.competitions.entry_lists import (
    driver_names,
    driver_payload,
    entrant_names,
    race_entry_payload,
    save_drivers,
)
from tournament.competitions.errors import InvalidInput, ResolutionError
from tournament.competitions.kinds import Document, GameKind, Row
from tournament.competitions.serializers import event_date

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


class FormulaDKind(GameKind[Championship, Race]):
    label = "championship"
    title = "Championship"
    collection = "championships"
    event_word = "races"
    after_param = "after_race"
    entrant_field = "driver"

    competition_model = Championship
    event_model = Race
    version_model = RaceResultVersion
    snapshot_model = RaceStandings
    setup_models = (Driver,)
    detail_prefetch = (
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
        Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
    )

    create_serializer = ChampionshipCreateSerializer
    patch_serializer = ChampionshipPatchSerializer
    setup_serializer = ChampionshipSetupSerializer
    # Rows reach the pure FD-79 check as sent; the schema documents their fields.
    results_serializer = RaceResultsInputSerializer
    results_schema_serializer = RaceResultsSchemaSerializer
    detail_serializer = ChampionshipSerializer
    event_serializer = RaceDetailSerializer
    standings_serializer = ChampionshipStandingsSerializer

    setup_fields = ("drivers", "races", "rules", "rule_set", "points")
    setup_columns = ("rule_set", "rules", "points", "points_preset")
    created_counts = ("drivers", "races")

    def event_label(self, number: int) -> str:
        return _("Race %(number)s") % {"number": number}

    def validate_results(
        self, competition: Championship, event: Race, rows: list[Row]
    ) -> list[Row]:
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

    def compute_snapshots(
        self, competition: Championship, events: Sequence[Race]
    ) -> list[Document]:
        return standings_snapshots(
            championship_drivers(load_drivers(competition)),
            [race_result(e) for e in events],
            points=competition.points,
            rules=fd_rules(competition),
        )

    def initial_standings(self, competition: Championship) -> Document:
        # API.md: before any race the lists are empty (no query needed).
        return Standings(None, (), ()).to_json()

    def setup_payload(self, competition: Championship) -> Document:
        """Rule set, points, drivers, races and the rules the club chose (not the defaults)."""
        drivers = list(competition.drivers.all())
        names = driver_names(drivers)
        races = [
            {
                "circuit": race.circuit,
                "laps": race.laps,
                **race_entry_payload(race.drivers, names),
                **({"date": event_date(race.date)} if race.date else {}),
            }
            for race in competition.races.all()
        ]
        return {
            "rule_set": competition.rule_set,
            "points": competition.points_preset or list(competition.points),
            "drivers": [
                {**driver_payload(d), **({"build": d.build} if d.build else {})} for d in drivers
            ],
            "races": races,
            "rules": explicit_rules(competition.rules, competition.rule_set),
        }

    def write_setup(self, competition: Championship, setup: Document) -> None:
        ids = save_drivers(
            Driver,
            "championship",
            competition,
            (
                Driver(
                    championship=competition,
                    order=order,
                    name=d["name"],
                    team=d.get("team") or "",
                    build=d.get("build"),
                )
                for order, d in enumerate(setup["drivers"], start=1)
            ),
        )
        Race.objects.bulk_create(
            Race(
                competition=competition,
                number=number,
                circuit=race["circuit"],
                laps=race["laps"],
                drivers=[ids[name] for name in race["drivers"]],
                date=race.get("date"),
            )
            for number, race in enumerate(setup["races"], start=1)
        )

    def entrant_keys(self, competition: Championship) -> dict[int, str]:
        return entrant_names(competition)  # driver names are unique (API.md)

    def check_simulable(self, competition: Championship, event: Race) -> None:
        if event.circuit not in shipped_circuits():
            raise InvalidInput(
                {
                    "circuit": [
                        _("The simulator has no data for %(circuit)s; it knows %(known)s.")
                        % {"circuit": event.circuit, "known": ", ".join(shipped_circuits())}
                    ]
                }
            )

    def simulate(self, competition: Championship, event: Race) -> tuple[list[Row], Document]:
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


def _normalise(row: Row) -> Row:
    return {
        "driver": row["driver"],
        "position": row["position"],
        "status": row["status"],
        "laps": row["laps"],
        "elimination_order": row.get("elimination_order"),
        "wp_left": row.get("wp_left"),
        "pole": row.get("pole") is True,
    }
