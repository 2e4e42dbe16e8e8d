"""``manage.py refresh_standings [kind] [--id N]``: recompute stored snapshots in place.

Snapshots are a pure function of the stored results, so recomputing them changes nothing but
what a newer scoring version adds to them: the rows' ``tie_break`` (issue #17) for snapshots
stored before it existed (docs/decisions-tie-breaks.md). Each competition is locked while its
resolved run is recomputed; a snapshot is written only when its JSON differs, the standings
version is not bumped (the order and the figures are the same).
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.competitions.errors import ResolutionError
from tournament.competitions.kinds import AnyKind, all_kinds, get_kind


def refresh(kind: AnyKind, competition_id: int) -> int:
    """Recompute the snapshots of one competition's resolved run; how many were rewritten."""
    with transaction.atomic():
        competition = kind.competition_model.objects.select_for_update().get(pk=competition_id)
        through = competition.standings_through
        if not through:
            return 0
        events = list(
            kind.event_model.objects.filter(
                competition_id=competition_id, number__lte=through
            ).order_by("number")
        )
        computed = kind.compute_snapshots(competition, events)
        # As stored: plain JSON (lists, not tuples), so an unchanged snapshot compares equal.
        documents = {
            e.number: json.loads(json.dumps(d)) for e, d in zip(events, computed, strict=True)
        }
        changed = 0
        for snapshot in kind.snapshot_model.objects.of(competition).filter(number__lte=through):
            fresh = documents.get(snapshot.number)
            if fresh is not None and snapshot.data != fresh:
                snapshot.data = fresh
                snapshot.save(update_fields=["data", "computed_at"])
                changed += 1
        return changed


class Command(BaseCommand):
    help = "Recompute stored standings snapshots (adds what newer scoring stores, e.g. tie_break)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("kind", nargs="?", choices=[k.label for k in all_kinds()])
        parser.add_argument("--id", type=int, help="one competition (with a kind)")

    def handle(
        self, *args: Any, kind: str | None = None, id: int | None = None, **options: Any
    ) -> None:
        kinds = [get_kind(kind)] if kind else list(all_kinds())
        total = 0
        for game in kinds:
            ids = game.competition_model._default_manager.order_by("pk").values_list(
                "pk", flat=True
            )
            if id is not None:
                ids = ids.filter(pk=id)
            for pk in ids:
                try:
                    changed = refresh(game, pk)
                except ResolutionError as exc:
                    self.stderr.write(f"{game.label} {pk}: not recomputed: {exc}")
                    continue
                total += changed
                if changed:
                    self.stdout.write(f"{game.label} {pk}: {changed} snapshot(s) rewritten")
        self.stdout.write(self.style.SUCCESS(f"{total} snapshot(s) rewritten"))
