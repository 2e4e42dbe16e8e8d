"""The shared workflow: submit results, resolve them, read standings.

Every game goes through these functions; a :class:`GameKind` supplies only the game's own steps.
Invariant kept here: an event is ``resolved`` only when every earlier event is resolved and its
snapshot reflects its current results. The competition row is the lock that serialises submissions
and resolutions of one competition.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.clubs.models import Club, Membership
from tournament.competitions import audit
from tournament.competitions.errors import (
    Conflict,
    InvalidInput,
    ResolutionError,
    VersionConflict,
)
from tournament.competitions.kinds import AnyKind, C, Document, E, GameKind, Row
from tournament.competitions.models import AuditAction, Competition, Event, Source, Status
from tournament.competitions.signals import StandingsChange, standings_changed
from tournament.players.linking import link_entries

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

    #: Who acts: a signed-in user, an anonymous caller, or nobody (a command, a worker).
    Actor = User | AnonymousUser | None

log = logging.getLogger(__name__)


def _lock_competition(kind: GameKind[C, Any], competition_id: int) -> C:
    """The competition row, locked until the transaction ends."""
    # django-stubs types ``type[C].objects`` as the bound's manager (Competition) in some of
    # mypy's orders of work (PYTHONHASHSEED) and as C's in others; through Any, both check.
    model: Any = kind.competition_model
    competition: C = model.objects.select_for_update().get(pk=competition_id)
    return competition


def _locked(kind: GameKind[C, E], competition_id: int) -> tuple[C, list[E]]:
    """Lock the competition row, then load its events in order."""
    competition = _lock_competition(kind, competition_id)
    events: list[E] = list(kind.event_model.objects.in_order_of(competition_id))
    return competition, events


def _standings_through(events: Sequence[Event]) -> int | None:
    """The last event of the longest run of resolved events from the first (API.md)."""
    through = None
    for event in events:
        if event.status != Status.RESOLVED:
            break
        through = event.number
    return through


def _save_progress(competition: Competition, events: Sequence[Event]) -> None:
    competition.set_standings_through(_standings_through(events))


def _announce(kind: AnyKind, competition: Competition, event_number: int, outcome: str) -> None:
    """Bump the standings version and send ``standings_changed`` once the transaction commits."""
    change = StandingsChange(
        kind=kind.label,
        competition_id=competition.pk,
        version=competition.bump_standings_version(),
        after=competition.standings_through,
        event_number=event_number,
        outcome=outcome,
    )

    def send() -> None:
        standings_changed.send_robust(sender=kind.label, change=change)

    transaction.on_commit(send)


def _user_or_none(by: Actor) -> User | None:
    """The acting user as a ``created_by``: None for anonymous callers and system actions."""
    return by if by is not None and not by.is_anonymous else None


def create_competition(
    *,
    kind: GameKind[C, Any],
    club: Club,
    name: str,
    public: bool,
    setup: Document,
    by: Actor,
    seed: int | None = None,
) -> C:
    """Create a competition with its events and set-up rows from a checked set-up.

    ``setup`` is the create serializer's validated data (or a set-up checked the same way); the
    game writes its own rows (``kind.write_setup``), the rest is the same for every game.
    """
    with transaction.atomic():
        competition = kind.competition_model(
            club=club, name=name, public=public, created_by=_user_or_none(by)
        )
        if seed is not None:
            competition.seed = seed
        kind.apply_setup(competition, setup)
        competition.save()
        kind.write_setup(competition, setup)
        link_entries(kind.label, competition, setup)  # club players (tournament/players)
        audit.record(
            club_id=club.pk,
            kind=kind.label,
            competition_id=competition.pk,
            action=AuditAction.CREATED,
            summary=f"{kind.title} {competition.name!r} created",
            by=by,
            changes=kind.created_changes(setup),
        )
    return competition


def create_from_request(*, kind: GameKind[C, Any], data: Document, by: Actor) -> C:
    """Create from the create serializer's validated data (``club``, ``name``, … and set-up)."""
    return create_competition(
        kind=kind,
        club=data["club"],
        name=data["name"],
        public=data.get("public", True),
        seed=data.get("seed"),
        setup=data,
        by=by,
    )


