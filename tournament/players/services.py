"""Merging two players who are one person: every entry follows."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.competitions.errors import InvalidInput
from tournament.players.models import Player


def merge(player: Player, into_id: int) -> Player:
    """Move every entry of ``player`` to player ``into_id`` of the same club; delete ``player``."""
    from tournament.championships.models import Driver as FDDriver
    from tournament.leagues.models import Driver as LeagueDriver
    from tournament.rallies.models import Driver as RallyDriver
    from tournament.tours.models import Team

    if into_id == player.pk:
        raise InvalidInput({"into": [_("A player cannot be merged into itself.")]})
    with transaction.atomic():
        into = Player.objects.select_for_update().filter(club_id=player.club_id, pk=into_id).first()
        if into is None:
            raise InvalidInput({"into": [_("There is no such player in this club.")]})
        for model in (Team, FDDriver, LeagueDriver, RallyDriver):
            model.objects.filter(club_player=player).update(club_player=into)
        if into.user_id is None and player.user_id is not None:
            into.user_id = player.user_id
            into.save(update_fields=["user"])
        player.delete()
    return into
