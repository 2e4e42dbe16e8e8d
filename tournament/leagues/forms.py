"""The race results form (admin and scorekeeper page): one row per driver entered.

It checks only each box's type; the finishing-order rules are checked once, by the service, and
its field errors are put back on the boxes they name.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.competitions.forms import submit_rows
from tournament.competitions.kinds import get_kind
from tournament.fields import FormIntegerField
from tournament.leagues.models import League, Race

ROW_FIELDS = ("position", "status", "bonus")
BOUND = 100_000  # far above any real value; the service gives the real ranges


class DriverRowForm(forms.Form):
    driver = FormIntegerField(widget=forms.HiddenInput)
    position = FormIntegerField(label=_("position"), min_value=-BOUND, max_value=BOUND)
    status = forms.ChoiceField(
        label=_("status"), choices=[("finished", _("finished")), ("dnf", _("dnf"))]
    )
    bonus = FormIntegerField(label=_("bonus"), required=False, min_value=-BOUND, max_value=BOUND)


class NoBonusRowForm(DriverRowForm):
    """A league without bonus points has no bonus box."""

    bonus = None  # type: ignore[assignment]


def formset_class(league: League) -> Any:
    form = DriverRowForm if league.bonus_points else NoBonusRowForm
    return forms.formset_factory(form, extra=0)


def initial_rows(race: Race) -> list[dict[str, Any]]:
    """The current results, or a blank row per entered driver in entry order."""
    if race.results:
        return [dict(row) for row in race.results]
    return [
        {"driver": pk, "position": index, "status": "finished"}
        for index, pk in enumerate(race.drivers, start=1)
    ]


def submit_formset(formset: Any, *, race: Race, user: Any, version: int | None) -> Race | None:
    """Submit valid rows through the service; put its errors on the formset. None on error."""
    if not formset.is_valid():
        return None
    rows = []
    for data in (form.cleaned_data for form in formset.forms):
        row = {key: data[key] for key in ("driver", "position", "status")}
        if data.get("bonus") is not None:  # an empty box is no bonus, as an API client sends
            row["bonus"] = data["bonus"]
        rows.append(row)
    stored = submit_rows(
        formset,
        kind=get_kind("league"),
        event=race,
        rows=rows,
        user=user,
        version=version,
        row_fields=ROW_FIELDS,
    )
    return stored  # type: ignore[return-value]
