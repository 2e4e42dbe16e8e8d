"""The API's JSON parser: DRF's, with a bound on how deeply a body may nest.

Python's JSON decoder recurses once per ``[`` or ``{``: a 2 KB body of 1,000 ``[`` exhausted the
interpreter's recursion limit and the ``RecursionError`` was a 500 on every write endpoint, even
anonymously (issue #13). Every request body the API accepts nests a dozen levels at most (an
import document: document → events → versions → rows → row), so anything deeper than
``MAX_DEPTH`` is refused with a 400 before any view, serializer or game check walks it
recursively.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# Far above any body the API accepts (≤ 12 levels), far below the recursion limit (1,000).
MAX_DEPTH = 32


def depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels deep.

    Iterative (an explicit stack), so it is itself safe on any input; it stops at the first
    container past the limit.
    """
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


def too_deep_message() -> str:
    return _("JSON parse error - nested more than %(n)s levels deep.") % {"n": MAX_DEPTH}


class BoundedJSONParser(JSONParser):
    """``application/json`` bodies nested at most ``MAX_DEPTH`` levels; deeper ones are a 400."""

    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError as exc:
            # The decoder gave up before reaching the end: deeper than the recursion limit.
            raise ParseError(too_deep_message()) from exc
        if depth_exceeds(data, MAX_DEPTH):
            raise ParseError(too_deep_message())
        return data
