"""``Idempotency-Key`` on result submissions (API.md): a retried POST gets the first answer.

The key row is inserted in the same transaction as the submission it guards: two concurrent
requests with one key serialise on the unique index, and the second returns the first's answer.
Only accepted answers (2xx) are remembered, so a rejected submission can be corrected and sent
again with the same key.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.competitions.models import IdempotencyKey

HEADER = "Idempotency-Key"
KEEP = timedelta(hours=24)
MAX_KEY_LENGTH = 255


def _hash(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(row: IdempotencyKey, digest: str) -> Response:
    if row.request_hash != digest:
        return Response(
            {"detail": _("This Idempotency-Key was used with a different request body.")},
            status=status.HTTP_409_CONFLICT,
        )
    return Response(row.response, status=row.status_code or status.HTTP_200_OK)


def idempotent(request: Request, handler: Callable[[], Response]) -> Response:
    """Run ``handler`` once per (user, endpoint, key); answer repeats from the database."""
    key = request.headers.get(HEADER)
    if not key or not request.user.is_authenticated:
        return handler()
    if len(key) > MAX_KEY_LENGTH:
        return Response(
            {HEADER: [_("At most %(n)s characters.") % {"n": MAX_KEY_LENGTH}]},
            status=status.HTTP_400_BAD_REQUEST,
        )
    endpoint = request.path[:200]
    digest = _hash(request.data)
    lookup = {"user": request.user, "endpoint": endpoint, "key": key}
    IdempotencyKey.objects.filter(**lookup, created_at__lt=timezone.now() - KEEP).delete()
    existing = IdempotencyKey.objects.filter(**lookup).first()
    if existing is not None and existing.status_code is not None:
        return _replay(existing, digest)
    try:
        with transaction.atomic():
            row = IdempotencyKey.objects.create(**lookup, request_hash=digest)
            response = handler()
            if not status.is_success(response.status_code):
                transaction.set_rollback(True)  # remember accepted answers only
                return response
            row.status_code = response.status_code
            row.response = response.data
            row.save(update_fields=["status_code", "response"])
            return response
    except IntegrityError:
        # A concurrent request with this key committed first: answer as it did.
        existing = IdempotencyKey.objects.filter(**lookup).first()
        if existing is None or existing.status_code is None:
            return Response(
                {"detail": _("A request with this Idempotency-Key is in progress.")},
                status=status.HTTP_409_CONFLICT,
            )
        return _replay(existing, digest)


def purge_expired(now: Any = None) -> int:
    """Delete keys older than 24 hours (run by beat)."""
    now = now or timezone.now()
    deleted, _count = IdempotencyKey.objects.filter(created_at__lt=now - KEEP).delete()
    return deleted
