"""Form helpers shared by every game's results form (admin and scorekeeper pages).

The forms check only the shape of each box; the rules are checked once, by the service (the
API's validation), and its field errors go back on the boxes they name.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from tournament.competitions import services
from tournament.competitions.errors import Conflict, InvalidInput
from tournament.competitions.kinds import AnyKind, get_kind
from tournament.competitions.models import Event


def submit_rows(
    formset: Any,
    *,
    kind: AnyKind,
    event: Event,
    rows: list[dict[str, Any]],
    user: Any,
    version: int | None,
    row_fields: Collection[str],
) -> Event | None:
    """Submit ``rows`` through the service; on a 400 or 409 put its errors on ``formset``.

    The stored event, or None (nothing stored) with the errors on the formset.
    """
    try:
        return services.submit_results(
            kind=kind,
            competition_id=event.competition_id,
            number=event.number,
            rows=rows,
            by=user,
            expected_version=version,
        )
    except InvalidInput as exc:
        apply_row_errors(formset, exc.detail, row_fields)
    except Conflict as exc:
        set_form_errors(formset, [str(exc.detail)])
    return None


@dataclass(frozen=True)
class ResultsForm:
    """A game's results formset, declared: its kind, the boxes the service's errors may name,
    and how one valid form becomes one row of the API's ``results``."""

    kind: str
    row_fields: tuple[str, ...]
    row: Callable[[dict[str, Any]], dict[str, Any]]

    def submit(self, formset: Any, *, event: Event, user: Any, version: int | None) -> Event | None:
        """Submit a valid formset's rows through the service; None (nothing stored) on error."""
        if not formset.is_valid():
            return None
        return submit_rows(
            formset,
            kind=get_kind(self.kind),
            event=event,
            rows=[self.row(form.cleaned_data) for form in formset.forms],
            user=user,
            version=version,
            row_fields=self.row_fields,
        )


def named_rows(formset: Any, names: dict[int, str]) -> list[tuple[Any, str]]:
    """Each form with its entrant's name: the entrant is the form's first hidden box (its id)."""
    rows = []
    for form in formset.forms:
        hidden = form.hidden_fields()
        try:
            name = names.get(int(hidden[0].value()), "") if hidden else ""
        except (TypeError, ValueError):
            name = ""
        rows.append((form, name))
    return rows


def set_form_errors(formset: Any, messages: list[str]) -> None:
    """Show ``messages`` above the formset's rows (errors no single box owns)."""
    formset._non_form_errors = formset.error_class(messages)


def apply_row_errors(formset: Any, detail: Any, row_fields: Collection[str]) -> None:
    """Put ``{"results": [{field: [msg]}] | [msg]}`` errors onto the matching forms.

    Errors of a field in ``row_fields`` go on its box, other row errors on the row, anything
    else above the table; nested messages (a penalty's ``[{"seconds": [...]}]``) are flattened.
    """
    results = detail.get("results") if isinstance(detail, dict) else None
    general: list[str] = []
    if isinstance(results, list):
        for index, item in enumerate(results):
            if isinstance(item, dict) and index < len(formset.forms):
                form = formset.forms[index]
                for field, messages in item.items():
                    target = field if field in row_fields else None
                    for message in flatten(messages):
                        form.add_error(target, message)
            elif isinstance(item, str):
                general.append(item)
    for key, messages in detail.items() if isinstance(detail, dict) else []:
        if key != "results":
            general.extend(flatten(messages))
    if general:
        set_form_errors(formset, general)


def flatten(messages: Any) -> list[str]:
    """Error messages at any depth (lists, dicts of lists) as one flat list of strings."""
    if isinstance(messages, dict):
        return [m for value in messages.values() for m in flatten(value)]
    if isinstance(messages, list | tuple):
        return [m for value in messages for m in flatten(value)]
    return [str(messages)]
