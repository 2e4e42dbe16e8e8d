"""API bodies and forms read whole numbers typed as text in ASCII digits only (#13 item 9)."""

from __future__ import annotations

import pytest
from django import forms
from rest_framework import serializers

from tournament.fields import FormIntegerField, IntegerField

FOREIGN = ["٣", "۳", "३", "３", "1٣", "٣.0", "-٣"]


class Body(serializers.Serializer):
    n = IntegerField(min_value=-5, max_value=100)


class Form(forms.Form):
    n = FormIntegerField(min_value=-5, max_value=100, required=False)


@pytest.mark.parametrize(("data", "value"), [(12, 12), ("12", 12), (" 12 ", 12), ("12.0", 12)])
def test_the_api_field_reads_ascii_numbers_as_before(data: object, value: int) -> None:
    body = Body(data={"n": data})
    assert body.is_valid(), body.errors
    assert body.validated_data["n"] == value
    assert serializers.IntegerField().to_internal_value(data) == value  # the same as DRF's


@pytest.mark.parametrize("text", FOREIGN)
def test_the_api_field_refuses_other_digits(text: str) -> None:
    assert serializers.IntegerField().to_internal_value(text.replace("-", "")) >= 0  # DRF took it
    body = Body(data={"n": text})
    assert not body.is_valid()
    assert body.errors["n"][0].code == "invalid"


def test_the_api_field_keeps_its_bounds_and_messages() -> None:
    body = Body(data={"n": "101"})
    assert not body.is_valid()
    assert body.errors["n"][0].code == "max_value"
    body = Body(data={"n": "-6"})
    assert not body.is_valid()
    assert body.errors["n"][0].code == "min_value"


@pytest.mark.parametrize(("text", "value"), [("7", 7), (" 7 ", 7), ("-2", -2), ("", None)])
def test_the_form_field_reads_ascii_numbers_as_before(text: str, value: int | None) -> None:
    form = Form(data={"n": text})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["n"] == value


@pytest.mark.parametrize("text", FOREIGN)
def test_the_form_field_refuses_other_digits(text: str) -> None:
    assert forms.IntegerField().clean(text.replace("-", "")) is not None  # Django took it
    form = Form(data={"n": text})
    assert not form.is_valid()
    assert form.errors.as_data()["n"][0].code == "invalid"


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


@pytest.mark.django_db
def test_an_api_id_in_other_digits_is_not_found(clients, tour):
    number = str(tour["id"])
    assert clients["anonymous"].get(f"/api/tours/{number}/").status_code == 200
    # int() read "٣" as 3: the same tour answered under an id written in other digits.
    assert (
        clients["anonymous"].get(f"/api/tours/{number.translate(ARABIC_INDIC)}/").status_code == 404
    )
