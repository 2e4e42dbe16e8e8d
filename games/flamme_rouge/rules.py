"""The Flamme Rouge stage's rule parameters (``rules/flamme_rouge_stage.md``), with their defaults.

Every ``[param: name = default]`` of the stage rules is a field of :class:`StageRules`. The timing
and token fields share names, defaults and checks with ``scoring.grand_tour.rules`` because both
files live in one JSON namespace (the tour's ``rules`` object).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scoring.grand_tour.rules import check_timing, check_tokens
from scoring.params import ParamError, as_int, param

UNLIMITED = "unlimited"
SPECIALIST_EFFECTS = ("recovery_only", "none")
POLICY_FIRST_PLACED = ("sprinteur", "rouleur")


@dataclass(frozen=True)
class WideFinish:
    """FR-13: squares of the Wide Finish tile before and past the finish line."""

    before: int
    past: int

    def to_json(self) -> dict[str, Any]:
        return {"before": self.before, "past": self.past}

    @classmethod
    def from_json(cls, value: Any) -> WideFinish:
        """Parse ``{"before": n, "past": m}``; both keys are required."""
        if not isinstance(value, dict):
            raise ParamError(
                "Expected an object with the keys before and past.", "wide_finish_shape"
            )
        unknown = sorted(set(value) - {"before", "past"})
        if unknown:
            raise ParamError(
                "Unknown keys: " + ", ".join(unknown) + ".", "wide_finish_keys", keys=unknown
            )
        missing = [key for key in ("before", "past") if key not in value]
        if missing:
            raise ParamError(
                "Missing keys: " + ", ".join(missing) + ".", "wide_finish_keys", keys=missing
            )
        # A finish needs at least one square on each side of the line (FR-14 needs L >= 1).
        before = as_int(value["before"], minimum=1, maximum=12)
        past = as_int(value["past"], minimum=1, maximum=12)
        return cls(before=before, past=past)


def _exhaustion_supply(value: Any) -> int | str:
    # FR-3: "unlimited" or a count of exhaustion cards per rider type.
    if value == UNLIMITED:
        return UNLIMITED
    if isinstance(value, str):
        raise ParamError(
            'Expected "unlimited" or a non-negative integer.', "invalid_choice", choices=[UNLIMITED]
        )
    return as_int(value, minimum=0)


def _bounded(low: int, high: int) -> Any:
    def check(value: Any) -> int:
        return as_int(value, minimum=low, maximum=high)

    return check


def _weights(value: Any) -> tuple[float, ...]:
    # FR-68 step 4: exactly five weights (move, slip, token, exposed, card value; exhaustion bonus).
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value
    ):
        raise ParamError("Expected a list of numbers.", "not_number_list")
    if len(value) != 5:
        raise ParamError("Expected exactly 5 weights.", "weights_length", count=5)
    return tuple(float(v) for v in value)


@dataclass(frozen=True)
class StageRules:
    """Every ``[param]`` of flamme_rouge_stage.md, with the rules file's defaults."""

    exhaustion_supply: int | str = param(UNLIMITED, check=_exhaustion_supply)  # FR-3
    wide_finish_flat: WideFinish = field(  # FR-13
        default=WideFinish(1, 6), metadata={"check": WideFinish.from_json}
    )
    wide_finish_ascent: WideFinish = field(
        default=WideFinish(2, 5), metadata={"check": WideFinish.from_json}
    )
    wide_finish_lanes: int = param(2, check=_bounded(1, 3))
    tour_mode: bool = True  # FR-15
    ascent_cap: int = param(5, check=_bounded(1, 12))  # FR-32
    breakaway_variant: bool = False  # FR-34
    slipstream_past_line: bool = True  # FR-37
    max_rounds: int = param(100, check=_bounded(1, 1000))  # FR-45
    timing_flat: tuple[int, ...] = param((50, 40, 30, 20, 10, 0), check=check_timing)  # FR-47
    timing_ascent: tuple[int, ...] = param((40, 30, 20, 10, 0), check=check_timing)
    major_tokens: tuple[int, ...] = param((4, 3, 2), check=check_tokens)  # FR-53
    minor_tokens: tuple[int, ...] = param((3, 1), check=check_tokens)
    slipstream_reaches_stacks: bool = True  # FR-54
    dummies_take_tokens: bool = True  # FR-55
    dummy_empty_value: int = param(2, check=_bounded(1, 12))  # FR-58
    dummies_take_exhaustion: bool = False  # FR-59
    specialist_effects: str = param("recovery_only", choices=SPECIALIST_EFFECTS)  # FR-64
    strong_descents_value: int = param(3, check=_bounded(1, 12))
    policy_sprint_cards: int = param(2, check=_bounded(0, 4))  # FR-68
    policy_weights: tuple[float, ...] = param((2.0, 1.0, 1.5, 0.3, 1.0), check=_weights)
    policy_expected_move: int = param(4, check=_bounded(0, 12))
    policy_hold_nines: bool = True
    policy_first_placed: str = param("sprinteur", choices=POLICY_FIRST_PLACED)  # FR-69

    def cross_check(self) -> Iterator[tuple[str, ParamError]]:
        """FR-13: each Wide Finish has exactly one square past the line per timing value."""
        pairs = (
            ("wide_finish_flat", self.wide_finish_flat, "timing_flat", self.timing_flat),
            ("wide_finish_ascent", self.wide_finish_ascent, "timing_ascent", self.timing_ascent),
        )
        for name, finish, timing_name, timing in pairs:
            if finish.past != len(timing):
                yield (
                    name,
                    ParamError(
                        f"{name}.past ({finish.past}) must equal the number of {timing_name} "
                        f"values ({len(timing)}).",
                        "wide_finish_timing_mismatch",
                        past=finish.past,
                        timing=timing_name,
                        count=len(timing),
                    ),
                )

    @property
    def exhaustion_limit(self) -> int | None:
        """The exhaustion supply per rider type, or None when unlimited (FR-3)."""
        return None if self.exhaustion_supply == UNLIMITED else int(self.exhaustion_supply)


__all__ = ["StageRules", "WideFinish"]
