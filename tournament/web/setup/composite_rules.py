"""Rule sets whose parameters include values with a JSON form of their own (Formula D, Rallyman).

:class:`~tournament.web.setup.rules.RuleSet` derives its boxes from the rules dataclasses' fields.
Some parameters are written in the rules files in a JSON form that is not their dataclass's
fields: RM-1's ``hazard_faces`` (``{"gear": {"1": 1, …}, "coast": 1, …}``), RM-38's
``crash_draws`` (a list per gear), RM-37's mixes with optional per-gear rows, FD-62/FD-63's
tables. For those the game lists the boxes itself (:class:`Leaf`: a path inside the JSON form,
a label, optional or not) and this rule set reads them back into that JSON form; every other
parameter is the plain ``RuleSet``'s. The API's check (``scoring``) judges the values as usual.
"""

from __future__ import annotations

import json
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from django.utils.functional import Promise

from tournament.web.setup.boxes import Box, ErrorMap, flatten, numbers_or_text, whole_or_text
from tournament.web.setup.rules import (
    PREFIX,
    Field,
    Param,
    Preset,
    RuleSet,
    _field_kind,
    _json_default,
    _make,
)

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Leaf:
    """One box of a composite parameter: where its value sits in the parameter's JSON form.

    ``kind`` ``whole`` (a number) or ``list`` (numbers ``1, 2, 3``). An ``optional`` box left
    empty is left out of the JSON (a gear without a mix of its own); any other empty box keeps
    the default.
    """

    path: Path
    label: str | Promise
    kind: str = "whole"
    optional: bool = False


@dataclass(frozen=True)
class Composite:
    """A composite parameter's boxes, and how the page lays them out (``columns`` per row)."""

    leaves: tuple[Leaf, ...]
    columns: int = 1
    row_labels: tuple[str | Promise, ...] = ()
    column_labels: tuple[str | Promise, ...] = ()


@dataclass
class ParamBoxes:
    """One parameter as the page draws it: its words and its boxes (several for a composite)."""

    name: str
    label: str | Promise
    help: str | Promise
    unit: str | Promise
    boxes: list[Box] = field(default_factory=list)
    composite: Composite | None = None

    @property
    def errors(self) -> list[str]:
        return [e for b in self.boxes for e in b.errors]

    @property
    def grid(self) -> list[tuple[str | Promise, list[Box]]]:
        """A tabled composite's rows: (row label, its boxes), ``columns`` boxes a row."""
        shape = self.composite
        if shape is None or not shape.row_labels:
            return []
        n = shape.columns
        return [
            (label, self.boxes[i * n : (i + 1) * n]) for i, label in enumerate(shape.row_labels)
        ]


def _at(value: Any, path: Path) -> Any:
    for step in path:
        if isinstance(value, Mapping):
            value = value.get(str(step))
        elif isinstance(value, list | tuple) and isinstance(step, int) and step < len(value):
            value = value[step]
        else:
            return None
    return value


def _put(target: dict[str, Any], path: Path, value: Any) -> None:
    for step in path[:-1]:
        target = target.setdefault(str(step), {})
    target[str(path[-1])] = value


def _lists(value: Any) -> Any:
    """Objects whose keys are 0, 1, … (built from integer path steps) as lists."""
    if not isinstance(value, dict):
        return value
    items = {k: _lists(v) for k, v in value.items()}
    if (
        items
        and all(k.isdigit() for k in items)
        and sorted(map(int, items)) == list(range(len(items)))
    ):
        return [items[str(i)] for i in range(len(items))]
    return items


