"""Link competition entries (tour teams, drivers) to the club's players.

A create request's team or driver item may name ``player_id``; without it the entry links to the
club player whose name matches (a tour team's ``player``, a driver's ``name``), created when
missing (API.md "Players and club history").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.apps import apps as global_apps
from django.utils.translation import gettext as _

from tournament.competitions.errors import InvalidInput
from tournament.players.matching import clean_name, match_key


@dataclass(frozen=True)
class Entrants:
    """Where one game keeps its entries: the model, its link to the competition, the name."""

    model: str  # "app_label.Model"
    link: str  # the foreign key to the competition
    name_field: str  # the field that names the player
    items: str  # the set-up list the entries come from


ENTRANTS: dict[str, Entrants] = {
    "tour": Entrants("tours.Team", "tour", "player", "teams"),
    "championship": Entrants("championships.Driver", "championship", "name", "drivers"),
    "league": Entrants("leagues.Driver", "league", "name", "drivers"),
    "rally": Entrants("rallies.Driver", "rally", "name", "drivers"),
}


def players_by_key(player_model: Any, club_id: int, names: Iterable[str]) -> dict[str, Any]:
    """The club's players for ``names`` by match key, the missing ones created."""
    wanted = {match_key(n): clean_name(n) for n in names if clean_name(n)}
    found = {p.key: p for p in player_model.objects.filter(club_id=club_id, key__in=wanted)}
    missing = [
        player_model(club_id=club_id, name=name, key=key)
        for key, name in wanted.items()
        if key not in found
    ]
    for player in player_model.objects.bulk_create(missing):
        found[player.key] = player
    return found


def link_by_name(player_model: Any, club_id: int, entries: Sequence[Any], name_field: str) -> None:
    """Point every entry without a player at the club player of its name (bulk)."""
    names = [getattr(e, name_field) for e in entries if e.club_player_id is None]
    players = players_by_key(player_model, club_id, names)
    changed = []
    for entry in entries:
        name = getattr(entry, name_field)
        if entry.club_player_id is None and clean_name(name):
            entry.club_player_id = players[match_key(name)].pk
            changed.append(entry)
    if changed:
        type(changed[0]).objects.bulk_update(changed, ["club_player"])


def _explicit_ids(club_id: int, items: list[Any], where: str) -> list[int | None]:
    """Each item's ``player_id``; InvalidInput when one is not a player of the club."""
    from tournament.players.models import Player

    ids = [item.get("player_id") if isinstance(item, dict) else None for item in items]
    known = set(
        Player.objects.filter(club_id=club_id, pk__in=[i for i in ids if i]).values_list(
            "pk", flat=True
        )
    )
    errors = [
        {"player_id": [_("There is no player %(id)s in this club.") % {"id": i}]}
        if i and i not in known
        else {}
        for i in ids
    ]
    if any(errors):
        raise InvalidInput({where: errors})
    return ids


def link_entries(kind_label: str, competition: Any, setup: dict[str, Any]) -> None:
    """Link the entries ``write_setup`` just wrote for ``competition`` (in entry order)."""
    spec = ENTRANTS.get(kind_label)
    if spec is None:
        return
    from tournament.players.models import Player

    items = list(setup.get(spec.items) or [])
    ids = _explicit_ids(competition.club_id, items, spec.items)
    model = global_apps.get_model(spec.model)
    entries = list(model.objects.filter(**{spec.link: competition}).order_by("order"))
    explicit = [e for e, pid in zip(entries, ids, strict=False) if pid]
    for entry, pid in zip(entries, ids, strict=False):
        entry.club_player_id = pid or None
    if explicit:
        model.objects.bulk_update(explicit, ["club_player"])
    link_by_name(Player, competition.club_id, entries, spec.name_field)


def link_existing(apps: Any) -> None:
    """The data migration: link every existing entry of every game by name."""
    player_model = apps.get_model("players", "Player")
    for spec in ENTRANTS.values():
        model = apps.get_model(spec.model)
        rows = list(model.objects.filter(club_player__isnull=True).select_related(spec.link))
        by_club: dict[int, list[Any]] = {}
        for row in rows:
            by_club.setdefault(getattr(row, spec.link).club_id, []).append(row)
        for club_id, entries in by_club.items():
            link_by_name(player_model, club_id, entries, spec.name_field)
