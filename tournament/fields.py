"""Integer fields that read a number sent as text in ASCII digits only (issue #13 item 9).

DRF's ``serializers.IntegerField`` and Django's ``forms.IntegerField`` end in ``int()``, which
takes any Unicode decimal digit: ``{"seed": "٣"}`` or a form's ``"٣"`` was read as 3. These
subclasses refuse such text with the field's usual ``invalid`` error and change nothing else
(JSON numbers, ``"12"``, ``"12.0"``, bounds and messages are as before). The rule itself is
``scoring.digits``; use these classes wherever an API body or a form takes a whole number.
"""

from __future__ import annotations

from typing import Any, TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.db.models import Model
from rest_framework import serializers

from scoring.digits import is_digits

M = TypeVar("M", bound=Model)


def _ascii_text(text: str, decimal_tail: Any) -> bool:
    """True when ``text`` (spaces around it, a ``.0`` tail as the base fields allow) is digits."""
    body = decimal_tail.sub("", text.strip())
    return is_digits(body[1:] if body.startswith("-") else body)


class IntegerField(serializers.IntegerField):
    """``serializers.IntegerField`` whose text input must be written in the digits 0-9."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and not _ascii_text(data, self.re_decimal):
            self.fail("invalid")
        return super().to_internal_value(data)


class CharField(serializers.CharField):
    """``serializers.CharField`` that takes JSON strings only: DRF's turns ``0`` or ``1.5`` into
    ``"0"``/``"1.5"``, which the schema ("type": "string") says is invalid (issue #13 item 11)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


class BooleanField(serializers.BooleanField):
    """``serializers.BooleanField`` that takes JSON ``true``/``false`` only: DRF's also reads
    ``0``, ``1``, ``"yes"`` or ``"off"``, which the schema ("type": "boolean") says is invalid."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class SlugRelatedField(serializers.SlugRelatedField[M]):
    """``serializers.SlugRelatedField`` that takes a JSON string only (DRF's looks up ``0`` as
    the slug ``"0"``)."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class SlugField(CharField, serializers.SlugField):
    """``serializers.SlugField`` that takes JSON strings only (see :class:`CharField`)."""


class FormIntegerField(forms.IntegerField):
    """``forms.IntegerField`` whose typed value must be written in the digits 0-9."""

    def to_python(self, value: Any) -> int | None:
        if (
            isinstance(value, str)
            and value.strip() not in self.empty_values
            and not _ascii_text(value, self.re_decimal)
        ):
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


__all__ = [
    "BooleanField",
    "CharField",
    "FormIntegerField",
    "IntegerField",
    "SlugField",
    "SlugRelatedField",
]
