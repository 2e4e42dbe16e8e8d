"""The Grand Tour's rule parameters (``rules/grand_tour.md``), with their defaults."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scoring.params import ParamError, as_int_tuple, param

CLASSIFICATIONS = ("general", "sprint", "mountain", "team")


def check_timing(value: Any) -> tuple[int, ...]:
    """GT-2.4 timing values: strictly decreasing and below 60 (a minute is a Time token).

    Public: the Flamme Rouge stage rules (``games.flamme_rouge.rules``) share these parameters.
    """
    values = as_int_tuple(value, allow_empty=False)
    if any(v >= 60 for v in values):
        raise ParamError("Timing values must be below 60.", "timing_below_60")
    if any(a <= b for a, b in itertools.pairwise(values)):
        raise ParamError("Timing values must be strictly decreasing.", "timing_decreasing")
    return values


def check_tokens(value: Any) -> tuple[int, ...]:
    """Token counts of a sprint or summit stack: non-negative, at least one (shared with FR)."""
    return as_int_tuple(value, minimum=0, allow_empty=False)


@dataclass(frozen=True)
class ClassificationTP:
    """GT-9.1: end-of-tour bonus TP per classification, one column per band of tour lengths."""

    bands: tuple[int, ...] = (7, 14, 21)
    general: tuple[tuple[int, ...], ...] = ((3, 2, 1), (4, 3, 2, 1), (5, 4, 3, 2, 1))
    sprint: tuple[tuple[int, ...], ...] = ((2, 1), (3, 2, 1), (4, 3, 2, 1))
    mountain: tuple[tuple[int, ...], ...] = ((2, 1), (3, 2, 1), (4, 3, 2, 1))
    team: tuple[tuple[int, ...], ...] = ((1,), (2, 1), (3, 2, 1))

    def column(self, stage_count: int, team_count: int) -> int:
        """Index of the band for a tour of ``stage_count`` stages (GT-9.1, 2-team rule)."""
        if team_count == 2:
            return 0
        for index, last in enumerate(self.bands):
            if stage_count <= last:
                return index
        return len(self.bands) - 1

    def to_json(self) -> dict[str, Any]:
        return {
            "bands": list(self.bands),
            **{name: [list(col) for col in getattr(self, name)] for name in CLASSIFICATIONS},
        }

    @classmethod
    def from_json(cls, value: Any) -> ClassificationTP:
        if not isinstance(value, dict):
            raise ParamError(
                "Expected an object with bands and one table per classification.",
                "classification_tp_shape",
            )
        unknown = set(value) - {"bands", *CLASSIFICATIONS}
        if unknown:
            raise ParamError(
                "Unknown keys: " + ", ".join(sorted(unknown)) + ".",
                "classification_tp_keys",
                keys=sorted(unknown),
            )
        default = cls()
        bands = as_int_tuple(value.get("bands", list(default.bands)), minimum=1, allow_empty=False)
        if any(a >= b for a, b in itertools.pairwise(bands)):
            raise ParamError("bands must be strictly increasing.", "bands_increasing")
        tables: dict[str, tuple[tuple[int, ...], ...]] = {}
        for name in CLASSIFICATIONS:
            raw = value.get(name, [list(c) for c in getattr(default, name)])
            if not isinstance(raw, list) or len(raw) != len(bands):
                raise ParamError(
                    f"{name} needs one list per band ({len(bands)}).",
                    "classification_tp_columns",
                    name=name,
                    count=len(bands),
                )
            tables[name] = tuple(as_int_tuple(col) for col in raw)
        return cls(bands=bands, **tables)


@dataclass(frozen=True)
class GrandTourRules:
    """Every ``[param]`` of grand_tour.md. Timing and token values are shared with the stage."""

    max_teams: int = param(6, check=lambda v: _bounded(v, 2, 6))
    timing_flat: tuple[int, ...] = param((50, 40, 30, 20, 10, 0), check=check_timing)
    timing_ascent: tuple[int, ...] = param((40, 30, 20, 10, 0), check=check_timing)
    timing_tile: bool = True
    major_tokens: tuple[int, ...] = param((4, 3, 2), check=check_tokens)
    minor_tokens: tuple[int, ...] = param((3, 1), check=check_tokens)
    podium_tp: tuple[int, ...] = param((3, 2, 1), check=as_int_tuple)
    jersey_needs_points: bool = True
    rest_day_tp: int = param(1, check=lambda v: _bounded(v, 0, 100))
    classification_tp: ClassificationTP = field(
        default_factory=ClassificationTP, metadata={"check": ClassificationTP.from_json}
    )
    tp_order_from_stage: int = param(6, check=lambda v: _bounded(v, 1, 22))
    dummy_teams: str = param("none", choices=("none", "peloton", "muscle", "both"))

    def cross_check(self) -> Iterator[tuple[str, ParamError]]:
        """Checks across parameters (none for now: each value stands alone)."""
        return iter(())

    def dummy_team_count(self) -> int:
        return {"none": 0, "peloton": 1, "muscle": 1, "both": 2}[self.dummy_teams]


def _bounded(value: Any, low: int, high: int) -> int:
    from scoring.params import as_int

    return as_int(value, minimum=low, maximum=high)
