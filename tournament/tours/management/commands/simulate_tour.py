"""``manage.py simulate_tour <id>``: play every remaining stage of a tour with automatic riders."""

from __future__ import annotations

from typing import Any, TextIO, cast

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from tournament.competitions import services
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.competitions.simulation import check_simulation, simulate_event
from tournament.tours.models import Stage, Tour


class Command(BaseCommand):
    help = (
        "Simulate, in order, every stage of a tour that has no results yet, resolving each one "
        "before the next (its start order and exhaustion come from the standings)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("tour_id", type=int)
        parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")

    def handle(self, *args: Any, tour_id: int, no_progress: bool = False, **options: Any) -> None:
        kind = get_kind("tour")
        tour = Tour.objects.filter(pk=tour_id).first()
        if tour is None:
            raise CommandError(f"No tour {tour_id}.")
        remaining = list(Stage.objects.filter(competition=tour, version=0).order_by("number"))
        if not remaining:
            self.stdout.write("Every stage already has results.")
            return
        # The bar writes to the command's own error stream unwrapped: OutputWrapper.write adds a
        # newline to every write, which would break the bar's carriage-return redraws.
        stream = cast(TextIO, self.stderr._out)
        bar = tqdm(remaining, desc=tour.name, unit="stage", disable=no_progress, file=stream)
        for stage in bar:
            bar.set_postfix_str(stage.name or f"stage {stage.number}")
            try:
                check_simulation(kind=kind, competition=tour, event=stage)
            except (InvalidInput, Conflict) as exc:
                raise CommandError(
                    f"Stage {stage.number}: {services.flatten_errors(exc.detail)}"
                ) from exc
            event = simulate_event(kind=kind, event_id=stage.pk, by=None)
            if event is None:
                stage.refresh_from_db()
                raise CommandError(f"Stage {stage.number} was not simulated: {stage.error or '?'}")
            # Resolve now (idempotent if a worker got there first): the next stage starts from it.
            services.resolve_event(kind=kind, event_id=stage.pk)
            stage.refresh_from_db()
            if stage.status != Status.RESOLVED:
                raise CommandError(f"Stage {stage.number} is {stage.status}: {stage.error}")
        tour.refresh_from_db()
        self.stdout.write(
            self.style.SUCCESS(
                f"Simulated {len(remaining)} stage(s); "
                f"standings after stage {tour.standings_through}."
            )
        )
