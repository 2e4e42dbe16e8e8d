"""The engine's hand-written record constructors agree with their dataclass fields."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from games.formula_d.model import Event, MoveRecord
from games.formula_d.options import MoveOption

# These frozen dataclasses write their instance dict in their own __init__ (speed): a field
# added, renamed, reordered or given a new default without the same change there must fail here.
FAST = [Event, MoveRecord, MoveOption]


@pytest.mark.parametrize("cls", FAST, ids=lambda c: c.__name__)
def test_init_matches_the_fields(cls: type) -> None:
    fields = dataclasses.fields(cls)
    params = list(inspect.signature(cls).parameters.values())
    assert [p.name for p in params] == [f.name for f in fields]
    for p, f in zip(params, fields, strict=True):
        expected = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        assert p.default == expected, f.name
        assert p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD


@pytest.mark.parametrize("cls", FAST, ids=lambda c: c.__name__)
def test_instances_are_frozen_values(cls: type) -> None:
    fields = dataclasses.fields(cls)
    required = [f for f in fields if f.default is dataclasses.MISSING]
    values = {f.name: (i + 1,) for i, f in enumerate(required)}  # hashable stand-ins
    a, b = cls(**values), cls(**values)
    assert a == b and hash(a) == hash(b)
    for f in fields:
        assert getattr(a, f.name) == values.get(f.name, f.default)
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(a, fields[0].name, 0)
    changed = dataclasses.replace(a, **{fields[-1].name: (99,)})
    assert getattr(changed, fields[-1].name) == (99,) and changed != a
    assert repr(a).startswith(cls.__name__ + "(")
