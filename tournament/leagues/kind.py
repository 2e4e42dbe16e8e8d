"""Leagues as a :class:`GameKind`: a declaration over ``scoring.points``; no simulator.

``scoring.points`` checks a race's finishing order and computes the standings (FD-71, FD-73 to
FD-77, as for Formula D championships); this module only names the league's models and
serializers, loads rows into the pure dataclasses and translates the checks' codes.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import Prefetch
from django.utils.functional import Promise
from django.utils.translation import gettext as gettext_now
from django.utils.translation import gettext_lazy as _

from scoring import points
from scoring.issues import Issue
from tournament.competitions.entry_lists import (
    driver_names,
    driver_payload,
    entrant_names,
    race_entry_payload,
    save_drivers,
)
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import Document, GameKind, Row
from tournament.competitions.messages import issues_to_errors, translated
from tournament.competitions.serializers import RowsAsSentSerializer, event_date
from tournament.leagues import serializers as s
from tournament.leagues.models import Driver, League, LeagueStandings, Race, RaceResultVersion

#: The finishing-order checks' codes (scoring/points/validation.py) in the reader's language.
MESSAGES: dict[str, Promise] = {
    "not_list": _("Results must be a list of entries."),
    "not_object": _("Each entry must be an object."),
    "unknown_field": _("Unknown field %(field)s."),
    "required": _("This field is required."),
    "not_int": _("A whole number is required."),
    "invalid_status": _("Must be finished or dnf."),
    "bonus_not_allowed": _("This league gives no bonus points."),
    "bonus_range": _("A bonus is a whole number from 0 to %(limit)s."),
    "unknown_driver": _("Driver %(driver)s is not in this league."),
    "not_entered": _("%(name)s is not entered in this race."),
    "duplicate_driver": _("%(name)s is listed twice; list each driver once."),
    "missing_driver": _("%(name)s is entered in this race but has no entry."),
    "position_range": _("Positions run from 1 to %(limit)s, the number of drivers in the race."),
    "duplicate_position": _("Position %(position)s is given twice; each position is used once."),
    "dnf_ahead": _("A dnf is ranked ahead of this finisher; finishers come first."),
}


class LeagueKind(GameKind[League, Race]):
    label = "league"
    title = "League"
    collection = "leagues"
    event_word = "races"
    after_param = "after_race"
    entrant_field = "driver"

    competition_model = League
    event_model = Race
    version_model = RaceResultVersion
    snapshot_model = LeagueStandings
    setup_models = (Driver,)
    detail_prefetch = (
        Prefetch("drivers", queryset=Driver.objects.order_by("order")),
        Prefetch("races", queryset=Race.objects.order_by("number").defer("results")),
    )

    create_serializer = s.LeagueCreateSerializer
    patch_serializer = s.LeaguePatchSerializer
    setup_serializer = s.LeagueSetupSerializer
    results_serializer = RowsAsSentSerializer
    results_schema_serializer = s.LeagueResultsSchemaSerializer
    detail_serializer = s.LeagueSerializer
    event_serializer = s.LeagueRaceDetailSerializer
    standings_serializer = s.LeagueStandingsSerializer

    setup_fields = s.SETUP_FIELDS
    setup_columns = (*s.SETTINGS, "points_preset")
    created_counts = ("drivers", "races")
    export_fields = ("name", "public")  # a league has no seed (API.md)

    def event_label(self, number: int) -> str:
        return gettext_now("Race %(number)s") % {"number": number}

    def validate_results(self, competition: League, event: Race, rows: list[Row]) -> list[Row]:
        names = dict(competition.drivers.values_list("pk", "name"))
        issues = points.validate_finishing_order(
            rows,
            entered=list(event.drivers),
            known=list(names),
            bonus_allowed=competition.bonus_points,
        )

        def message(issue: Issue) -> str:
            name = names.get(issue.params.get("driver"), "")  # type: ignore[arg-type]
            return translated(
                MESSAGES.get(issue.code), issue.message, {**issue.params, "name": name}
            )

        if issues:
            raise InvalidInput(issues_to_errors(issues, len(rows), message))
        # Stored in finishing order; ``bonus`` only where the league has bonus points.
        bonus = competition.bonus_points
        return [
            {
                "driver": row["driver"],
                "position": row["position"],
                "status": row["status"],
                **({"bonus": row.get("bonus") or 0} if bonus else {}),
            }
            for row in sorted(rows, key=lambda r: r["position"])
        ]

    def compute_snapshots(self, competition: League, events: Sequence[Race]) -> list[Document]:
        league, drivers = competition, competition.drivers.order_by("order")
        entrants = [points.Entrant(d.pk, d.name, d.team or None) for d in drivers]
        races = [points.Race(e.number, points.parse_finishes(e.results)) for e in events]
        scale = points.Scale(tuple(league.points), league.points_finishers_only, league.drop_worst)
        return points.snapshots(entrants, races, scale)

    def initial_standings(self, competition: League) -> Document:
        return points.Standings(None, (), ()).to_json()

    def setup_payload(self, competition: League) -> Document:
        drivers = list(competition.drivers.order_by("order"))
        names = driver_names(drivers)
        return {
            **{key: getattr(competition, key) for key in s.SETTINGS},
            "points": competition.points_preset or list(competition.points),
            "drivers": [driver_payload(d) for d in drivers],
            "races": [
                {
                    "name": race.name,
                    **race_entry_payload(race.drivers, names),
                    **({"date": event_date(race.date)} if race.date else {}),
                }
                for race in competition.races.order_by("number")
            ],
        }

    def write_setup(self, competition: League, setup: Document) -> None:
        ids = save_drivers(
            Driver,
            "league",
            competition,
            (
                Driver(league=competition, order=order, name=d["name"], team=d.get("team") or "")
                for order, d in enumerate(setup["drivers"], start=1)
            ),
        )
        Race.objects.bulk_create(
            Race(
                competition=competition,
                number=n,
                name=r["name"],
                drivers=[ids[x] for x in r["drivers"]],
                date=r.get("date"),
            )
            for n, r in enumerate(setup["races"], start=1)
        )

    def entrant_keys(self, competition: League) -> dict[int, str]:
        return entrant_names(competition)  # driver names are unique within a league
