"""Link every existing tour team and driver to a club player of its name, creating players."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def link_existing(apps: Any, schema_editor: Any) -> None:
    from tournament.players.linking import link_existing as link

    link(apps)


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0001_players"),
        ("tours", "0005_club_player"),
        ("championships", "0005_club_player"),
        ("leagues", "0003_club_player"),
        ("rallies", "0005_club_player"),
    ]

    operations = [migrations.RunPython(link_existing, migrations.RunPython.noop, elidable=True)]
