"""Pure-engine issues → DRF-shaped field errors, translated by issue code.

The scoring engine speaks English with a stable ``code`` and ``params``; here each code maps to
a translatable template, so the API and the web forms show one message per problem in the user's
language. Unknown codes fall back to the engine's English text.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.utils.functional import Promise

#: code → template using the issue's params; filled by the translations of the web issue.
TEMPLATES: dict[str, Promise | str] = {}


def translate(code: str, message: str, params: Mapping[str, Any]) -> str:
    template = TEMPLATES.get(code)
    if template is None:
        return message
    try:
        return str(template) % dict(params)
    except (KeyError, TypeError, ValueError):
        return message


def issues_to_errors(issues: Iterable[Any], row_count: int, key: str = "results") -> dict[str, Any]:
    """``{"results": [{field: [msg]}, …]}`` for row issues; list-level issues as ``non_field``.

    API.md: field errors nested for list items. When only list-level problems exist they are the
    list's own errors (``{"results": ["…"]}``).
    """
    rows: list[dict[str, list[str]]] = [{} for _ in range(row_count)]
    whole: list[str] = []
    for issue in issues:
        text = translate(issue.code, issue.message, issue.params)
        if issue.index is None or not 0 <= issue.index < row_count:
            whole.append(text)
        else:
            rows[issue.index].setdefault(issue.field or "non_field_errors", []).append(text)
    errors: dict[str, Any] = {}
    if any(rows):
        errors[key] = rows
        if whole:
            errors["non_field_errors"] = whole
    else:
        errors[key] = whole
    return errors
