"""``manage.py export_competition tour 12 -o tour-12.json``: a competition as a JSON document."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournament.competitions.kinds import all_kinds, get_kind
from tournament.competitions.transfer import export_competition


class Command(BaseCommand):
    help = "Write a competition (set-up, rules, every result version) as a JSON document."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("kind", choices=[k.label for k in all_kinds()])
        parser.add_argument("id", type=int)
        parser.add_argument("-o", "--output", help="file to write (default: standard output)")

    def handle(
        self, *args: Any, kind: str, id: int, output: str | None = None, **options: Any
    ) -> None:
        game = get_kind(kind)
        competition = game.competition_model._default_manager.filter(pk=id).first()
        if competition is None:
            raise CommandError(f"No {kind} {id}.")
        text = json.dumps(
            export_competition(kind=game, competition=competition), indent=2, ensure_ascii=False
        )
        if output:
            with open(output, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
            self.stdout.write(self.style.SUCCESS(f"Wrote {output}"))
        else:
            self.stdout.write(text)
