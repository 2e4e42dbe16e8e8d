"""Rule parameters: typed dataclass fields built from a JSON mapping with field errors.

Every ``[param: name = default]`` of a rules file is a field of a frozen dataclass. A club sends
the values it wants to change as JSON; :func:`build_rules` checks each one against the field's
type (and an optional ``check`` in the field metadata) and reports every problem at once, keyed by
the parameter name, so the API can answer a 400 with one message per bad key.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from scoring.bounds import MAX_LIST_LENGTH, MAX_PARAM_VALUE, MAX_POINTS
from scoring.issues import EngineError

T = TypeVar("T")


class ParamError(EngineError):
    """A parameter value the rules cannot accept; ``code`` lets the service translate it."""

    def __init__(self, message: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(message, code, **params)


Check = Callable[[Any], Any]


def param(default: Any, check: Check | None = None, choices: Iterable[str] | None = None) -> Any:
    """Declare a rules field with its default and, optionally, a check or a set of choices.

    ``check`` receives the JSON value and returns the Python value (or raises ParamError). Fields
    without a check are converted from their annotation (int, bool, float, str, tuple[int, ...]).
    """
    meta: dict[str, Any] = {}
    if check is not None:
        meta["check"] = check
    if choices is not None:
        meta["choices"] = tuple(choices)
    if isinstance(default, (list, dict, set)):
        raise TypeError("use tuples or frozen dataclasses for defaults")
    return dataclasses.field(default=default, metadata=meta)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def as_int(value: Any, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """An integer in [minimum, maximum]; booleans and floats are rejected."""
    if not _is_int(value):
        raise ParamError("Expected an integer.", "not_int")
    if minimum is not None and value < minimum:
        raise ParamError(f"Must be at least {minimum}.", "min_value", limit=minimum)
    if maximum is not None and value > maximum:
        raise ParamError(f"Must be at most {maximum}.", "max_value", limit=maximum)
    return int(value)


def as_int_tuple(
    value: Any,
    *,
    minimum: int = 0,
    maximum: int = MAX_POINTS,
    allow_empty: bool = True,
    max_length: int = MAX_LIST_LENGTH,
) -> tuple[int, ...]:
    """A JSON list of at most ``max_length`` integers, each in [minimum, maximum].

    The upper bounds (scoring.bounds) hold for every list of the rules: points tables, timing
    tiles, token stacks; no real table comes near them.
    """
    if not isinstance(value, (list, tuple)) or not all(_is_int(v) for v in value):
        raise ParamError("Expected a list of integers.", "not_int_list")
    if not allow_empty and not value:
        raise ParamError("The list may not be empty.", "empty_list")
    if len(value) > max_length:
        raise ParamError(f"At most {max_length} values.", "too_many_values", limit=max_length)
    if any(v < minimum for v in value):
        raise ParamError(f"Every value must be at least {minimum}.", "min_value", limit=minimum)
    if any(v > maximum for v in value):
        raise ParamError(f"Every value must be at most {maximum}.", "max_value", limit=maximum)
    return tuple(int(v) for v in value)


def _bounded_float(value: Any) -> float:
    number = float(value)
    if not -MAX_PARAM_VALUE <= number <= MAX_PARAM_VALUE:  # also refuses NaN
        raise ParamError(
            f"Must be between {-MAX_PARAM_VALUE} and {MAX_PARAM_VALUE}.",
            "max_value",
            limit=MAX_PARAM_VALUE,
        )
    return number


def _convert(field: dataclasses.Field[Any], hint: Any, value: Any) -> Any:
    check = field.metadata.get("check")
    if check is not None:
        return check(value)
    choices = field.metadata.get("choices")
    if choices is not None:
        if value not in choices:
            raise ParamError(
                "Must be one of: " + ", ".join(choices) + ".", "invalid_choice", choices=choices
            )
        return value
    scalar = _SCALARS.get(hint)
    if scalar is not None:
        return scalar(value)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is tuple and args[-1] is Ellipsis and args[0] in _TUPLES:
        return _TUPLES[args[0]](value)
    raise TypeError(f"no converter for {field.name}: {hint!r}")  # a programming error


def _as_bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ParamError("Expected true or false.", "not_bool")
    return value


def _as_param_int(value: Any) -> int:
    # A parameter without a check of its own still has a bound (scoring.bounds).
    return as_int(value, minimum=-MAX_PARAM_VALUE, maximum=MAX_PARAM_VALUE)


def _as_float(value: Any) -> float:
    if not _is_number(value):
        raise ParamError("Expected a number.", "not_number")
    return _bounded_float(value)


def _as_str(value: Any) -> str:
    if not isinstance(value, str):
        raise ParamError("Expected a string.", "not_str")
    return value


def _as_float_tuple(value: Any) -> tuple[float, ...]:
    if not isinstance(value, (list, tuple)) or not all(_is_number(v) for v in value):
        raise ParamError("Expected a list of numbers.", "not_number_list")
    if len(value) > MAX_LIST_LENGTH:
        raise ParamError(
            f"At most {MAX_LIST_LENGTH} values.", "too_many_values", limit=MAX_LIST_LENGTH
        )
    return tuple(_bounded_float(v) for v in value)


# How a typed value of a rules dataclass is read from JSON, by its type hint.
_SCALARS: dict[Any, Callable[[Any], Any]] = {
    bool: _as_bool,
    int: _as_param_int,
    float: _as_float,
    str: _as_str,
}
# ... and by the element type of a ``tuple[X, ...]`` hint.
_TUPLES: dict[Any, Callable[[Any], Any]] = {int: as_int_tuple, float: _as_float_tuple}


def build_rules(
    cls: type[T], data: Mapping[str, Any] | None
) -> tuple[T, dict[str, list[ParamError]]]:
    """Build ``cls`` from defaults overridden by ``data``.

    Returns the rules and a mapping ``{name: [errors]}``; unknown keys are reported as errors too.
    When the mapping is not empty the returned rules hold the defaults for the bad keys.
    """
    data = data or {}
    hints = typing.get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    errors: dict[str, list[ParamError]] = {}
    values: dict[str, Any] = {}
    for key, raw in data.items():
        field = fields.get(key)
        if field is None:
            errors[key] = [ParamError("Unknown rule parameter.", "unknown_param")]
            continue
        try:
            values[key] = _convert(field, hints[key], raw)
        except ParamError as exc:
            errors[key] = [exc]
    rules = cls(**values)
    post = getattr(rules, "cross_check", None)
    if callable(post) and not errors:
        for key, problem in post():
            errors.setdefault(key, []).append(problem)
    return rules, errors


def rules_to_json(rules: Any) -> dict[str, Any]:
    """The JSON form of a rules dataclass: tuples become lists, nested dataclasses dicts."""
    return {f.name: _to_json(getattr(rules, f.name)) for f in dataclasses.fields(rules)}


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        to_json = getattr(value, "to_json", None)
        if callable(to_json):
            return to_json()
        return rules_to_json(value)
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def field_names(*classes: type[Any]) -> set[str]:
    """Names of the rule parameters of several rules classes (one JSON namespace)."""
    names: set[str] = set()
    for cls in classes:
        names.update(f.name for f in dataclasses.fields(cls))
    return names


__all__ = [
    "ParamError",
    "as_int",
    "as_int_tuple",
    "build_rules",
    "field_names",
    "param",
    "rules_to_json",
]
