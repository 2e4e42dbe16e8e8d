"""Form helpers shared by every game's results form (admin and scorekeeper pages)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def apply_row_errors(formset: Any, detail: Any, row_fields: Collection[str]) -> None:
    """Put ``{"results": [{field: [msg]}] | [msg]}`` errors onto the matching forms.

    The rules are checked once, by the service; its field errors go back on the boxes they name
    (``row_fields``), anything else is shown above the table.
    """
    results = detail.get("results") if isinstance(detail, dict) else None
    general: list[str] = []
    if isinstance(results, list):
        for index, item in enumerate(results):
            if isinstance(item, dict) and index < len(formset.forms):
                form = formset.forms[index]
                for field, messages in item.items():
                    target = field if field in row_fields else None
                    for message in messages:
                        form.add_error(target, message)
            elif isinstance(item, str):
                general.append(item)
    for key, messages in detail.items() if isinstance(detail, dict) else []:
        if key != "results":
            general.extend(str(m) for m in (messages if isinstance(messages, list) else [messages]))
    if general:
        formset._non_form_errors = formset.error_class(general)
