"""Webhook workflows: what a change of the standings announces, and one delivery attempt.

Which events a ``standings_changed`` announces (docs/webhooks.md):

- only ``outcome == "resolved"`` announces anything (a ``failed`` event changes no results; a
  ``corrected`` one stored results that are not resolved yet: its announcement waits for them);
- each event from ``event_number`` to ``after`` that is now resolved is announced once per
  result version: version 1 as ``event.resolved``, a later version (a correction, audited as
  ``results_corrected``) as ``results.corrected``. The ``Announcement`` table makes it once: the
  cascade of a correction re-resolves later events at their old versions, and those were
  announced already;
- when the run of resolved events reaches the last event, ``competition.finished``, once.

Nothing is recorded for a club without an active webhook, so the other clubs pay one query.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation

from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status
from tournament.competitions.signals import StandingsChange
from tournament.webhooks import guard, payloads, send
from tournament.webhooks.models import (
    CORRECTED,
    FINISHED,
    MAX_ATTEMPTS,
    RESOLVED,
    Announcement,
    Attempt,
    Delivery,
    DeliveryState,
    Format,
    Webhook,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Told:
    event: str
    number: int
    version: int


def _to_tell(change: StandingsChange) -> list[_Told]:
    kind = get_kind(change.kind)
    if change.outcome != "resolved" or change.after is None or change.after < change.event_number:
        return []
    rows = (
        kind.event_model.objects.filter(competition_id=change.competition_id)
        .order_by("number")
        .values_list("number", "version", "status")
    )
    events = list(rows)
    told = [
        _Told(RESOLVED if version <= 1 else CORRECTED, number, version)
        for number, version, status in events
        if change.event_number <= number <= change.after and status == Status.RESOLVED
    ]
    if events and change.after == events[-1][0]:
        told.append(_Told(FINISHED, change.after, 0))
    return told


def announce(change: StandingsChange) -> list[int]:
    """Queue the deliveries a change of the standings calls for; their ids."""
    kind = get_kind(change.kind)
    competition = (
        kind.competition_model.objects.filter(pk=change.competition_id)
        .values("club_id", "name")
        .first()
    )
    if competition is None:
        return []
    hooks = list(Webhook.objects.filter(club_id=competition["club_id"], active=True))
    if not hooks:
        return []
    made: list[int] = []
    at = timezone.now().isoformat()
    for told in _to_tell(change):
        listening = [h for h in hooks if told.event in h.events]
        if not listening:
            continue
        try:
            with transaction.atomic():
                Announcement.objects.create(
                    kind=change.kind,
                    competition_id=change.competition_id,
                    event=told.event,
                    number=0 if told.event == FINISHED else told.number,
                    version=told.version,
                )
                data = payloads.payload(
                    event=told.event,
                    kind=change.kind,
                    competition_id=change.competition_id,
                    name=competition["name"],
                    number=told.number,
                    at=at,
                )
                made += [
                    Delivery.objects.create(webhook=h, event=told.event, payload=data).pk
                    for h in listening
                ]
        except IntegrityError:
            continue  # announced already (another worker, or an earlier change)
    return made


def _body(delivery: Delivery) -> str:
    if delivery.webhook.format != Format.DISCORD:
        return payloads.encode(delivery.payload)
    with translation.override(settings.LANGUAGE_CODE):
        return payloads.encode(payloads.discord(delivery.payload, delivery.webhook.club.name))


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failed ones: b, 4b, 16b, 64b."""
    return float(settings.PODIUM_WEBHOOKS_BACKOFF_SECONDS) * 4 ** (attempts - 1)


def attempt(delivery_id: int) -> float | None:
    """Try a pending delivery once and log the try; seconds until the next try, or None."""
    delivery = (
        Delivery.objects.select_related("webhook__club")
        .filter(pk=delivery_id, state=DeliveryState.PENDING)
        .first()
    )
    if delivery is None or delivery.attempts >= MAX_ATTEMPTS:
        return None
    if not delivery.body:
        delivery.body = _body(delivery)
    answer = _post(delivery)
    number = delivery.attempts + 1
    with transaction.atomic():
        Attempt.objects.create(
            delivery=delivery,
            number=number,
            status_code=answer.status,
            error=answer.error[:2000],
            duration_ms=answer.duration_ms,
        )
        delivery.attempts = number
        delivery.status_code = answer.status
        delivery.last_error = answer.error[:2000]
        if answer.ok:
            delivery.state = DeliveryState.DELIVERED
        elif number >= MAX_ATTEMPTS:
            delivery.state = DeliveryState.FAILED
        delivery.save(
            update_fields=["body", "attempts", "status_code", "last_error", "state", "updated_at"]
        )
    if delivery.state != DeliveryState.PENDING:
        return None
    return backoff(number)


def _post(delivery: Delivery) -> send.Answer:
    body = delivery.body.encode()
    try:
        target = guard.check(delivery.webhook.url)  # again: the name may resolve elsewhere now
    except guard.Refused as exc:
        return send.Answer(None, str(exc), 0)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Podium-Webhooks/1",
        "X-Podium-Event": delivery.event,
        "X-Podium-Delivery": str(delivery.pk),
        "X-Podium-Signature": payloads.signature(delivery.webhook.secret, body),
    }
    return send.post(target, body, headers, float(settings.PODIUM_WEBHOOKS_TIMEOUT_SECONDS))
