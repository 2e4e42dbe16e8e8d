"""A set-up form as flat values named like the API request's paths, boxes, and errors on them.

The page's inputs are named after the path of the value they hold in the API's create (or PATCH)
request, each step joined with ``-``: ``name``, ``stages-0-course``,
``teams-1-riders-0-specialist``, ``rules-podium_tp``, ``rules-wide_finish_flat-past``. So a
serializer error at ``{"stages": [{}, {"course": ["…"]}]}`` belongs to the box
``stages-1-course`` without any table of names, and the page keeps its state between posts as
those flat values (``request.POST`` itself), which is also what works without JavaScript.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.functional import Promise

#: The form's state: input name → text as typed (or as the current set-up spells it).
Values = dict[str, str]

_INT = re.compile(r"^[+-]?[0-9]+$")
_NUMBER = re.compile(r"^[+-]?([0-9]+([.][0-9]*)?|[.][0-9]+)$")
_SEPARATORS = re.compile(r"[,;\s]+")


def flatten(value: Any, prefix: str) -> Values:
    """``value`` (request JSON) as flat form values under ``prefix``.

    Objects go one step down per key; a list of objects or lists one step per index; a list of
    numbers is written ``3, 2, 1``; ``True`` is ``on`` (a ticked box), ``False``/``None`` empty.
    """
    if isinstance(value, Mapping):
        out: Values = {}
        for key, item in value.items():
            out |= flatten(item, f"{prefix}-{key}" if prefix else str(key))
        return out
    if isinstance(value, list | tuple):
        if all(_is_scalar(item) for item in value):
            return {prefix: ", ".join(_text(item) for item in value)}
        out = {}
        for index, item in enumerate(value):
            out |= flatten(item, f"{prefix}-{index}")
        return out
    return {prefix: _text(value)}


def _is_scalar(value: Any) -> bool:
    return isinstance(value, int | float | str) and not isinstance(value, bool)


def _text(value: Any) -> str:
    if value is True:
        return "on"
    if value is False or value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def indices(values: Mapping[str, str], prefix: str) -> list[int]:
    """The row numbers under ``prefix`` (``stages`` → 0, 1, 4 for ``stages-4-name``), sorted."""
    found = set()
    start = f"{prefix}-"
    for key in values:
        if key.startswith(start):
            head = key[len(start) :].split("-", 1)[0]
            if head.isdigit():
                found.add(int(head))
    return sorted(found)


def ticked(values: Mapping[str, str], name: str) -> bool:
    """A checkbox: sent (``on``) when ticked, absent when not."""
    return values.get(name, "").strip().lower() in {"on", "true", "1", "yes"}


def whole_or_text(text: str | None) -> int | str | None:
    """A typed whole number as an int; empty as None; anything else as typed, so the API's
    own check answers it (one set of checks: the page does not invent its own messages)."""
    text = (text or "").strip()
    if not text:
        return None
    return int(text) if _INT.match(text) else text


def numbers_or_text(text: str | None, *, whole: bool = True) -> list[Any] | str:
    """``3, 2, 1`` (commas, semicolons or spaces) as a list of numbers; empty as ``[]``;
    anything else as typed, for the API's check to name."""
    text = (text or "").strip()
    if not text:
        return []
    parts = [p for p in _SEPARATORS.split(text) if p]
    pattern = _INT if whole else _NUMBER
    if not all(pattern.match(p) for p in parts):
        return text
    return [int(p) if whole else float(p) for p in parts]


@dataclass
class Box:
    """One input as the templates draw it (``templates/web/setup/_box.html``).

    ``kind``: ``text``, ``number``, ``check``, ``select``, ``list`` (numbers ``3, 2, 1``),
    ``hidden``. ``default`` is shown beside the box ("default: 3, 2, 1") when it differs.
    """

    name: str
    label: str | Promise
    value: str = ""
    kind: str = "text"
    errors: list[str] = field(default_factory=list)
    help: str | Promise = ""
    unit: str | Promise = ""
    default: str = ""
    choices: Sequence[tuple[str, str | Promise]] = ()
    placeholder: str | Promise = ""
    required: bool = False
    #: The id of a ``<datalist>`` of suggestions (``list`` attribute).
    suggestions: str = ""
    #: Extra ``data-*`` attributes for the page's script (name without ``data-`` → value).
    data: dict[str, str] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"id_{self.name}"

    @property
    def checked(self) -> bool:
        return self.value.strip().lower() in {"on", "true", "1", "yes"}

    @property
    def changed(self) -> bool:
        return self.default != "" and self.value.strip() != self.default

    @property
    def described_by(self) -> str:
        ids = []
        if self.help or self.unit:
            ids.append(f"{self.id}-help")
        if self.errors:
            ids.append(f"{self.id}-err")
        return " ".join(ids)


