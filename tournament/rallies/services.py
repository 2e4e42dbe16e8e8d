"""Rally championships: create one, add a rally, compute its standings; and the scorekeeper
page's previews.

Rallies themselves go through the shared workflow (``tournament.competitions.services``) as
declared by :class:`~tournament.rallies.kind.RallyKind`; only the championship is this app's own.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from games.rallyman import log_issues, log_time
from scoring.digits import is_digits, parse_digits
from scoring.rally import (
    RallyInputError,
    TimeFormatError,
    championship_standings,
    parse_championship_settings,
    parse_time,
    rally_standings,
)
from tournament.competitions import audit
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import AuditAction
from tournament.rallies.loading import out_of_rally, rally_drivers, rally_rules, stage_sheets
from tournament.rallies.messages import translate
from tournament.rallies.models import (
    ChampionshipRally,
    Driver,
    Rally,
    RallyChampionship,
    RallyStage,
)

CHAMPIONSHIP_KIND = "rally_championship"


# --- Rally championships (RM-47 to RM-51) -------------------------------------------------------


def create_championship(
    *,
    club: Any,
    name: str,
    public: bool,
    settings: dict[str, Any],
    rallies: list[Rally],
    by: Any,
) -> RallyChampionship:
    """Create a championship with checked settings and rallies of its club, in order."""
    with transaction.atomic():
        championship = RallyChampionship.objects.create(
            club=club,
            name=name,
            public=public,
            points=settings["points"],
            power_stage=settings["power_stage"],
            power_stage_points=settings["power_stage_points"],
            drop_worst=settings["drop_worst"],
            created_by=by if getattr(by, "is_authenticated", False) else None,
        )
        ChampionshipRally.objects.bulk_create(
            ChampionshipRally(championship=championship, rally=rally, order=order)
            for order, rally in enumerate(rallies, start=1)
        )
        audit.record(
            club_id=club.pk,
            kind=CHAMPIONSHIP_KIND,
            competition_id=championship.pk,
            action=AuditAction.CREATED,
            summary=f"Rally championship {name!r} created",
            by=by,
            changes={"rallies": [r.pk for r in rallies]},
        )
    return championship


def add_rally(*, championship_id: int, rally_id: Any, by: Any) -> RallyChampionship:
    """Append a rally of the championship's club (API.md: twice, or another club's, is a 400)."""
    with transaction.atomic():
        championship = RallyChampionship.objects.select_for_update().get(pk=championship_id)
        rally = Rally.objects.filter(pk=rally_id, club_id=championship.club_id).first()
        if rally is None:
            raise InvalidInput({"rally": [_("No rally of this club has this id.")]})
        entries = ChampionshipRally.objects.filter(championship=championship)
        if entries.filter(rally=rally).exists():
            raise InvalidInput({"rally": [_("This rally is already in the championship.")]})
        order = (entries.order_by("-order").values_list("order", flat=True).first() or 0) + 1
        ChampionshipRally.objects.create(championship=championship, rally=rally, order=order)
        audit.record(
            club_id=championship.club_id,
            kind=CHAMPIONSHIP_KIND,
            competition_id=championship.pk,
            action=AuditAction.SETUP_CHANGED,
            summary=f"Rally {rally.name!r} added",
            by=by,
            changes={"rally": rally.pk, "order": order},
        )
    return championship


def championship_locked(championship: RallyChampionship) -> list[Rally]:
    """The championship's rallies that hold stored results, in championship order.

    Once one does, its points, power stage and drop-worst settings and the rallies already in
    it stay as they are (the set-up locks with the first result, API.md); rallies may still be
    added at the end, as ``add_rally`` does.
    """
    stored = RallyStage.objects.filter(version__gt=0).values("competition_id")
    return list(
        Rally.objects.filter(
            championship_entries__championship=championship, pk__in=stored
        ).order_by("championship_entries__order")
    )


def update_championship(
    *, championship_id: int, changes: dict[str, Any], by: Any
) -> RallyChampionship:
    """Change a championship's name, visibility, settings or rallies (checked by
    ``RallyChampionshipPatchSerializer``). Settings and the rallies already in it are locked
    once one of them holds results (Conflict); new rallies may then still go at the end."""
    with transaction.atomic():
        championship = RallyChampionship.objects.select_for_update().get(pk=championship_id)
        locked = bool(championship_locked(championship))
        current = list(
            ChampionshipRally.objects.filter(championship=championship)
            .order_by("order")
            .values_list("rally_id", flat=True)
        )
        settings = changes.get("settings")
        rallies = changes.get("rallies")
        if locked and settings is not None and settings != championship.settings_json():
            raise Conflict(_("The settings cannot change once a rally of it has results."))
        if locked and rallies is not None and rallies[: len(current)] != current:
            raise Conflict(_("Rallies with results stay in their place; new ones go at the end."))
        changed: dict[str, Any] = {}
        for key in ("name", "public"):
            if key in changes and getattr(championship, key) != changes[key]:
                changed[key] = [getattr(championship, key), changes[key]]
                setattr(championship, key, changes[key])
        if settings is not None:
            for key, value in settings.items():
                if getattr(championship, key) != value:
                    changed[key] = [getattr(championship, key), value]
                    setattr(championship, key, value)
        championship.save()
        if rallies is not None and rallies != current:
            changed["rallies"] = [current, rallies]
            ChampionshipRally.objects.filter(championship=championship).delete()
            ChampionshipRally.objects.bulk_create(
                ChampionshipRally(championship=championship, rally_id=pk, order=order)
                for order, pk in enumerate(rallies, start=1)
            )
        if changed:
            audit.record(
                club_id=championship.club_id,
                kind=CHAMPIONSHIP_KIND,
                competition_id=championship.pk,
                action=AuditAction.SETUP_CHANGED,
                summary="Changed: " + ", ".join(sorted(changed)),
                by=by,
                changes=changed,
            )
    return championship


def counted_rallies(championship: RallyChampionship) -> list[Rally]:
    """The longest run of complete rallies from the first, in championship order (API.md).

    A rally counts once all its stages are resolved (its standings reach its last stage).
    """
    rallies = (
        Rally.objects.filter(championship_entries__championship=championship)
        .annotate(stage_count=Count("stages"))
        .order_by("championship_entries__order")
    )
    counted: list[Rally] = []
    for rally in rallies:
        if not rally.stage_count or rally.standings_through != rally.stage_count:
            break
        counted.append(rally)
    return counted


def rally_championship_standings(
    *, championship: RallyChampionship, after: int | None
) -> dict[str, Any]:
    """The standings JSON after ``after`` counted rallies (default: all counted ones).

    Derived on every read from the rallies' stored results with the pure engine: four queries
    whatever the number of rallies, stages and drivers (docs/decisions-rallies.md).
    """
    counted = counted_rallies(championship)
    if after is not None:
        if not 1 <= after <= len(counted):
            raise InvalidInput(
                {
                    "after_rally": [
                        _("Must be between 1 and the number of counted rallies (%(n)s).")
                        % {"n": len(counted)}
                    ]
                }
            )
        counted = counted[:after]
    if not counted:
        return {"after_rally": None, "drivers": []}
    ids = [r.pk for r in counted]
    drivers: dict[int, list[tuple[int, str]]] = {pk: [] for pk in ids}
    for pk, rally_id, name in (
        Driver.objects.filter(rally_id__in=ids)
        .order_by("order")
        .values_list("pk", "rally_id", "name")
    ):
        drivers[rally_id].append((pk, name))
    results: dict[int, list[Any]] = {pk: [] for pk in ids}
    for rally_id, rows in (
        RallyStage.objects.filter(competition_id__in=ids)
        .order_by("number")
        .values_list("competition_id", "results")
    ):
        results[rally_id].append(rows)
    settings, _errors = parse_championship_settings(championship.settings_json())
    try:
        standings = [
            rally_standings(
                rally_drivers(drivers[r.pk]), stage_sheets(results[r.pk]), rally_rules(r.rules)
            )
            for r in counted
        ]
        return championship_standings(standings, settings).to_json()
    except RallyInputError as exc:
        raise Conflict(exc.message) from exc


# --- The scorekeeper page's preview (no writes) --------------------------------------------------


def drivers_out_before(*, rally: Rally, number: int) -> set[int]:
    """Drivers out of the rally before stage ``number`` (RM-46), from the stored results."""
    earlier = RallyStage.objects.filter(competition=rally, number__lt=number).values_list(
        "results", flat=True
    )
    return out_of_rally(earlier, rally_rules(rally.rules))


def preview_stage_sheet(*, rally: Rally, number: int, rows: list[dict[str, Any]]) -> list[Any]:
    """The rows as they would be stored (times computed, RM-52), or InvalidInput; stores nothing."""
    stage = RallyStage.objects.get(competition=rally, number=number)
    rows_out: list[Any] = get_kind("rally").validate_results(rally, stage, rows)
    return rows_out


def preview_log(*, rally: Rally, log: str, time: Any = None) -> dict[str, Any]:
    """RM-55: what a turn log stands for under the rally's rules (the form's live preview).

    ``{"net_time", "cards", "tokens", "turns"}``, plus ``"mismatch"`` when a given time differs
    (RM-53.8); ``{"errors": [...]}`` for a log that breaks RM-55.
    """
    problems = log_issues(log)
    if problems:
        return {"errors": [translate(p.code, p.message, p.params, {}) for p in problems]}
    counted = log_time(log, rally_rules(rally.rules))
    answer: dict[str, Any] = {
        "net_time": counted.net_time,
        "cards": counted.cards,
        "tokens": counted.tokens,
        "turns": counted.turns,
    }
    if time not in (None, ""):
        try:
            # Whole seconds in the digits 0-9 only; anything else is parse_time's to judge.
            given = parse_time(parse_digits(str(time)) if is_digits(str(time)) else time)
        except TimeFormatError:
            given = None
        answer["mismatch"] = given is not None and given != counted.net_time
    return answer
