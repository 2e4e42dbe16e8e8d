"""The delivery task: one attempt per run; a failed one queues the next with a countdown.

The task never sleeps: a receiver that fails waits in the broker, not in a worker. A slow one
holds a worker for at most ``PODIUM_WEBHOOKS_TIMEOUT_SECONDS`` (connect, then each read). The
task goes to ``PODIUM_WEBHOOKS_QUEUE`` (default: the default queue; a deployment may run a worker
of its own for it, docs/webhooks.md).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from tournament.webhooks import services


def queue(delivery_id: int, countdown: float = 0) -> None:
    name = str(getattr(settings, "PODIUM_WEBHOOKS_QUEUE", "") or "")
    if name:
        deliver.apply_async((delivery_id,), countdown=countdown, queue=name)
    else:
        deliver.apply_async((delivery_id,), countdown=countdown)


@shared_task(ignore_result=True)
def deliver(delivery_id: int) -> None:
    wait = services.attempt(delivery_id)
    if wait is not None:
        queue(delivery_id, wait)
