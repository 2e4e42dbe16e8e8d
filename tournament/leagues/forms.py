"""The race results form (admin and scorekeeper page): one row per driver entered.

It checks only each box's type; the finishing-order rules are checked once, by the service, and
its field errors are put back on the boxes they name.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.competitions.forms import ResultsForm
from tournament.fields import FormIntegerField
from tournament.leagues.models import League, Race

BOUND = 100_000  # far above any real value; the service gives the real ranges


class DriverRowForm(forms.Form):
    driver = FormIntegerField(widget=forms.HiddenInput)
    position = FormIntegerField(label=_("position"), min_value=-BOUND, max_value=BOUND)
    status = forms.ChoiceField(
        label=_("status"), choices=[("finished", _("finished")), ("dnf", _("dnf"))]
    )
    bonus = FormIntegerField(label=_("bonus"), required=False, min_value=-BOUND, max_value=BOUND)


class NoBonusRowForm(DriverRowForm):
    bonus = None  # type: ignore[assignment]  # a league without bonus points has no bonus box


def formset(league: League, race: Race, data: Any = None) -> Any:
    """The form of ``race``: bound to ``data``, or showing its results (a row per driver)."""
    rows = forms.formset_factory(DriverRowForm if league.bonus_points else NoBonusRowForm, extra=0)
    if data is not None:
        return rows(data)
    blank = [
        {"driver": pk, "position": n, "status": "finished"} for n, pk in enumerate(race.drivers, 1)
    ]
    return rows(initial=race.results or blank)


def api_row(data: dict[str, Any]) -> dict[str, Any]:
    """One driver's boxes as a row of the API's ``results`` (an empty bonus box: no bonus)."""
    row = {key: data[key] for key in ("driver", "position", "status")}
    return row if data.get("bonus") is None else {**row, "bonus": data["bonus"]}


RESULTS = ResultsForm(kind="league", row_fields=("position", "status", "bonus"), row=api_row)
