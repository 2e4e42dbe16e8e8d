"""``manage.py import_competition velo-lisboa tour-12.json``: recreate an exported competition."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from tournament.clubs.models import Club
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.services import flatten_errors
from tournament.competitions.transfer import import_competition


class Command(BaseCommand):
    help = "Import a competition document (from export_competition or the export endpoint)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("club", help="slug of the club that will own the competition")
        parser.add_argument("file", help="the JSON document")
        parser.add_argument("--user", help="username recorded as the importer")

    def handle(
        self, *args: Any, club: str, file: str, user: str | None = None, **options: Any
    ) -> None:
        owner = Club.objects.filter(slug=club).first()
        if owner is None:
            raise CommandError(f"No club {club!r}.")
        by = get_user_model().objects.filter(username=user).first() if user else None
        try:
            with open(file, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as exc:
            raise CommandError(f"Cannot read {file}: {exc}") from exc
        label = document.get("kind") if isinstance(document, dict) else None
        try:
            kind = get_kind(str(label))
        except KeyError:
            raise CommandError(f"{file} is not a Podium competition document.") from None
        try:
            with transaction.atomic():
                competition = import_competition(kind=kind, club=owner, document=document, by=by)
        except InvalidInput as exc:
            raise CommandError(flatten_errors(exc.detail)) from exc
        self.stdout.write(
            self.style.SUCCESS(f"Imported {kind.label} {competition.pk}: {competition.name}")
        )
