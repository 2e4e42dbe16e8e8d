"""The race results form (admin and scorekeeper page): one row per driver entered.

It checks only that each box holds a value of the right type; the rules (FD-79) are checked once,
by the service, and its field errors are put back on the boxes they name — no second copy.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.championships.models import Race
from tournament.competitions.forms import ResultsForm
from tournament.fields import FormIntegerField

ROW_FIELDS = ("position", "status", "laps", "elimination_order", "wp_left", "pole")
BOUND = 100_000  # far above any real value; FD-79 gives the real ranges


class DriverRowForm(forms.Form):
    driver = FormIntegerField(widget=forms.HiddenInput)
    position = FormIntegerField(label=_("position"), min_value=-BOUND, max_value=BOUND)
    status = forms.ChoiceField(
        label=_("status"),
        choices=[("finished", _("finished")), ("eliminated", _("eliminated"))],
    )
    laps = FormIntegerField(label=_("laps"), min_value=-BOUND, max_value=BOUND)
    elimination_order = FormIntegerField(
        label=_("elimination order"), required=False, min_value=-BOUND, max_value=BOUND
    )
    wp_left = FormIntegerField(
        label=_("WP left"),
        help_text=_("Wear points (WP) the car still has at the end; may stay empty."),
        required=False,
        min_value=-BOUND,
        max_value=BOUND,
    )
    pole = forms.BooleanField(label=_("pole"), required=False)


DriverRowFormSet = forms.formset_factory(DriverRowForm, extra=0)


def initial_rows(race: Race) -> list[dict[str, Any]]:
    """The current results, or a blank row per entered driver in entry order.

    Blank positions start empty (issue #16): pre-filled 1..n, a forgotten box passed silently.
    """
    if race.results:
        return [
            {k: v for k, v in row.items() if k == "driver" or k in ROW_FIELDS}
            for row in race.results
        ]
    return [{"driver": pk, "status": "finished", "laps": race.laps} for pk in race.drivers]


def api_row(data: dict[str, Any]) -> dict[str, Any]:
    """One driver's boxes as a row of the API's ``results``."""
    row: dict[str, Any] = {
        "driver": data["driver"],
        "position": data["position"],
        "status": data["status"],
        "laps": data["laps"],
    }
    # Empty optional boxes are omitted, as an API client would (FD-78).
    for key in ("elimination_order", "wp_left"):
        if data.get(key) is not None:
            row[key] = data[key]
    if data.get("pole"):
        row["pole"] = True
    return row


RESULTS = ResultsForm(kind="championship", row_fields=ROW_FIELDS, row=api_row)
