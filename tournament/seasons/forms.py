"""The organisers' form for a new season: a name, a points table, finished competitions."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

DEFAULT_POINTS = "10, 8, 6, 5, 4, 3, 2, 1"


class SeasonForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    points = forms.CharField(
        label=gettext_lazy("Points by final rank"),
        max_length=600,
        initial=DEFAULT_POINTS,
        help_text=gettext_lazy("For 1st, 2nd, 3rd... separated by commas; lower ranks get 0."),
    )
    competitions = forms.MultipleChoiceField(
        label=gettext_lazy("Finished competitions"),
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["competitions"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = choices

    def clean_points(self) -> list[str]:
        """The table as typed, split (each number is checked by the API's own serializer)."""
        parts = [p for p in re.split(r"[,;\s]+", self.cleaned_data["points"]) if p]
        if not parts:
            raise forms.ValidationError(_("Give at least one number of points."))
        return parts

    def api_body(self) -> dict[str, Any]:
        """The API's create body (``SeasonInputSerializer`` checks it as it checks the API's)."""
        items = []
        for value in self.cleaned_data["competitions"]:
            kind, _sep, pk = value.partition(":")
            items.append({"kind": kind, "id": pk})
        return {
            "name": self.cleaned_data["name"],
            "points": self.cleaned_data["points"],
            "competitions": items,
        }
