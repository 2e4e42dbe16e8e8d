"""The stage results form (admin and scorekeeper pages): one row per rider.

It checks only that each box holds a whole number; the rules (GT-11) are checked once, by the
service, and its field errors are put back on the boxes they name — no second copy of the rules.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.competitions.forms import ResultsForm
from tournament.fields import FormIntegerField
from tournament.tours.models import Stage

ROW_FIELDS = ("position", "minutes", "seconds", "sprint_points", "mountain_points", "exhaustion")


class RiderRowForm(forms.Form):
    rider = FormIntegerField(widget=forms.HiddenInput)
    position = FormIntegerField(label=_("position"), min_value=-100000, max_value=100000)
    minutes = FormIntegerField(label=_("minutes"), min_value=-100000, max_value=100000, initial=0)
    seconds = FormIntegerField(label=_("seconds"), min_value=-100000, max_value=100000, initial=0)
    sprint_points = FormIntegerField(
        label=_("sprint points"), required=False, initial=0, min_value=-100000, max_value=100000
    )
    mountain_points = FormIntegerField(
        label=_("mountain points"), required=False, initial=0, min_value=-100000, max_value=100000
    )
    exhaustion = FormIntegerField(
        label=_("exhaustion"), required=False, min_value=-100000, max_value=100000
    )


RiderRowFormSet = forms.formset_factory(RiderRowForm, extra=0)


def initial_rows(stage: Stage, riders: list[Any]) -> list[dict[str, Any]]:
    """The current results for each rider, or a blank row in entry order.

    A blank row's position starts empty (issue #16): pre-filled 1..n in entry order, a
    forgotten box went through as a plausible but wrong result.
    """
    current = {row["rider"]: row for row in stage.results}
    rows = []
    for rider in riders:
        row = current.get(rider.pk)
        rows.append(dict(row) if row else {"rider": rider.pk, "minutes": 0, "seconds": 0})
    # Stored rows by position; blank ones (no position yet) after them, in entry order.
    return sorted(rows, key=lambda r: (r.get("position") is None, r.get("position") or 0))


def api_row(data: dict[str, Any]) -> dict[str, Any]:
    """One rider's boxes as a row of the API's ``results`` (empty points boxes are 0)."""
    return {
        "rider": data["rider"],
        "position": data["position"],
        "minutes": data["minutes"],
        "seconds": data["seconds"],
        "sprint_points": data.get("sprint_points") or 0,
        "mountain_points": data.get("mountain_points") or 0,
        "exhaustion": data.get("exhaustion"),
    }


RESULTS = ResultsForm(kind="tour", row_fields=ROW_FIELDS, row=api_row)
