"""Creating and changing a season: its competitions must be the club's own."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournament.clubs.models import Club
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.seasons.models import Season, SeasonCompetition


def check_competitions(club: Club, items: list[dict[str, Any]]) -> None:
    """InvalidInput naming each item that is not a competition of ``club`` (another club's
    competition reads as unknown: its existence is none of this club's business)."""
    wanted: dict[str, list[int]] = defaultdict(list)
    for item in items:
        wanted[item["kind"]].append(item["id"])
    known: set[tuple[str, int]] = set()
    for kind, ids in wanted.items():
        found = get_kind(kind).competition_model.objects.filter(club=club, pk__in=ids)
        known |= {(kind, pk) for pk in found.values_list("pk", flat=True)}
    errors: dict[int, Any] = {}
    seen: set[tuple[str, int]] = set()
    for index, item in enumerate(items):
        pair = (item["kind"], item["id"])
        if pair not in known:
            errors[index] = {
                "id": [
                    _("%(kind)s %(id)s is not a competition of this club.")
                    % {"kind": item["kind"], "id": item["id"]}
                ]
            }
        elif pair in seen:
            errors[index] = {"id": [_("This competition is already in the season.")]}
        seen.add(pair)
    if errors:
        raise InvalidInput({"competitions": errors})


def _check_name(club: Club, name: str, season: Season | None = None) -> None:
    others = Season.objects.filter(club=club, name=name)
    if season is not None:
        others = others.exclude(pk=season.pk)
    if others.exists():
        raise InvalidInput(
            {"name": [_("The club already has a season named %(name)s.") % {"name": name}]}
        )


def _write_items(season: Season, items: list[dict[str, Any]]) -> None:
    SeasonCompetition.objects.bulk_create(
        SeasonCompetition(season=season, kind=item["kind"], competition_id=item["id"], order=n)
        for n, item in enumerate(items, start=1)
    )


def create_season(
    *,
    club: Club,
    name: str,
    points: list[int],
    competitions: list[dict[str, Any]],
    by: Any,
) -> Season:
    """A new season of ``club`` (InvalidInput, nothing stored, when an item is not the club's)."""
    check_competitions(club, competitions)
    _check_name(club, name)
    try:
        with transaction.atomic():
            season = Season.objects.create(
                club=club,
                name=name,
                points=points,
                created_by=by if getattr(by, "is_authenticated", False) else None,
            )
            _write_items(season, competitions)
    except IntegrityError as exc:  # the same name created meanwhile (the unique constraint)
        raise InvalidInput({"name": [_("The club already has a season with this name.")]}) from exc
    return season


def update_season(*, season: Season, changes: dict[str, Any]) -> Season:
    """Change the name, the points table or the list of competitions (the keys sent)."""
    if "competitions" in changes:
        check_competitions(season.club, changes["competitions"])
    if "name" in changes:
        _check_name(season.club, changes["name"], season)
    fields = [f for f in ("name", "points") if f in changes]
    try:
        with transaction.atomic():
            locked = Season.objects.select_for_update().get(pk=season.pk)
            for field in fields:
                setattr(locked, field, changes[field])
            if fields:
                locked.save(update_fields=[*fields, "updated_at"])
            if "competitions" in changes:
                locked.items.all().delete()
                _write_items(locked, changes["competitions"])
    except IntegrityError as exc:
        raise InvalidInput({"name": [_("The club already has a season with this name.")]}) from exc
    return locked