def create_from_setup(*, kind: GameKind[C, Any], club: Club, setup: Document, by: Actor) -> C:
    """Create from an exported set-up, with the create request's checks (InvalidInput: 400)."""
    body = kind.create_serializer(data={**setup, "club": club.slug})
    if not body.is_valid():
        raise InvalidInput(body.errors)
    return create_from_request(kind=kind, data=body.validated_data, by=by)


def submit_results(
    *,
    kind: GameKind[Any, E],
    competition_id: int,
    number: int,
    rows: list[Row],
    by: Actor,
    source: str = Source.SUBMITTED,
    expected_version: int | None = None,
    replay: Any = None,
) -> E:
    """Validate and store a new version of event ``number``'s results; queue its resolution.

    Raises InvalidInput (400, nothing stored) or Conflict (409: an earlier event has no results,
    or ``expected_version`` is stale). Returns the updated event.
    """
    with transaction.atomic():
        competition, events = _locked(kind, competition_id)
        event = next(e for e in events if e.number == number)
        missing = [e.number for e in events if e.number < number and not e.has_results]
        if missing:
            raise Conflict(
                _("%(event)s has no results yet; results are accepted in order.")
                % {"event": kind.event_label(missing[0])},
                missing=missing[0],
            )
        if expected_version is not None and expected_version != event.version:
            raise VersionConflict(event)
        normalised = kind.validate_results(competition, event, rows)
        previous = list(event.results)
        event.mark_submitted(normalised, source=source, now=timezone.now())
        kind.version_model.record(
            event, source=source, rows=normalised, replay=replay, by=_user_or_none(by)
        )
        audit.record(
            club_id=competition.club_id,
            kind=kind.label,
            competition_id=competition.pk,
            event_number=number,
            action=audit.results_action(source=source, version=event.version),
            summary=f"{kind.event_label(number)}: v{event.version} ({source})",
            changes={"version": event.version, "changed": diff_rows(previous, normalised)},
            by=by,
        )
        # A correction invalidates this event's standings and every later one's until resolved.
        through_before = competition.standings_through
        _save_progress(competition, events)
        if competition.standings_through != through_before:
            _announce(kind, competition, number, "corrected")
        queue_resolution(kind, event.pk)
    return event


def diff_rows(before: list[Row], after: list[Row]) -> list[Row]:
    """What a new version changed, per entrant: ``{"entrant", "field": [old, new], …}``.

    Rows are matched by their first key (``rider``, ``driver``); a new entrant shows every field.
    """
    if not after:
        return []
    key = next(iter(after[0]))
    old = {row.get(key): row for row in before}
    changed = []
    for row in after:
        previous = old.get(row[key], {})
        fields = {
            f: [previous.get(f), v] for f, v in row.items() if f != key and previous.get(f) != v
        }
        if fields:
            changed.append({"entrant": row[key], **fields})
    return changed


def results_stored(event_model: type[Event], competition: Competition | None) -> bool:
    """Whether an event of ``competition`` (saved) has results: its set-up is then locked."""
    return (
        competition is not None
        and competition.pk is not None
        and event_model.objects.with_results(competition).exists()
    )


def setup_locked(*, kind: AnyKind, competition: Competition | None, data: object) -> bool:
    """True when ``data`` touches the set-up and results are already stored (API.md: 409)."""
    touches = isinstance(data, dict) and any(key in data for key in kind.setup_fields)
    return touches and results_stored(kind.event_model, competition)


def update_competition(
    *,
    kind: GameKind[C, Any],
    competition_id: int,
    changes: Document,
    setup: Document | None,
    by: Actor,
) -> C:
    """PATCH: ``name`` and ``public`` any time; the set-up only before the first result (409).

    A new set-up replaces the events and the game's set-up rows whole (no result, version or
    snapshot refers to them yet). The change is audited with every value that moved.
    """
    with transaction.atomic():
        competition = _lock_competition(kind, competition_id)
        fields: list[str] = []
        changed: dict[str, Any] = {}
        for key in ("name", "public"):
            if key in changes:
                if getattr(competition, key) != changes[key]:
                    changed[key] = [getattr(competition, key), changes[key]]
                setattr(competition, key, changes[key])
                fields.append(key)
        if setup is not None:
            if results_stored(kind.event_model, competition):
                raise Conflict(_("The set-up cannot change once results are stored."))
            changed.update(_setup_changes(kind, competition, setup, changes))
            _replace_setup(kind, competition, setup)
            fields += kind.setup_columns
        if fields:
            competition.save(update_fields=[*dict.fromkeys(fields), "updated_at"])
        if changed:
            audit.record(
                club_id=competition.club_id,
                kind=kind.label,
                competition_id=competition.pk,
                action=AuditAction.SETUP_CHANGED,
                by=by,
                changes=changed,
                summary="Changed: " + ", ".join(sorted(changed)),
            )
    return competition


