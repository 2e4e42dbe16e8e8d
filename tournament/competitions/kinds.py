"""How a game plugs into the shared workflow.

A :class:`GameKind` names a game's concrete models and the three game-specific steps: validate a
submission, compute the standings after each event from the results, and produce the standings
before any event. Everything else (versions, 409s, claiming, snapshots, sweeping) is shared.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

from django.db import models


class GameKind(ABC):
    label: str  # "tour", "championship", "rally": the task payload and the registry key
    competition_model: type[models.Model]
    event_model: type[models.Model]
    version_model: type[models.Model]
    snapshot_model: type[models.Model]
    #: Name of the ``after_*`` query parameter and standings key (``after_stage``, ``after_race``).
    after_param = "after_stage"
    #: The field of a result row naming the entrant (``rider``, ``driver``).
    entrant_field = "rider"
    #: Top-level PATCH keys that change the set-up (locked once results exist: 409).
    setup_fields: tuple[str, ...] = ()

    @abstractmethod
    def event_label(self, number: int) -> str:
        """How a person names event ``number`` ("Stage 3", "Race 3"), translated."""

    @abstractmethod
    def validate_results(
        self, competition: Any, event: Any, rows: list[dict[str, Any]]
    ) -> list[dict[str, Any]]:
        """Normalised rows, or raise InvalidInput with field errors (nothing is stored)."""

    @abstractmethod
    def compute_snapshots(self, competition: Any, events: Sequence[Any]) -> list[dict[str, Any]]:
        """Standings JSON after each of ``events`` (stages 1..k, all with results), in order.

        Raise ResolutionError(number, message) for a domain error found while computing.
        """

    @abstractmethod
    def initial_standings(self, competition: Any) -> dict[str, Any]:
        """Standings JSON before any event is resolved."""

    def export_setup(self, competition: Any) -> dict[str, Any]:
        """The competition's set-up in the shape of its create request (without ``club``)."""
        raise NotImplementedError

    def entrant_keys(self, competition: Any) -> dict[int, str]:
        """Entrant id → a key that is stable across instances (for export/import)."""
        raise NotImplementedError

    def create_serializer(self) -> Any:
        """The serializer class of the create request (``POST /api/<competitions>/``)."""
        raise NotImplementedError

    def create(self, *, club: Any, data: dict[str, Any], by: Any) -> Any:
        """Create a competition from the create serializer's validated data."""
        raise NotImplementedError

    def patch_serializer(self) -> Any:
        """The serializer class of ``PATCH /api/<competitions>/{id}/``."""
        raise NotImplementedError

    def patched_setup(self, competition: Any, data: dict[str, Any]) -> dict[str, Any] | None:
        """The full checked set-up a PATCH leads to, or None when it does not touch it."""
        raise NotImplementedError

    def update(
        self, *, competition_id: int, changes: dict[str, Any], setup: dict[str, Any] | None, by: Any
    ) -> Any:
        """Apply a checked PATCH (the game's service on ``services.update_competition``)."""
        raise NotImplementedError

    def import_setup(self, *, club: Any, setup: dict[str, Any], by: Any) -> Any:
        """Create a competition from an exported set-up, with the create request's checks."""
        from tournament.competitions.errors import InvalidInput

        body = self.create_serializer()(data={**setup, "club": club.slug})
        if not body.is_valid():
            raise InvalidInput(body.errors)
        return self.create(club=club, data=body.validated_data, by=by)

    def check_simulable(self, competition: Any, event: Any) -> None:
        """Raise InvalidInput when the event lacks what its simulation needs."""
        from django.utils.translation import gettext as _

        from tournament.competitions.errors import InvalidInput

        raise InvalidInput({"detail": _("This event cannot be simulated.")})

    def simulate(self, competition: Any, event: Any) -> tuple[list[dict[str, Any]], Any]:
        """Play the event: (result rows as a scorekeeper would submit them, replay log).

        Raise ResolutionError(number, message) when the engine cannot play it.
        """
        raise NotImplementedError


_REGISTRY: dict[str, GameKind] = {}


def register(kind: GameKind) -> GameKind:
    _REGISTRY[kind.label] = kind
    return kind


def get_kind(label: str) -> GameKind:
    return _REGISTRY[label]


def all_kinds() -> list[GameKind]:
    return list(_REGISTRY.values())
