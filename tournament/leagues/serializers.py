"""League API serializers (API.md "Leagues"): the set-up, detail, race detail and result rows.

The set-up checks mirror the championships' (unique driver names, races entering known drivers)
without Formula D's rules: a league's settings are its points table and three switches.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_serializer
from rest_framework import serializers

from scoring.params import ParamError
from scoring.points import DEFAULT_LEAGUE_POINTS, points_table
from tournament.clubs.models import Club
from tournament.competitions.messages import param_message
from tournament.leagues.models import Driver, League, Race

MAX_DRIVERS = 60
MAX_RACES = 40
MAX_ROWS = 100
SETTINGS = ("game", "points", "drop_worst", "points_finishers_only", "bonus_points")
SETUP_FIELDS = (*SETTINGS, "drivers", "races")


def reject_unknown(serializer: serializers.Serializer[Any], message: str) -> None:
    """A key the endpoint does not take (``rules``, ``seed``) is a 400 (API.md), never ignored."""
    unknown = set(getattr(serializer, "initial_data", {}) or {}) - set(serializer.fields)
    if unknown:
        raise serializers.ValidationError({key: [message] for key in sorted(unknown)})


class DriverSetupSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=80)
    team = serializers.CharField(max_length=80, allow_blank=True, allow_null=True, required=False)


class RaceSetupSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=160, allow_blank=True, required=False, default="")
    drivers = serializers.ListField(
        child=serializers.CharField(max_length=80), required=False, allow_null=True
    )


class LeagueSetupSerializer(serializers.Serializer[Any]):
    """The parts of a league locked once results exist: its settings, drivers and races."""

    game = serializers.CharField(max_length=80, allow_blank=True, required=False, default="")
    points = serializers.JSONField(required=False, allow_null=True)
    drop_worst = serializers.IntegerField(min_value=0, max_value=MAX_RACES, default=0)
    points_finishers_only = serializers.BooleanField(default=True)
    bonus_points = serializers.BooleanField(default=False)
    drivers = DriverSetupSerializer(many=True)
    races = RaceSetupSerializer(many=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        return check_setup(data)


def check_setup(data: dict[str, Any]) -> dict[str, Any]:
    """Points, drivers and races together; the set-up with the effective points table."""
    errors: dict[str, Any] = {}
    raw = data.get("points")
    try:
        points = points_table(raw)
    except ParamError as exc:
        errors["points"] = [param_message(exc)]
    drivers, races = data["drivers"], data["races"]
    names = Counter(d["name"].strip().casefold() for d in drivers)
    driver_errors: list[dict[str, list[str]]] = []
    for d in drivers:
        d["name"], d["team"] = d["name"].strip(), (d.get("team") or "").strip()
        problem = (
            _("This field may not be blank.")
            if not d["name"]
            else _("Driver names must be unique within a league.")
            if names[d["name"].casefold()] > 1
            else None
        )
        driver_errors.append({"name": [problem]} if problem else {})
    if not 1 <= len(drivers) <= MAX_DRIVERS:
        errors["drivers"] = [_("A league has 1 to %(max)s drivers.") % {"max": MAX_DRIVERS}]
    elif any(driver_errors):
        errors["drivers"] = driver_errors
    known = {d["name"].casefold(): d["name"] for d in drivers}
    race_errors = [_check_race(race, known) for race in races]
    if not 1 <= len(races) <= MAX_RACES:
        errors["races"] = [_("A league has 1 to %(max)s races.") % {"max": MAX_RACES}]
    elif any(race_errors):
        errors["races"] = race_errors
    if errors:
        raise serializers.ValidationError(errors)
    preset = DEFAULT_LEAGUE_POINTS if raw is None else raw if isinstance(raw, str) else ""
    return {**data, "points": list(points), "points_preset": preset}


def _check_race(race: dict[str, Any], known: dict[str, str]) -> dict[str, list[str]]:
    race["name"] = race.get("name", "").strip()
    entered = race.get("drivers")
    if entered is None:
        race["drivers"] = list(known.values())  # by default every league driver
        return {}
    problems: list[str] = []
    names: list[str] = []
    for name in entered:
        found = known.get(name.strip().casefold())
        if found is None:
            problems.append(_("%(name)s is not a driver of this league.") % {"name": name})
        elif found in names:
            problems.append(_("%(name)s is entered twice.") % {"name": found})
        else:
            names.append(found)
    if not entered:
        problems.append(_("A race needs at least one driver."))
    race["drivers"] = names
    return {"drivers": problems} if problems else {}


class LeagueCreateSerializer(LeagueSetupSerializer):
    club = serializers.SlugRelatedField(slug_field="slug", queryset=Club.objects.all())
    name = serializers.CharField(max_length=160)
    public = serializers.BooleanField(required=False, default=True)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("Unknown field."))
        return super().validate(data)


class LeaguePatchSerializer(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=160, required=False)
    public = serializers.BooleanField(required=False)
    game = serializers.CharField(max_length=80, allow_blank=True, required=False)
    points = serializers.JSONField(required=False, allow_null=True)
    drop_worst = serializers.JSONField(required=False)
    points_finishers_only = serializers.JSONField(required=False)
    bonus_points = serializers.JSONField(required=False)
    drivers = serializers.ListField(child=serializers.JSONField(), required=False)
    races = serializers.ListField(child=serializers.JSONField(), required=False)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        reject_unknown(self, _("This field cannot be changed."))
        return data


class DriverSerializer(serializers.ModelSerializer[Driver]):
    team = serializers.SerializerMethodField()

    class Meta:
        model = Driver
        fields = ["id", "name", "team"]

    def get_team(self, driver: Driver) -> str | None:
        return driver.team or None


class LeagueSerializer(serializers.ModelSerializer[League]):
    club = serializers.SlugRelatedField[Club](slug_field="slug", read_only=True)
    drivers = DriverSerializer(many=True)
    races = serializers.SerializerMethodField()
    points_preset = serializers.SerializerMethodField()

    class Meta:
        model = League
        fields = [
            "id",
            "club",
            "name",
            "public",
            *SETTINGS,
            "points_preset",
            "drivers",
            "races",
            "standings_through",
            "created_at",
        ]

    def get_points_preset(self, league: League) -> str | None:
        return league.points_preset or None

    def get_races(self, league: League) -> list[dict[str, Any]]:
        # Both relations are prefetched by the viewset: no query per race.
        names = {d.pk: d.name for d in league.drivers.all()}
        return [
            {
                "number": r.number,
                "name": r.name,
                "drivers": [names.get(pk, "") for pk in r.drivers],
                "driver_ids": list(r.drivers),
                "status": r.status,
                "version": r.version,
            }
            for r in league.races.all()
        ]


@extend_schema_serializer(component_name="LeagueResultRow")
class ResultRowSerializer(serializers.Serializer[Any]):
    """One finishing-order row; documents the schema (``scoring.points`` checks the rows)."""

    driver = serializers.IntegerField()
    position = serializers.IntegerField()
    status = serializers.ChoiceField(choices=["finished", "dnf"])
    bonus = serializers.IntegerField(required=False, min_value=0)


class ResultsSchemaSerializer(serializers.Serializer[Any]):
    results = ResultRowSerializer(many=True)
    version = serializers.IntegerField(required=False, min_value=0)


class ResultsInputSerializer(serializers.Serializer[Any]):
    # Rows reach the pure check as sent, so it reports strings, floats and unknown keys itself.
    results = serializers.ListField(
        child=serializers.JSONField(), allow_empty=False, max_length=MAX_ROWS
    )
    version = serializers.IntegerField(required=False, min_value=0)


class RaceDetailSerializer(serializers.ModelSerializer[Race]):
    drivers = serializers.SerializerMethodField()
    driver_ids = serializers.ListField(source="drivers", child=serializers.IntegerField())
    results = serializers.SerializerMethodField()

    class Meta:
        model = Race
        fields = [
            "number",
            "name",
            "drivers",
            "driver_ids",
            "status",
            "source",
            "error",
            "version",
            "results",
            "submitted_at",
            "resolved_at",
        ]

    def _names(self, race: Race) -> dict[int, str]:
        cache: dict[int, str] | None = getattr(race, "_driver_names", None)
        if cache is None:
            cache = dict(
                Driver.objects.filter(league_id=race.competition_id).values_list("pk", "name")
            )
            race._driver_names = cache  # type: ignore[attr-defined]
        return cache

    def get_drivers(self, race: Race) -> list[str]:
        names = self._names(race)
        return [names.get(pk, "") for pk in race.drivers]

    def get_results(self, race: Race) -> list[dict[str, Any]]:
        """The rows as stored (finishing order), with the driver's ``name`` added."""
        names = self._names(race)
        return [{**row, "name": names.get(row["driver"], "")} for row in race.results]


class StandingsSerializer(serializers.Serializer[Any]):
    """Documents the standings (the shape of championship standings, API.md)."""

    after_race = serializers.IntegerField(allow_null=True)
    drivers = serializers.ListField(child=serializers.DictField())
    teams = serializers.ListField(child=serializers.DictField())