def _setup_changes(
    kind: AnyKind, competition: Competition, setup: Document, changes: Document
) -> dict[str, Any]:
    """What a new set-up changes, for the audit entry: rules and columns moved, keys sent."""
    changed: dict[str, Any] = {}
    if "rules" in setup and competition.rules != setup["rules"]:
        changed["rules"] = {
            k: [competition.rules.get(k), v]
            for k, v in setup["rules"].items()
            if competition.rules.get(k) != v
        }
    changed["setup"] = sorted(k for k in changes if k not in ("name", "public"))
    for column in kind.setup_columns:
        # Set-up settings the client sets itself (a Formula D rule set, its points).
        before = getattr(competition, column)
        if column != "rules" and column in kind.setup_fields and before != setup[column]:
            changed[column] = [before, setup[column]]
    return changed


def _replace_setup(kind: AnyKind, competition: Competition, setup: Document) -> None:
    """Rewrite the game's rows: no result, version or snapshot refers to them yet."""
    kind.event_model.objects.filter(competition=competition).delete()
    for model in kind.setup_models:
        model._default_manager.filter(**{_link_to(model, kind): competition}).delete()
    kind.apply_setup(competition, setup)
    kind.write_setup(competition, setup)
    link_entries(kind.label, competition, setup)  # club players (tournament/players)


def _link_to(model: type[models.Model], kind: AnyKind) -> str:
    """The name of ``model``'s foreign key to the kind's competition model."""
    for field in model._meta.get_fields():
        if getattr(field, "many_to_one", False) and field.related_model is kind.competition_model:
            return str(field.name)
    raise LookupError(f"{model.__name__} has no foreign key to {kind.competition_model.__name__}")


def queue_resolution(kind: AnyKind, event_id: int) -> None:
    """Send the resolve task once the transaction commits.

    ``robust=True``: a broker outage must not fail the request; the stage stays ``submitted``
    and the periodic sweeper queues it again.
    """
    # tasks imports this module (its tasks call these services): imported at call time.
    from tournament.competitions.tasks import resolve_event_task

    transaction.on_commit(lambda: resolve_event_task.delay(kind.label, event_id), robust=True)


def resolve_event(*, kind: AnyKind, event_id: int) -> str:
    """Resolve event ``event_id`` and recompute every later event with results.

    Idempotent: the event is claimed with a conditional update (``submitted`` → ``resolved``)
    inside the transaction that writes the snapshots, so a second run, or a run for a version
    that was already resolved, changes nothing; a worker killed midway rolls the claim back.
    Returns what happened: ``resolved``, ``failed``, ``waiting`` (an earlier event is not
    resolved yet) or ``noop``.
    """
    competition_id = (
        kind.event_model.objects.filter(pk=event_id)
        .values_list("competition_id", flat=True)
        .first()
    )
    if competition_id is None:
        return "noop"
    with transaction.atomic():
        competition, events = _locked(kind, competition_id)
        index = next(i for i, e in enumerate(events) if e.pk == event_id)
        target = events[index]
        if target.status != Status.SUBMITTED:
            return "noop"
        if any(e.status != Status.RESOLVED for e in events[:index]):
            # The earlier event's own resolution cascades to this one.
            return "waiting"
        now = timezone.now()
        if not kind.event_model.objects.claim(event_id, now):
            return "noop"
        target.status = Status.RESOLVED
        outcome = _recompute_from(kind, competition, events, index, now)
        _save_progress(competition, events)
        _announce(kind, competition, target.number, outcome)
    return outcome


@dataclass(frozen=True)
class _Failure:
    """The first event of a recomputed run that could not be resolved, and why."""

    index: int
    message: str


