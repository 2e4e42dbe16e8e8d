"""A game's rule parameters as typed boxes grouped by topic, and back into the ``rules`` object.

The parameter list is derived from the game's rules dataclasses (``scoring.grand_tour.rules``,
``games.flamme_rouge.rules``, …: one field per ``[param]`` of the rules files), so a new
parameter appears on the page by itself; a game supplies only the words: for each parameter its
group, a one-line help written from the rules file, and its unit (:class:`Param`). A parameter
without words is a programming error caught when the page is built (and by its tests).

Values go back to the API as typed JSON (``3, 2, 1`` → ``[3, 2, 1]``); a value the page cannot
read is sent as typed, so the API's own check names what is wrong with it.
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from scoring.params import rules_to_json
from tournament.web.setup.boxes import (
    Box,
    ErrorMap,
    Values,
    flatten,
    indices,
    numbers_or_text,
    ticked,
    whole_or_text,
)

PREFIX = "rules"
#: A hidden input of ``_rules.html``: the post carries the rule boxes (unticked ones absent).
SHOWN = "rules-shown"


@dataclass(frozen=True)
class Param:
    """The words of one parameter: its group (a key of the game's groups), help and unit.

    ``parts`` labels an object parameter's parts (``{"before": _("before the line")}``);
    ``choices`` names a choice's options for people (``{"none": _("no dummy team")}``).
    """

    group: str
    help: str | Promise
    unit: str | Promise = ""
    label: str | Promise = ""
    parts: Mapping[str, str | Promise] = dataclasses.field(default_factory=dict)
    choices: Mapping[str, str | Promise] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Preset:
    """A named set of rule values: ``changes`` over the values on the form, or over the rules'
    defaults when ``reset`` (the "rules' defaults" preset puts every box back)."""

    slug: str
    label: str | Promise
    description: str | Promise
    changes: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    reset: bool = False


@dataclass(frozen=True)
class Field:
    """One parameter, typed from its dataclass field.

    ``kind``: ``check``, ``whole``, ``choice``, ``list`` (integers), ``decimals`` (a list of
    numbers), ``word`` (a number or a word such as ``unlimited``), ``object`` (``parts``),
    ``lists`` (a list of integer lists, one box per item).
    """

    name: str
    kind: str
    default: Any  # JSON
    choices: tuple[str, ...] = ()
    parts: tuple[Field, ...] = ()


def _field_kind(hint: Any, meta: Mapping[str, Any], default: Any) -> tuple[str, tuple[Field, ...]]:
    if "choices" in meta:
        return "choice", ()
    if hint is bool:
        return "check", ()
    if hint is int:
        return "whole", ()
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and args[-1] is Ellipsis:
        inner = args[0]
        if inner is int:
            return "list", ()
        if inner is float:
            return "decimals", ()
        if typing.get_origin(inner) is tuple:
            return "lists", ()
    if dataclasses.is_dataclass(hint):
        return "object", _fields_of(hint, default)
    return "word", ()  # int | str: a number, or one of the words its check takes


def _fields_of(cls: Any, defaults: Mapping[str, Any]) -> tuple[Field, ...]:
    hints = typing.get_type_hints(cls)
    found = []
    for f in dataclasses.fields(cls):
        meta = f.metadata
        kind, parts = _field_kind(hints[f.name], meta, defaults[f.name])
        found.append(
            Field(
                name=f.name,
                kind=kind,
                default=defaults[f.name],
                choices=tuple(meta.get("choices", ())),
                parts=parts,
            )
        )
    return tuple(found)


def _json_default(instance: Any) -> dict[str, Any]:
    value = rules_to_json(instance)
    # Objects with their own JSON form (to_json) are already dicts here.
    return json.loads(json.dumps(value))


class RuleSet:
    """The rules of one game: every field of ``classes`` (a name shared by two classes, one
    namespace, appears once), grouped and worded by ``params``."""

    def __init__(
        self,
        classes: Sequence[type],
        params: Mapping[str, Param],
        groups: Sequence[tuple[str, str | Promise]],
        presets: Sequence[Preset] = (),
    ) -> None:
        self.defaults: dict[str, Any] = {}
        fields: dict[str, Field] = {}
        for cls in classes:
            defaults = _json_default(cls())
            for f in _fields_of(cls, defaults):
                fields.setdefault(f.name, f)
                self.defaults.setdefault(f.name, defaults[f.name])
        missing = sorted(set(fields) - set(params))
        if missing:
            raise LookupError(f"rule parameters without help: {', '.join(missing)}")
        unknown_groups = {p.group for p in params.values()} - {slug for slug, _t in groups}
        if unknown_groups:
            raise LookupError(f"unknown rule groups: {', '.join(sorted(unknown_groups))}")
        self.fields = fields
        self.params = params
        self.groups = tuple(groups)
        self.presets = tuple(presets)

    # --- values ------------------------------------------------------------------------------

    def values(self, rules: Mapping[str, Any] | None = None) -> Values:
        """Form values of ``rules`` (the stored effective rules), defaults for what is missing."""
        merged = {**self.defaults, **(rules or {})}
        return flatten({k: merged[k] for k in self.fields}, PREFIX)

    def preset(self, slug: str) -> Preset | None:
        return next((p for p in self.presets if p.slug == slug), None)

    def preset_values(self, preset: Preset) -> Values:
        """The boxes a preset sets: all of them for a reset, else those of its changes."""
        if preset.reset:
            return self.values(dict(preset.changes)) | {SHOWN: "1"}
        return flatten(dict(preset.changes), PREFIX)

    def apply(self, values: Mapping[str, str], preset: Preset) -> Values:
        """``values`` with the preset applied (a reset clears every rule box first)."""
        kept = dict(values)
        if preset.reset:
            kept = {k: v for k, v in values.items() if not k.startswith(f"{PREFIX}-")}
        return kept | self.preset_values(preset)

    def read(self, values: Mapping[str, str]) -> dict[str, Any]:
        """Every parameter's value as typed JSON (or as typed text, for the API to refuse).

        A box the post does not carry keeps its default; a checkbox, which a browser leaves out
        when unticked, reads as unticked only when the form drew the rules (``rules-shown``).
        """
        shown = SHOWN in values
        return {
            name: _read(f, values, f"{PREFIX}-{name}", shown) for name, f in self.fields.items()
        }

    def payload(self, values: Mapping[str, str], base: Mapping[str, Any] | None = None) -> dict:
        """The ``rules`` object of the request: the values that differ from ``base`` (the
        rules' defaults for a new competition, its stored rules for an edit)."""
        current = {**self.defaults, **(base or {})}
        return {k: v for k, v in self.read(values).items() if v != current.get(k)}

    # --- boxes -------------------------------------------------------------------------------

    def sections(self, values: Mapping[str, str], errors: ErrorMap) -> list[dict[str, Any]]:
        """``[{"slug", "title", "boxes", "changed"}]`` per group, in the game's order."""
        out = []
        for slug, title in self.groups:
            boxes: list[Box] = []
            for name, f in self.fields.items():
                if self.params[name].group == slug:
                    boxes += self._boxes(f, self.params[name], values, errors)
            out.append(
                {
                    "slug": slug,
                    "title": title,
                    "boxes": boxes,
                    "changed": any(b.changed for b in boxes),
                }
            )
        return out

    def preset_data(self) -> list[dict[str, Any]]:
        """The presets for the page: label, description, and the values the script fills in."""
        return [
            {
                "slug": p.slug,
                "label": p.label,
                "description": p.description,
                "json": json.dumps(self.preset_values(p)),
            }
            for p in self.presets
        ]

    def _boxes(self, f: Field, words: Param, values: Mapping[str, str], errors: ErrorMap) -> list:
        name = f"{PREFIX}-{f.name}"
        label = words.label or f.name.replace("_", " ")
        if f.kind == "object":
            boxes = []
            for part in f.parts:
                part_name = f"{name}-{part.name}"
                part_label = words.parts.get(part.name, part.name.replace("_", " "))
                if part.kind == "lists":
                    for i in range(len(part.default)):
                        boxes.append(
                            _make(
                                f"{part_name}-{i}",
                                f"{label} · {part_label} {i + 1}",
                                "list",
                                values,
                                errors,
                                part.default[i],
                                words,
                            )
                        )
                    # An error of the part as a whole (a wrong number of lists) on its first box.
                    if boxes:
                        boxes[-len(part.default)].errors += errors.take(part_name)
                else:
                    kind = "number" if part.kind == "whole" else "list"
                    boxes.append(
                        _make(
                            part_name,
                            f"{label} · {part_label}",
                            kind,
                            values,
                            errors,
                            part.default,
                            words,
                        )
                    )
            if boxes:
                boxes[0].errors = errors.take(name) + boxes[0].errors
            return boxes
        kind = {
            "check": "check",
            "whole": "number",
            "choice": "select",
            "list": "list",
            "decimals": "list",
            "word": "text",
        }[f.kind]
        made = _make(name, label, kind, values, errors, f.default, words)
        if f.kind == "choice":
            made.choices = [(c, words.choices.get(c, c)) for c in f.choices]
        return [made]


def _make(
    name: str,
    label: Any,
    kind: str,
    values: Mapping[str, str],
    errors: ErrorMap,
    default: Any,
    words: Param,
) -> Box:
    default_text = next(iter(flatten(default, "x").values()), "")
    value = values.get(name)
    if value is None and kind != "check":
        value = default_text
    return Box(
        name=name,
        label=label,
        value=value or "",
        kind=kind,
        errors=errors.take(name),
        help=words.help,
        unit=words.unit,
        default=default_text if kind != "check" else ("on" if default else ""),
        data={"default": default_text if kind != "check" else ("on" if default else "")},
    )


def _read(f: Field, values: Mapping[str, str], name: str, shown: bool = True) -> Any:
    kind = f.kind
    if kind == "check":
        return ticked(values, name) if shown else f.default
    if kind not in ("object", "lists") and name not in values:
        return f.default
    if kind == "whole":
        number = whole_or_text(values.get(name))
        return f.default if number is None else number
    if kind == "choice":
        return values.get(name, f.default)
    if kind in ("list", "decimals"):
        return numbers_or_text(values.get(name), whole=kind == "list")
    if kind == "word":
        typed = whole_or_text(values.get(name))
        return f.default if typed is None else typed
    if kind == "lists":
        rows = indices(values, name)
        if not rows:
            return f.default
        return [numbers_or_text(values.get(f"{name}-{i}")) for i in rows]
    # object: its parts
    return {part.name: _read(part, values, f"{name}-{part.name}", shown) for part in f.parts}


__all__ = ["Field", "Param", "Preset", "RuleSet"]
