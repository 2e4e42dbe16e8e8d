"""How a game plugs into the shared workflow: one declaration per game, one registry.

A :class:`GameKind` subclass *declares* a game: its concrete models, its serializers, the words of
its URLs, and the few steps only the game knows (check a submission, compute standings, write its
set-up rows). Everything else is shared and reads these declarations: the API viewset and its
routes (``tournament.competitions.api``), the create/PATCH/submit/resolve workflow
(``tournament.competitions.services``), export/import and the permission matrix test. A game
registers its kind once, from its ``AppConfig.ready``; nothing else names the game.

This module only declares: it imports no service, so games and services may both import it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar, Generic, TypeVar

from django.db import models
from django.db.models import Prefetch
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.viewsets import ViewSetMixin

from tournament.competitions.errors import InvalidInput, ResolutionError
from tournament.competitions.models import Competition, Event, ResultVersion, Snapshot

C = TypeVar("C", bound=Competition)
E = TypeVar("E", bound=Event)

#: A result row or a standings document as JSON (what the API reads and serves).
Row = dict[str, Any]
Document = dict[str, Any]
SerializerClass = type[serializers.BaseSerializer[Any]]


class GameKind(ABC, Generic[C, E]):
    """One game: declared class attributes, seven abstract hooks, shared defaults for the rest."""

    # --- names -------------------------------------------------------------------------------
    #: Registry key, task payload, audit ``competition_kind``, export ``kind``, router basename.
    label: ClassVar[str]
    #: The noun of audit summaries ("Tour 'X' created"); not translated (the log is English).
    title: ClassVar[str]
    #: The API collection: ``/api/<collection>/`` (``tours``, ``championships``, ``rallies``).
    collection: ClassVar[str]
    #: The URL word of events: ``/api/<collection>/{id}/<event_word>/{number}/`` (``stages``).
    event_word: ClassVar[str]
    #: The ``after_*`` query parameter of standings and its key in them (``after_stage``).
    after_param: ClassVar[str] = "after_stage"
    #: The result-row key naming the entrant (``rider``, ``driver``): export/import rewrite it.
    entrant_field: ClassVar[str] = "driver"

    # --- models ------------------------------------------------------------------------------
    competition_model: type[C]
    event_model: type[E]
    version_model: type[ResultVersion]
    snapshot_model: type[Snapshot]
    #: Models whose rows (a foreign key to the competition) are the set-up besides the events;
    #: a set-up PATCH deletes them with the events before ``write_setup`` writes the new ones.
    setup_models: ClassVar[tuple[type[models.Model], ...]] = ()
    #: Prefetches of the detail (and list) serializer: no query per event or entrant.
    detail_prefetch: ClassVar[tuple[Prefetch | str, ...]] = ()

    # --- serializers -------------------------------------------------------------------------
    create_serializer: ClassVar[SerializerClass]  # POST /api/<collection>/ (set-up + club, name…)
    patch_serializer: ClassVar[SerializerClass]  # PATCH /api/<collection>/{id}/ (shape only)
    setup_serializer: ClassVar[SerializerClass]  # the set-up alone: a PATCH's merged set-up
    results_serializer: ClassVar[SerializerClass]  # POST …/results/ body ({"results", "version"})
    detail_serializer: ClassVar[SerializerClass]  # GET detail and list items
    event_serializer: ClassVar[SerializerClass]  # event detail (GET, and 202/409 answers)
    standings_serializer: ClassVar[SerializerClass]  # the standings' schema (documentation only)
    #: The documented results body when it differs from what is parsed (rows checked by the game).
    results_schema_serializer: ClassVar[SerializerClass | None] = None

    # --- set-up ------------------------------------------------------------------------------
    #: Top-level PATCH keys that change the set-up (locked once results exist: 409).
    setup_fields: ClassVar[tuple[str, ...]] = ()
    #: Competition columns copied from the checked set-up on create and on a set-up PATCH.
    setup_columns: ClassVar[tuple[str, ...]] = ("rules",)
    #: Set-up lists counted in the "created" audit entry (``{"stages": 3, "teams": 4}``).
    created_counts: ClassVar[tuple[str, ...]] = ()
    #: Competition fields exported beside the set-up (the create request's other fields).
    export_fields: ClassVar[tuple[str, ...]] = ("name", "public", "seed")

    #: The game's other API collections, ``(prefix, viewset, basename)``, routed with its own
    #: (rally championships); their viewsets declare their access like every viewset.
    extra_routes: ClassVar[tuple[tuple[str, type[ViewSetMixin], str], ...]] = ()

    # --- what only the game knows --------------------------------------------------------------
    @abstractmethod
    def event_label(self, number: int) -> str:
        """How a person names event ``number`` ("Stage 3", "Race 3"), translated."""

    @abstractmethod
    def validate_results(self, competition: C, event: E, rows: list[Row]) -> list[Row]:
        """Normalised rows, or raise InvalidInput with field errors (nothing is stored)."""

    @abstractmethod
    def compute_snapshots(self, competition: C, events: Sequence[E]) -> list[Document]:
        """Standings JSON after each of ``events`` (events 1..k, all with results), in order.

        Raise ResolutionError(number, message) for a domain error found while computing.
        """

    @abstractmethod
    def initial_standings(self, competition: C) -> Document:
        """Standings JSON before any event is resolved."""

    @abstractmethod
    def setup_payload(self, competition: C) -> Document:
        """The set-up in the shape of the create request (without club, name, public, seed)."""

    @abstractmethod
    def write_setup(self, competition: C, setup: Document) -> None:
        """Write the events and set-up rows of a checked set-up for a saved competition."""

    @abstractmethod
    def entrant_keys(self, competition: C) -> dict[int, str]:
        """Entrant id → a key that is stable across instances (for export/import)."""

    # --- shared defaults -----------------------------------------------------------------------
    def apply_setup(self, competition: C, setup: Document) -> None:
        """Copy the checked set-up's ``setup_columns`` onto the competition (not saved)."""
        for column in self.setup_columns:
            setattr(competition, column, setup[column])

    def created_changes(self, setup: Document) -> Document:
        """The ``changes`` of the "created" audit entry: how many of each counted list."""
        return {key: len(setup[key]) for key in self.created_counts}

    def export_setup(self, competition: C) -> Document:
        """The competition's create request (without ``club``): what an export document holds."""
        fields = {name: getattr(competition, name) for name in self.export_fields}
        return {**fields, **self.setup_payload(competition)}

    def patched_setup(self, competition: C, data: Document) -> Document | None:
        """The full checked set-up a PATCH leads to, or None when it does not touch it.

        Keys not sent keep their current value; sent ``rules`` change only the keys sent.
        Raises DRF's ValidationError (a 400) when the merged set-up is invalid.
        """
        if not any(key in data for key in self.setup_fields):
            return None
        current = self.setup_payload(competition)
        merged = {key: data.get(key, value) for key, value in current.items()}
        if "rules" in current:
            merged["rules"] = {**current["rules"], **data.get("rules", {})}
        serializer = self.setup_serializer(data=merged)
        serializer.is_valid(raise_exception=True)
        checked: Document = serializer.validated_data
        return checked

    def check_simulable(self, competition: C, event: E) -> None:
        """Raise InvalidInput when the event lacks what its simulation needs (default: no
        simulator, every simulation is a 400)."""
        raise InvalidInput({"detail": _("This event cannot be simulated.")})

    def simulate(self, competition: C, event: E) -> tuple[list[Row], Document]:
        """Play the event: (result rows as a scorekeeper would submit them, replay log).

        Raise ResolutionError(number, message) when the engine cannot play it. Only reached
        when ``check_simulable`` passed, so a game without a simulator never gets here.
        """
        raise ResolutionError(event.number, _("This event cannot be simulated."))


#: Any game's kind, as the shared code sees it (each game's own kind is precisely typed).
AnyKind = GameKind[Any, Any]

_REGISTRY: dict[str, AnyKind] = {}


def register(kind: AnyKind) -> AnyKind:
    """Register a game (from its ``AppConfig.ready``); a label registers once."""
    existing = _REGISTRY.get(kind.label)
    if existing is not None and type(existing) is not type(kind):
        raise ValueError(f"two game kinds share the label {kind.label!r}")
    _REGISTRY[kind.label] = kind
    return kind


def get_kind(label: str) -> AnyKind:
    return _REGISTRY[label]


def all_kinds() -> list[AnyKind]:
    """Every registered game, in the order of ``INSTALLED_APPS``."""
    return list(_REGISTRY.values())