def _recompute_from(
    kind: AnyKind, competition: Competition, events: list[Event], start: int, now: datetime
) -> str:
    """Recompute snapshots of events[start:] that have results, in order, in one transaction."""
    chain_end = start
    while chain_end < len(events) and events[chain_end].has_results:
        chain_end += 1
    failure = _first_invalid(kind, competition, events, start, chain_end)
    try:
        snapshots = kind.compute_snapshots(
            competition, events[: failure.index if failure else chain_end]
        )
    except ResolutionError as exc:
        # Clamp: events before ``start`` were already resolved against the same results.
        index = max(start, next(i for i, e in enumerate(events) if e.number == exc.number))
        failure = _Failure(index, exc.message)
        snapshots = kind.compute_snapshots(competition, events[:index]) if index > start else []
    good_until = failure.index if failure else chain_end
    kind.snapshot_model.objects.of(competition).filter(number__gte=events[start].number).delete()
    kind.snapshot_model.objects.bulk_create(
        [
            kind.snapshot_model.after(competition, events[i], snapshots[i])
            for i in range(start, good_until)
        ]
    )
    _settle_statuses(events, start, good_until, failure, now)
    return "failed" if failure and failure.index == start else "resolved"


def _first_invalid(
    kind: AnyKind, competition: Competition, events: list[Event], start: int, chain_end: int
) -> _Failure | None:
    """The first event of events[start:chain_end] whose stored results no longer validate.

    Every event from the claimed one on is validated again: a correction may make a later one
    invalid (API.md), and an event queued again by an organiser may no longer fit either.
    """
    for i in range(start, chain_end):
        try:
            kind.validate_results(competition, events[i], list(events[i].results))
        except InvalidInput as exc:
            return _Failure(i, flatten_errors(exc.detail))
    return None


def _settle_statuses(
    events: list[Event], start: int, good_until: int, failure: _Failure | None, now: datetime
) -> None:
    """Resolved up to ``good_until``, the failed event failed, later ones with results waiting."""
    for i in range(start, len(events)):
        event = events[i]
        if i < good_until:
            new_status, error = Status.RESOLVED, ""
        elif failure and i == failure.index:
            new_status, error = Status.FAILED, failure.message
        elif event.has_results:
            new_status, error = Status.SUBMITTED, ""  # waits for the failed event's correction
        else:
            continue
        if event.status == new_status and event.error == error and i != start:
            continue
        if new_status == Status.RESOLVED:
            event.mark_resolved(now)
        elif new_status == Status.FAILED:
            event.mark_failed(error)
        else:
            event.mark_waiting()


def flatten_errors(detail: Any) -> str:
    """One readable line from nested field errors, for an event's ``error``."""
    if isinstance(detail, dict):
        parts = []
        for key, value in detail.items():
            text = flatten_errors(value)
            if text:
                parts.append(text if key in ("detail", "non_field_errors") else f"{key}: {text}")
        return "; ".join(parts)
    if isinstance(detail, list):
        return "; ".join(t for t in (flatten_errors(v) for v in detail) if t)
    return str(detail)


def fail_event(*, kind: AnyKind, event_id: int, message: str) -> None:
    """Mark an event ``failed`` after retries ran out (later events wait for it)."""
    with transaction.atomic():
        competition_id = (
            kind.event_model.objects.filter(pk=event_id)
            .values_list("competition_id", flat=True)
            .first()
        )
        if competition_id is None:
            return
        competition, events = _locked(kind, competition_id)
        target = next(e for e in events if e.pk == event_id)
        if target.status != Status.SUBMITTED:
            return
        target.mark_failed(message)
        _save_progress(competition, events)
        _announce(kind, competition, target.number, "failed")


def pending_events(kind: AnyKind, older_than: datetime) -> list[int]:
    """Ids of events left ``submitted`` since before ``older_than`` (for the sweeper)."""
    return list(
        kind.event_model.objects.pending(older_than)
        .order_by("competition_id", "number")
        .values_list("pk", flat=True)
    )


def standings_text(
    *, kind: AnyKind, competition_id: int, user: Actor, after: int | None
) -> str | None:
    """The hot path of a standings read: the snapshot's JSON text in one query, or None.

    None means "no stored snapshot answers this": the caller falls back to :func:`standings`,
    which tells a 404 (not visible), a 400 (``after`` out of range) and the standings before
    any event apart. Visibility is the same rule as ``visible_to``, inside the same query.
    """
    # Plain SQL, built once per game: this read is the service's hottest path, and building the
    # equivalent ORM query cost more than running it (bench/bench_standings.py).
    sql = _standings_sql(kind)
    superuser = bool(getattr(user, "is_superuser", False))
    user_id = user.pk if user is not None and user.is_authenticated else None
    with connection.cursor() as cursor:
        cursor.execute(sql, [competition_id, after, superuser, user_id])
        row = cursor.fetchone()
    return row[0] if row else None


