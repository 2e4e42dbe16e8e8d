"""The scorekeeper's stage sheet (web page): one row per driver, a time or a turn log.

The form checks only the shape of each box; the rules (RM-53) are checked once, by the service,
and its field errors are put back on the boxes they name — no second copy of the rules.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.digits import is_digits, parse_digits
from tournament.competitions.forms import apply_row_errors
from tournament.fields import FormIntegerField

ROW_FIELDS = ("status", "time", "log", "penalties")


class DriverRowForm(forms.Form):
    driver = FormIntegerField(widget=forms.HiddenInput)
    status = forms.ChoiceField(
        label=_("status"), choices=[("finished", _("finished")), ("retired", _("retired"))]
    )
    time = forms.CharField(
        label=_("time (m:ss or seconds)"), required=False, max_length=20, strip=True
    )
    log = forms.CharField(label=_("turn log"), required=False, max_length=400, strip=True)
    penalties = forms.CharField(
        label=_("penalties (one per line: seconds reason)"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 1}),
    )


DriverRowFormSet = forms.formset_factory(DriverRowForm, extra=0)


def initial_rows(
    stored: list[dict[str, Any]], drivers: list[tuple[int, str]], out: set[int]
) -> Any:
    """The current sheet for each driver still in the rally, or a blank row, in entry order."""
    current = {row["driver"]: row for row in stored}
    rows = []
    for pk, _name in drivers:
        if pk in out and pk not in current:
            continue
        row = current.get(pk)
        if row is None:
            rows.append({"driver": pk, "status": "finished"})
            continue
        rows.append(
            {
                "driver": pk,
                "status": row["status"],
                "time": "" if row.get("time") is None else _mss(row["time"]),
                "log": row.get("log") or "",
                "penalties": "\n".join(
                    f"{p['seconds']} {p['reason']}" for p in row.get("penalties") or []
                ),
            }
        )
    return rows


def _mss(seconds: int) -> str:
    minutes, secs = divmod(seconds, 60)
    return f"{minutes}:{secs:02d}"


def sheet_rows(formset: Any) -> list[dict[str, Any]]:
    """The API's rows (RM-52) from a valid formset: blank boxes are left out."""
    rows = []
    for form in formset.forms:
        data = form.cleaned_data
        row: dict[str, Any] = {"driver": data["driver"], "status": data["status"]}
        time = data.get("time") or ""
        if time:
            # Whole seconds typed in the digits 0-9 are an integer; anything else (m:ss, or "٤٢",
            # which str.isdigit() and int() would take) goes to parse_time, which refuses it.
            row["time"] = parse_digits(time) if is_digits(time) else time
        if data.get("log"):
            row["log"] = data["log"]
        penalties = []
        for line in (data.get("penalties") or "").splitlines():
            if not line.strip():
                continue
            seconds, _space, reason = line.strip().partition(" ")
            penalties.append(
                {
                    "seconds": parse_digits(seconds) if is_digits(seconds) else seconds,
                    "reason": reason,
                }
            )
        if penalties:
            row["penalties"] = penalties
        rows.append(row)
    return rows


def apply_errors(formset: Any, detail: Any) -> None:
    """Put the service's ``{"results": [{field: [msg]}] | [msg], …}`` errors on the forms."""
    apply_row_errors(formset, detail, ROW_FIELDS)
