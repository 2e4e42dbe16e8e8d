"""Domain errors and the one exception handler that maps them to HTTP answers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import DataError
from django.http import Http404
from django.utils.translation import gettext_lazy as _
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler


class DomainError(Exception):
    """A request the competition's state or rules cannot accept."""

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, detail: Any, **extra: Any) -> None:
        super().__init__(str(detail))
        self.detail = detail
        self.extra = extra

    def payload(self) -> Any:
        if isinstance(self.detail, (dict, list)):
            return self.detail
        return {"detail": self.detail, **self.extra}


class InvalidInput(DomainError):
    """400 with field errors in DRF's shape (``{"field": ["message"]}``)."""


class Conflict(DomainError):
    """409: the request conflicts with the competition's state (API.md)."""

    status_code = status.HTTP_409_CONFLICT


class VersionConflict(Conflict):
    """409: the client edited another version of the event (API.md, versions)."""

    def __init__(self, event: object) -> None:
        super().__init__(_("version conflict"))
        self.event = event


class ResolutionError(Exception):
    """A domain error found while resolving: event ``number`` becomes ``failed``."""

    def __init__(self, number: int, message: str) -> None:
        super().__init__(message)
        self.number = number
        self.message = message


def nested_lists(detail: Any) -> Any:
    """Field errors of list items as lists (API.md: ``{"results": [{}, {"rider": [...]}]}``).

    DRF keys list-item errors by index (``{1: {...}}``, a JSON object) for nested serializers
    and ``ListField``s, while the game checks report lists; one endpoint must not answer both
    shapes. Items without errors become ``{}``.
    """
    if isinstance(detail, dict):
        if detail and all(isinstance(key, int) for key in detail):
            return [nested_lists(detail.get(i, {})) for i in range(max(detail) + 1)]
        return {key: nested_lists(value) for key, value in detail.items()}
    if isinstance(detail, list):
        return [nested_lists(item) for item in detail]
    return detail


_PATH_PART = re.compile(r"([^.\[\]]+)|\[([0-9]+)\]")


def field_path(field: str) -> list[str | int]:
    """``penalties[0].seconds`` → ``["penalties", 0, "seconds"]``."""
    return [name if name else int(index) for name, index in _PATH_PART.findall(field)] or [field]


def _put(target: dict[str, Any], path: list[str | int], message: str) -> None:
    """Add ``message`` at ``path`` inside nested dicts and lists (DRF's nested error shape)."""
    node: Any = target
    for step, nxt in zip(path, [*path[1:], None], strict=True):
        if nxt is None and isinstance(node, list):
            # A list item that is not an object (``penalties[0]``): its own messages.
            current = node[int(step)]
            if isinstance(current, list):
                current.append(message)
            elif current:
                current.setdefault("non_field_errors", []).append(message)
            else:
                node[int(step)] = [message]
        elif nxt is None:
            node.setdefault(step, []).append(message)
        elif isinstance(nxt, int):
            items = node.setdefault(step, [])
            while len(items) <= nxt:
                items.append({})
            node = items
        else:
            node = node[int(step)] if isinstance(node, list) else node.setdefault(step, {})


def nest_row_errors(
    entries: Iterable[tuple[int | None, str | None, str]],
    row_count: int,
    key: str = "results",
    *,
    paths: bool = False,
) -> dict[str, Any]:
    """``{key: [{field: [msg]}, …]}`` from ``(row index or None, field or None, message)``.

    API.md: field errors nested for list items, ``{}`` for rows without errors. Problems of the
    whole list go to ``non_field_errors`` beside the rows, or are the list's own errors
    (``{key: ["…"]}``) when no row has one. With ``paths``, a field such as
    ``penalties[0].seconds`` nests too (``{"penalties": [{"seconds": [...]}]}``); otherwise
    it is one key as sent. Shared by every game's result validation.
    """
    rows: list[dict[str, Any]] = [{} for _ in range(row_count)]
    whole: list[str] = []
    for index, field, text in entries:
        if index is None or not 0 <= index < row_count:
            whole.append(text)
        else:
            name = field or "non_field_errors"
            _put(rows[index], field_path(name) if paths else [name], text)
    errors: dict[str, Any] = {}
    if any(rows):
        errors[key] = rows
        if whole:
            errors["non_field_errors"] = whole
    else:
        errors[key] = whole
    return errors


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, DomainError):
        return Response(nested_lists(exc.payload()), status=exc.status_code)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages}
        return Response(detail, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)
    if response is None and isinstance(exc, (ValueError, OverflowError, DataError)):
        # Out-of-range integers, or text PostgreSQL refuses (a NUL byte in a slug from the URL or
        # the body): the database rejected a value the client sent; a client error, never a 500.
        return Response({"detail": _("Invalid value.")}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, Http404) and response is not None:
        response.data = {"detail": _("Not found.")}
    elif response is not None and response.status_code == status.HTTP_400_BAD_REQUEST:
        response.data = nested_lists(response.data)
    return response