_STANDINGS_SQL: dict[str, str] = {}


def _standings_sql(kind: AnyKind) -> str:
    """The snapshot text for (competition, after or the current run, reader), if readable.

    Same rules as ``visible_to`` (public, a member of the club, or a superuser) and as
    :func:`standings` (the latest run by default, or ``after`` within it).
    """
    sql = _STANDINGS_SQL.get(kind.label)
    if sql is None:
        q = connection.ops.quote_name
        snapshot = q(kind.snapshot_model._meta.db_table)
        competition = q(kind.competition_model._meta.db_table)
        membership = q(Membership._meta.db_table)
        sql = (
            f"SELECT CAST(s.{q('data')} AS TEXT) FROM {snapshot} s "
            f"JOIN {competition} c ON c.{q('id')} = s.{q('competition_id')} "
            f"WHERE s.{q('competition_id')} = %s "
            f"AND s.{q('number')} = COALESCE(%s, c.{q('standings_through')}) "
            f"AND s.{q('number')} <= c.{q('standings_through')} "
            f"AND (c.{q('public')} OR %s OR EXISTS (SELECT 1 FROM {membership} m "
            f"WHERE m.{q('club_id')} = c.{q('club_id')} AND m.{q('user_id')} = %s)) "
            "LIMIT 1"
        )
        _STANDINGS_SQL[kind.label] = sql
    return sql


def standings(*, kind: AnyKind, competition: Competition, after: int | None) -> Document:
    """The standings JSON after event ``after`` (default: the latest consecutive resolved one).

    Two queries at most whatever the competition's size: the snapshot, or the set-up for the
    standings before any event. ``after`` outside 1..current is an InvalidInput.
    """
    through = competition.standings_through
    if after is not None:
        if through is None or not 1 <= after <= through:
            raise InvalidInput(
                {
                    kind.after_param: [
                        _("Must be between 1 and %(n)s, the last one resolved in a row.")
                        % {"n": through or 0}
                        if through
                        else _("Nothing is resolved yet.")
                    ]
                }
            )
        through = after
    if through is None:
        return kind.initial_standings(competition)
    data = next(
        iter(
            kind.snapshot_model.objects.of(competition)
            .filter(number=through)
            .order_by()
            .values_list("data", flat=True)[:1]
        ),
        None,
    )
    if data is None:  # a snapshot is written in the same transaction as the status
        raise Conflict(_("Standings are being recomputed; try again."))
    return data


def set_event_date(
    *, kind: AnyKind, competition_id: int, number: int, date: datetime | None, by: Actor
) -> Event:
    """``PATCH`` on an event: its ``date`` (API.md, "Dates"), at any time, audited when it moves.

    A date is not set-up: results stored or not, nothing else changes. The competition's
    ``updated_at`` moves with it (a calendar's DTSTAMP: when the entry was last revised).
    """
    with transaction.atomic():
        competition = kind.competition_model.objects.select_for_update().get(pk=competition_id)
        event = kind.event_model.objects.get(competition=competition, number=number)
        before = event.date
        if before != date:
            kind.event_model.objects.filter(pk=event.pk).update(date=date)
            event.date = date
            competition.save(update_fields=["updated_at"])
            audit.record(
                club_id=competition.club_id,
                kind=kind.label,
                competition_id=competition.pk,
                event_number=number,
                action=AuditAction.SETUP_CHANGED,
                summary=f"{kind.event_label(number)}: date changed",
                changes={"date": [_iso(before), _iso(date)]},
                by=by,
            )
    return event


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def requeue_events(*, kind: AnyKind, event_ids: Iterable[int]) -> int:
    """Queue the resolution of events again (admin "resolve again"); how many were queued.

    Only ``failed`` and ``submitted`` events with results qualify: a failed one goes back to
    ``submitted`` first, so the worker's conditional claim picks it up (retry after an outage,
    or a lost task).
    """
    count = 0
    with transaction.atomic():
        for event in kind.event_model.objects.requeueable(event_ids):
            if event.status == Status.FAILED:
                event.reopen()
            queue_resolution(kind, event.pk)
            count += 1
    return count
