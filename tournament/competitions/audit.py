"""The audit log: one call per write, inside the write's own transaction."""

from __future__ import annotations

from typing import Any

from tournament.competitions.models import AuditAction, AuditEntry


def record(
    *,
    club_id: int,
    action: str,
    summary: str,
    by: Any,
    kind: str = "",
    competition_id: int | None = None,
    event_number: int | None = None,
    changes: dict[str, Any] | None = None,
) -> AuditEntry:
    """Append an entry; ``by`` may be None or anonymous (system actions, simulations)."""
    user = by if getattr(by, "is_authenticated", False) else None
    return AuditEntry.objects.create(
        club_id=club_id,
        competition_kind=kind,
        competition_id=competition_id,
        event_number=event_number,
        user=user,
        action=action,
        summary=summary[:300],
        changes=changes or {},
    )


def results_action(*, source: str, version: int) -> str:
    """The action of a stored result version: first submission, correction or simulation."""
    if source == "simulated":
        return AuditAction.RESULTS_SIMULATED
    return AuditAction.RESULTS_SUBMITTED if version == 1 else AuditAction.RESULTS_CORRECTED


def history(*, kind: str, competition_id: int) -> Any:
    """The competition's entries, newest first (a queryset, for pagination)."""
    return AuditEntry.objects.filter(
        competition_kind=kind, competition_id=competition_id
    ).select_related("user")
