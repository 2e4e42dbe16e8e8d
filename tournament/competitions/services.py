"""The shared workflow: submit results, resolve them, read standings.

Every game goes through these functions; a :class:`GameKind` supplies only the game's own steps.
Invariant kept here: an event is ``resolved`` only when every earlier event is resolved and its
snapshot reflects its current results. The competition row is the lock that serialises submissions
and resolutions of one competition.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.competitions import audit
from tournament.competitions.errors import (
    Conflict,
    InvalidInput,
    ResolutionError,
    VersionConflict,
)
from tournament.competitions.kinds import GameKind
from tournament.competitions.models import AuditAction, Source, Status

log = logging.getLogger(__name__)


def _locked(kind: GameKind, competition_id: int) -> tuple[Any, list[Any]]:
    """Lock the competition row, then load its events in order."""
    competition = kind.competition_model.objects.select_for_update().get(pk=competition_id)
    events = list(kind.event_model.objects.filter(competition_id=competition_id).order_by("number"))
    return competition, events


def _standings_through(events: Sequence[Any]) -> int | None:
    """The last event of the longest run of resolved events from the first (API.md)."""
    through = None
    for event in events:
        if event.status != Status.RESOLVED:
            break
        through = event.number
    return through


def _save_progress(kind: GameKind, competition: Any, events: Sequence[Any]) -> None:
    through = _standings_through(events)
    if competition.standings_through != through:
        competition.standings_through = through
        kind.competition_model.objects.filter(pk=competition.pk).update(standings_through=through)


def submit_results(
    *,
    kind: GameKind,
    competition_id: int,
    number: int,
    rows: list[dict[str, Any]],
    by: Any,
    source: str = Source.SUBMITTED,
    expected_version: int | None = None,
    replay: Any = None,
) -> Any:
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
        now = timezone.now()
        event.version += 1
        event.results = normalised
        event.status = Status.SUBMITTED
        event.source = source
        event.error = ""
        event.submitted_at = now
        event.save(
            update_fields=["version", "results", "status", "source", "error", "submitted_at"]
        )
        kind.version_model.objects.create(
            event=event,
            number=event.version,
            source=source,
            rows=normalised,
            replay=replay,
            created_by=by if getattr(by, "is_authenticated", False) else None,
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
        _save_progress(kind, competition, events)
        queue_resolution(kind, event.pk)
    return event


def diff_rows(before: list[dict[str, Any]], after: list[dict[str, Any]]) -> list[dict[str, Any]]:
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


def results_stored(event_model: Any, competition: Any) -> bool:
    """Whether an event of ``competition`` (saved) has results: its set-up is then locked."""
    return (
        competition is not None
        and competition.pk is not None
        and event_model.objects.filter(competition=competition, version__gt=0).exists()
    )


def setup_locked(*, kind: GameKind, competition: Any, data: Any) -> bool:
    """True when ``data`` touches the set-up and results are already stored (API.md: 409)."""
    touches = isinstance(data, dict) and any(key in data for key in kind.setup_fields)
    return touches and results_stored(kind.event_model, competition)


def update_competition(
    *,
    kind: GameKind,
    competition_id: int,
    changes: dict[str, Any],
    setup: dict[str, Any] | None,
    by: Any,
    replace_setup: Callable[[Any, dict[str, Any], dict[str, Any]], list[str]],
) -> Any:
    """PATCH: ``name`` and ``public`` any time; the set-up only before the first result (409).

    ``replace_setup(competition, setup, changed)`` rewrites the game's own rows (events,
    entrants), may note what it changed in ``changed``, and returns the competition fields it
    set. The change is audited with every value that moved.
    """
    with transaction.atomic():
        competition = kind.competition_model.objects.select_for_update().get(pk=competition_id)
        fields: list[str] = []
        changed: dict[str, Any] = {}
        for key in ("name", "public"):
            if key in changes:
                if getattr(competition, key) != changes[key]:
                    changed[key] = [getattr(competition, key), changes[key]]
                setattr(competition, key, changes[key])
                fields.append(key)
        if setup is not None:
            if kind.event_model.objects.filter(competition=competition, version__gt=0).exists():
                raise Conflict(_("The set-up cannot change once results are stored."))
            if competition.rules != setup["rules"]:
                changed["rules"] = {
                    k: [competition.rules.get(k), v]
                    for k, v in setup["rules"].items()
                    if competition.rules.get(k) != v
                }
            changed["setup"] = sorted(k for k in changes if k not in ("name", "public"))
            fields += replace_setup(competition, setup, changed)
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


def queue_resolution(kind: GameKind, event_id: int) -> None:
    """Send the resolve task once the transaction commits.

    ``robust=True``: a broker outage must not fail the request; the stage stays ``submitted``
    and the periodic sweeper queues it again.
    """
    from tournament.competitions.tasks import resolve_event_task

    transaction.on_commit(lambda: resolve_event_task.delay(kind.label, event_id), robust=True)


def resolve_event(*, kind: GameKind, event_id: int) -> str:
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
        claimed = kind.event_model.objects.filter(pk=event_id, status=Status.SUBMITTED).update(
            status=Status.RESOLVED, resolved_at=now, error=""
        )
        if claimed != 1:
            return "noop"
        target.status = Status.RESOLVED
        outcome = _recompute_from(kind, competition, events, index, now)
        _save_progress(kind, competition, events)
    return outcome


def _recompute_from(
    kind: GameKind, competition: Any, events: list[Any], start: int, now: Any
) -> str:
    """Recompute snapshots of events[start:] that have results, in order, in one transaction."""
    chain_end = start
    while chain_end < len(events) and events[chain_end].has_results:
        chain_end += 1
    chain = events[:chain_end]
    failed_at: int | None = None
    message = ""
    # Every event from the claimed one on is validated again: a correction may make a later one
    # invalid (API.md), and an event queued again by an organiser may no longer fit either.
    for i in range(start, chain_end):
        event = events[i]
        try:
            kind.validate_results(competition, event, list(event.results))
        except InvalidInput as exc:
            failed_at, message = i, flatten_errors(exc.detail)
            break
    computed_until = failed_at if failed_at is not None else chain_end
    try:
        snapshots = kind.compute_snapshots(competition, chain[:computed_until])
    except ResolutionError as exc:
        # Clamp: events before ``start`` were already resolved against the same results.
        failed_at = max(start, next(i for i, e in enumerate(events) if e.number == exc.number))
        message = exc.message
        snapshots = []
        if failed_at > start:
            snapshots = kind.compute_snapshots(competition, chain[:failed_at])
    good_until = failed_at if failed_at is not None else chain_end
    snapshot_model = kind.snapshot_model
    snapshot_model.objects.filter(
        competition=competition, number__gte=events[start].number
    ).delete()
    snapshot_model.objects.bulk_create(
        [
            snapshot_model(
                competition=competition, event=events[i], number=events[i].number, data=snapshots[i]
            )
            for i in range(start, good_until)
        ]
    )
    for i, event in enumerate(events):
        if i < start:
            continue
        if i < good_until:
            new_status, error = Status.RESOLVED, ""
        elif i == failed_at:
            new_status, error = Status.FAILED, message
        elif event.has_results:
            new_status, error = Status.SUBMITTED, ""  # waits for the failed event's correction
        else:
            continue
        if event.status != new_status or event.error != error or i == start:
            fields = {"status": new_status, "error": error}
            if new_status == Status.RESOLVED:
                fields["resolved_at"] = now
            kind.event_model.objects.filter(pk=event.pk).update(**fields)
            event.status, event.error = new_status, error
    if failed_at == start:
        return "failed"
    return "resolved"


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


def fail_event(*, kind: GameKind, event_id: int, message: str) -> None:
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
        kind.event_model.objects.filter(pk=event_id).update(status=Status.FAILED, error=message)
        target.status = Status.FAILED
        _save_progress(kind, competition, events)


def pending_events(kind: GameKind, older_than: Any) -> list[int]:
    """Ids of events left ``submitted`` since before ``older_than`` (for the sweeper)."""
    return list(
        kind.event_model.objects.filter(status=Status.SUBMITTED, submitted_at__lt=older_than)
        .order_by("competition_id", "number")
        .values_list("pk", flat=True)
    )


def standings_text(
    *, kind: GameKind, competition_id: int, user: Any, after: int | None
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
    user_id = user.pk if user.is_authenticated else None
    with connection.cursor() as cursor:
        cursor.execute(sql, [competition_id, after, superuser, user_id])
        row = cursor.fetchone()
    return row[0] if row else None


_STANDINGS_SQL: dict[str, str] = {}


def _standings_sql(kind: GameKind) -> str:
    """The snapshot text for (competition, after or the current run, reader), if readable.

    Same rules as ``visible_to`` (public, a member of the club, or a superuser) and as
    :func:`standings` (the latest run by default, or ``after`` within it).
    """
    sql = _STANDINGS_SQL.get(kind.label)
    if sql is None:
        from tournament.clubs.models import Membership

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


def standings(*, kind: GameKind, competition: Any, after: int | None) -> dict[str, Any]:
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
            kind.snapshot_model.objects.filter(competition=competition, number=through)
            .order_by()
            .values_list("data", flat=True)[:1]
        ),
        None,
    )
    if data is None:  # a snapshot is written in the same transaction as the status
        raise Conflict(_("Standings are being recomputed; try again."))
    return data


def requeue_events(*, kind: GameKind, event_ids: Any) -> int:
    """Queue the resolution of events again (admin "resolve again"); how many were queued.

    Only ``failed`` and ``submitted`` events with results qualify: a failed one goes back to
    ``submitted`` first, so the worker's conditional claim picks it up (retry after an outage,
    or a lost task).
    """
    count = 0
    with transaction.atomic():
        events = kind.event_model.objects.filter(
            pk__in=event_ids, status__in=[Status.FAILED, Status.SUBMITTED], version__gt=0
        )
        for event in events:
            if event.status == Status.FAILED:
                kind.event_model.objects.filter(pk=event.pk, status=Status.FAILED).update(
                    status=Status.SUBMITTED, error=""
                )
            queue_resolution(kind, event.pk)
            count += 1
    return count