def box(values: Mapping[str, str], errors: ErrorMap, name: str, label: Any, **kw: Any) -> Box:
    """A :class:`Box` for ``name`` with its current value and its errors (taken from ``errors``)."""
    return Box(name=name, label=label, value=values.get(name, ""), errors=errors.take(name), **kw)


class ErrorMap:
    """A serializer's errors, keyed by input name; each box takes its own, the rest go above.

    ``aliases`` move errors of a request key that has no box of its own to one that has
    (``{"rest_days_after": "stages"}``). Take the boxes' errors first, then the rows'
    (:meth:`take_under` gathers what is left below a row), then the sections', then ``rest``.
    """

    def __init__(self, detail: Any = None, aliases: Mapping[str, str] | None = None) -> None:
        self._errors: dict[str, list[str]] = {}
        self._aliases = dict(aliases or {})
        if detail is not None:
            self.add(detail)

    def __bool__(self) -> bool:
        return bool(self._errors)

    def __len__(self) -> int:
        return sum(len(v) for v in self._errors.values())

    def add(self, detail: Any, path: str = "") -> None:
        """Add DRF-shaped errors (dicts by key, lists by index, strings) found at ``path``."""
        if isinstance(detail, Mapping):
            for key, item in detail.items():
                part = str(key)
                if part in ("non_field_errors", "detail"):
                    self.add(item, path)
                    continue
                if not path and part in self._aliases:
                    part = self._aliases[part]
                self.add(item, f"{path}-{part}" if path else part)
        elif isinstance(detail, list | tuple):
            for index, item in enumerate(detail):
                if isinstance(item, Mapping | list | tuple):
                    self.add(item, f"{path}-{index}" if path else str(index))
                else:
                    self.message(path, item)
        elif detail is not None:
            self.message(path, detail)

    def message(self, name: str, text: Any) -> None:
        found = self._errors.setdefault(name, [])
        if str(text) not in found:
            found.append(str(text))

    def paths(self) -> list[str]:
        return list(self._errors)

    def take(self, name: str) -> list[str]:
        """The errors exactly at ``name`` (removed from the map)."""
        return self._errors.pop(name, [])

    def take_under(self, prefix: str) -> list[str]:
        """Errors at ``prefix`` and below it that no box took; deeper ones name their place."""
        found = self.take(prefix)
        start = f"{prefix}-"
        for name in [n for n in self._errors if n.startswith(start)]:
            where = name[len(start) :].replace("-", " › ").replace("_", " ")
            found += [f"{where}: {text}" for text in self._errors.pop(name)]
        return found

    def rest(self) -> list[str]:
        """Every error no box, row or section took (shown at the top of the form)."""
        found = []
        for name in list(self._errors):
            for text in self._errors.pop(name):
                found.append(f"{name.replace('-', ' › ')}: {text}" if name else text)
        return found


def rows_of(values: Mapping[str, str], prefix: str, minimum: int = 0) -> list[int]:
    """Row numbers to draw under ``prefix``: those present, renumbered 0..n-1 by the caller,
    with at least ``minimum`` rows."""
    found = indices(values, prefix)
    while len(found) < minimum:
        found.append((found[-1] + 1) if found else 0)
    return found


def renumber(values: Mapping[str, str], prefix: str, order: Iterable[int]) -> Values:
    """``values`` with the rows under ``prefix`` renumbered 0..n-1 in ``order`` (rows not in
    ``order`` dropped): used after a row is removed, and before the rows are read."""
    start = f"{prefix}-"
    out = {k: v for k, v in values.items() if not k.startswith(start)}
    for new, old in enumerate(order):
        old_start = f"{prefix}-{old}-"
        for key, value in values.items():
            if key.startswith(old_start):
                out[f"{prefix}-{new}-{key[len(old_start) :]}"] = value
    return out