class CompositeRuleSet(RuleSet):
    """A :class:`RuleSet` with ``composites``: parameter name → its boxes (:class:`Composite`).

    ``list_steps`` names the composites whose integer path steps are list indices
    (``crash_draws``'s columns), so their JSON keeps lists.
    """

    def __init__(
        self,
        classes: Sequence[type],
        params: Mapping[str, Param],
        groups: Sequence[tuple[str, str | Promise]],
        composites: Mapping[str, Composite],
        presets: Sequence[Preset] = (),
    ) -> None:
        self.composites = dict(composites)
        self.defaults = {}
        found: dict[str, Field] = {}
        for cls in classes:
            made = cls()
            # A rules class with a JSON form of its own (RallyRules.to_json) is read in it.
            to_json = getattr(made, "to_json", None)
            defaults = json.loads(json.dumps(to_json())) if to_json else _json_default(made)
            hints = typing.get_type_hints(cls)
            for f in fields(cls):
                if f.name in found:
                    continue
                self.defaults[f.name] = defaults[f.name]
                if f.name in self.composites:
                    found[f.name] = Field(f.name, "composite", defaults[f.name])
                    continue
                kind, parts = _field_kind(hints[f.name], f.metadata, defaults[f.name])
                choices = tuple(f.metadata.get("choices", ()))
                found[f.name] = Field(f.name, kind, defaults[f.name], choices, parts)
        missing = sorted(set(found) - set(params))
        if missing:
            raise LookupError(f"rule parameters without help: {', '.join(missing)}")
        self.fields, self.params = found, params
        self.groups, self.presets = tuple(groups), tuple(presets)

    def read(self, values: Mapping[str, str]) -> dict[str, Any]:
        plain = {k: f for k, f in self.fields.items() if f.kind != "composite"}
        out: dict[str, Any] = {}
        for name, f in self.fields.items():
            if f.kind == "composite":
                out[name] = self._read_composite(name, f.default, values)
        saved, self.fields = self.fields, plain
        try:
            return {**super().read(values), **out}
        finally:
            self.fields = saved

    def _read_composite(self, name: str, default: Any, values: Mapping[str, str]) -> Any:
        leaves = self.composites[name].leaves
        if not any(leaf_name(name, leaf) in values for leaf in leaves):
            return default  # a request without these boxes at all (not a page's post)
        built: dict[str, Any] = {}
        for leaf in leaves:
            text = values.get(leaf_name(name, leaf))
            typed: Any
            if leaf.kind == "list":
                typed = numbers_or_text(text) if (text or "").strip() else None
            else:
                typed = whole_or_text(text)
            if typed is None:
                if leaf.optional:
                    continue
                typed = _at(default, leaf.path)
            _put(built, leaf.path, typed)
        return _lists(built)

    def param_sections(self, values: Mapping[str, str], errors: ErrorMap) -> list[dict[str, Any]]:
        """Per group: ``{"slug", "title", "params": [ParamBoxes], "changed"}``, game order."""
        out = []
        for slug, title in self.groups:
            params = [
                self._param(name, f, values, errors)
                for name, f in self.fields.items()
                if self.params[name].group == slug
            ]
            changed = any(b.changed for p in params for b in p.boxes)
            out.append({"slug": slug, "title": title, "params": params, "changed": changed})
        return out

    def _param(
        self, name: str, f: Field, values: Mapping[str, str], errors: ErrorMap
    ) -> ParamBoxes:
        words = self.params[name]
        label = words.label or name.replace("_", " ")
        shown = ParamBoxes(name, label, words.help, words.unit)
        if f.kind != "composite":
            shown.boxes = self._boxes(f, words, values, errors)
            return shown
        composite = self.composites[name]
        shown.composite = composite
        for leaf in composite.leaves:
            default = _at(f.default, leaf.path)
            made = _make(
                leaf_name(name, leaf),
                leaf.label,
                "list" if leaf.kind == "list" else "number",
                values,
                errors,
                "" if default is None else default,
                Param(group=words.group, help="", unit=""),
            )
            if leaf.optional and default is None:
                made.default = ""
            shown.boxes.append(made)
        if shown.boxes:
            shown.boxes[0].errors = errors.take_under(f"{PREFIX}-{name}") + shown.boxes[0].errors
        return shown

    def values(self, rules: Mapping[str, Any] | None = None) -> dict[str, str]:
        merged = {**self.defaults, **(rules or {})}
        out: dict[str, str] = {}
        for name, f in self.fields.items():
            if f.kind == "composite":
                for leaf in self.composites[name].leaves:
                    found = _at(merged[name], leaf.path)
                    if found is not None:
                        out |= flatten(found, leaf_name(name, leaf))
            else:
                out |= flatten(merged[name], f"{PREFIX}-{name}")
        return out


def leaf_name(name: str, leaf: Leaf) -> str:
    """The input name of a composite's box: ``rules-hazard_faces-gear-3``."""
    return "-".join([PREFIX, name, *(str(step) for step in leaf.path)])
