"""What a stream follows: a competition (or a rally championship) and its standings version.

``Target`` names the competition by its kind's label and id (its key in the hub, ``tour:3``);
``state()`` reads its current ``after_*`` and ``version`` in one query. A rally championship
has no standings of its own (they are derived from its rallies on read), so its version is
derived too: the sum of its rallies' ``standings_version``, which grows with every change of
any of them, and its ``after_rally`` is the number of rallies counted (complete from the first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from django.db.models import Count

from tournament.competitions.kinds import get_kind

RALLY_CHAMPIONSHIP: Final = "rally-championship"


@dataclass(frozen=True)
class LiveState:
    after_key: str  # after_stage, after_race, after_rally
    after: int | None
    version: int

    def as_json(self) -> dict[str, Any]:
        return {self.after_key: self.after, "version": self.version}


@dataclass(frozen=True)
class Target:
    """A competition of kind ``kind`` (a GameKind label, or ``rally-championship``)."""

    kind: str
    pk: int

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.pk}"

    @property
    def after_key(self) -> str:
        return "after_rally" if self.kind == RALLY_CHAMPIONSHIP else get_kind(self.kind).after_param

    def state(self) -> LiveState:
        """The current state, from the database (one query); version 0 once deleted."""
        if self.kind == RALLY_CHAMPIONSHIP:
            return rally_championship_state(self.pk)
        model: Any = get_kind(self.kind).competition_model
        row = model._default_manager.filter(pk=self.pk).values_list(
            "standings_through", "standings_version"
        )
        after, version = row.first() or (None, 0)
        return LiveState(self.after_key, after, version)


def rally_championship_state(pk: int) -> LiveState:
    """``after_rally`` (rallies counted) and the derived version of championship ``pk``."""
    from tournament.rallies.models import Rally

    rallies = (
        Rally.objects.filter(championship_entries__championship_id=pk)
        .annotate(stage_count=Count("stages"))
        .order_by("championship_entries__order")
        .values_list("standings_through", "stage_count", "standings_version")
    )
    counted, complete, version = 0, True, 0
    for through, stage_count, rally_version in rallies:
        version += rally_version
        # A rally counts once all its stages are resolved, and only after every earlier one.
        complete = complete and bool(stage_count) and through == stage_count
        counted += complete
    return LiveState("after_rally", counted or None, version)
