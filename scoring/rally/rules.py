"""Rule parameters of a rally (``rules/rallyman.md``): every ``[param]`` except RM-47 to RM-50.

Build them from a rally's ``rules`` JSON with ``scoring.params.build_rules(RallyRules, data)``.
They live in scoring, which both the rally scoring and the engine (``games.rallyman``, which may
import scoring but not the other way round) read.
The championship settings (points, power stage, drop worst) live in
``scoring.rally.championship.ChampionshipSettings``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.params import ParamError, as_int, build_rules, param, rules_to_json

GEARS = (1, 2, 3, 4, 5, 6)
DANGER_LEVELS = ("none", "yellow", "orange", "red")
LOC_OUTCOMES = ("sisu", "spin", "crash")
CRASH_TOKENS = ("gear", "brake", "coast", "green_flag")
SHORTCUT_TOKENS = ("ok", "coast", "mud")


def _object(
    value: Any, keys: tuple[str, ...], what: str, *, required: bool = True
) -> dict[str, Any]:
    """A JSON object whose keys are exactly ``keys`` (all of them when ``required``)."""
    if not isinstance(value, dict):
        raise ParamError(f"Expected an object for {what}.", "not_object")
    unknown = sorted(k for k in value if k not in keys)
    if unknown:
        raise ParamError("Unknown keys: " + ", ".join(unknown) + ".", "unknown_keys", keys=unknown)
    missing = [k for k in keys if k not in value]
    if required and missing:
        raise ParamError("Missing keys: " + ", ".join(missing) + ".", "missing_keys", keys=missing)
    return value


def _gear_keys() -> tuple[str, ...]:
    return tuple(str(g) for g in GEARS)


@dataclass(frozen=True)
class HazardFaces:
    """RM-1: hazard faces out of six per die kind; ``gear`` is indexed by gear - 1."""

    gear: tuple[int, ...] = (1, 1, 2, 2, 2, 2)
    coast: int = 1
    leader_coast: int = 2
    brake: int = 2
    boost: int = 1

    def to_json(self) -> dict[str, Any]:
        """JSON form of RM-1."""
        return {
            "gear": {str(g): self.gear[g - 1] for g in GEARS},
            "coast": self.coast,
            "leader_coast": self.leader_coast,
            "brake": self.brake,
            "boost": self.boost,
        }

    @classmethod
    def from_json(cls, value: Any) -> HazardFaces:
        """Parse the JSON form; every key is required, every count in 0..6."""
        data = _object(value, ("gear", "coast", "leader_coast", "brake", "boost"), "hazard_faces")
        gears = _object(data["gear"], _gear_keys(), "hazard_faces.gear")
        faces = {k: as_int(v, minimum=0, maximum=6) for k, v in gears.items()}
        return cls(
            gear=tuple(faces[str(g)] for g in GEARS),
            coast=as_int(data["coast"], minimum=0, maximum=6),
            leader_coast=as_int(data["leader_coast"], minimum=0, maximum=6),
            brake=as_int(data["brake"], minimum=0, maximum=6),
            boost=as_int(data["boost"], minimum=0, maximum=6),
        )


@dataclass(frozen=True)
class Allowance:
    """RM-3: dice per turn of an undamaged car."""

    gear: int = 6
    coast: int = 2
    brake: int = 1

    def to_json(self) -> dict[str, Any]:
        """JSON form of RM-3."""
        return {"gear": self.gear, "coast": self.coast, "brake": self.brake}

    @classmethod
    def from_json(cls, value: Any) -> Allowance:
        """Parse ``{"gear": 6, "coast": 2, "brake": 1}``; gear dice 1..6 (one die per value)."""
        data = _object(value, ("gear", "coast", "brake"), "allowance")
        return cls(
            gear=as_int(data["gear"], minimum=1, maximum=6),
            coast=as_int(data["coast"], minimum=0, maximum=10),
            brake=as_int(data["brake"], minimum=0, maximum=10),
        )


@dataclass(frozen=True)
class Weights:
    """Simulation weights of a draw (RM-19, RM-37, RM-39): names in a fixed order, integers."""

    names: tuple[str, ...]
    values: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{name: weight}``."""
        return dict(zip(self.names, self.values, strict=True))

    def total(self) -> int:
        """Sum of the weights (always positive once parsed)."""
        return sum(self.values)

    @classmethod
    def parse(cls, value: Any, names: tuple[str, ...], what: str) -> Weights:
        """Every name present, non-negative integers, at least one positive."""
        data = _object(value, names, what)
        values = tuple(as_int(data[n], minimum=0) for n in names)
        if sum(values) <= 0:
            raise ParamError("At least one weight must be positive.", "weights_all_zero")
        return cls(names, values)


def _weights(names: tuple[str, ...], *values: int) -> Weights:
    return Weights(names, values)


_DEFAULT_LOC_MIX = _weights(LOC_OUTCOMES, 25, 25, 50)


@dataclass(frozen=True)
class LocWeights:
    """RM-37: the outcome mix of a LoC card, one default mix and optional per-gear mixes."""

    default: Weights = _DEFAULT_LOC_MIX
    per_gear: tuple[tuple[int, Weights], ...] = ()

    def for_gear(self, gear: int) -> Weights:
        """The mix used for a LoC in ``gear`` (gears without their own mix use the default)."""
        for g, mix in self.per_gear:
            if g == gear:
                return mix
        return self.default

    def to_json(self) -> dict[str, Any]:
        """JSON form: the default mix's keys, plus ``{"<gear>": mix}`` per overridden gear."""
        out: dict[str, Any] = self.default.to_json()
        for gear, mix in self.per_gear:
            out[str(gear)] = mix.to_json()
        return out

    @classmethod
    def from_json(cls, value: Any) -> LocWeights:
        """A mix, a per-gear map, or both in one object (gear keys override the mix)."""
        data = _object(value, LOC_OUTCOMES + _gear_keys(), "loc_outcome_weights", required=False)
        mix_keys = [k for k in LOC_OUTCOMES if k in data]
        default = cls().default
        if mix_keys:
            default = Weights.parse(
                {k: data[k] for k in LOC_OUTCOMES if k in data}, LOC_OUTCOMES, "the default mix"
            )
        per_gear = tuple(
            (g, Weights.parse(data[str(g)], LOC_OUTCOMES, f"gear {g}"))
            for g in GEARS
            if str(g) in data
        )
        if not mix_keys and not per_gear:
            raise ParamError("Give a mix or at least one gear.", "empty_weights")
        return cls(default, per_gear)


def _crash_tokens(value: Any) -> Weights:
    return Weights.parse(value, CRASH_TOKENS, "crash_token_weights")


def _shortcut_draw(value: Any) -> Weights:
    return Weights.parse(value, SHORTCUT_TOKENS, "shortcut_draw")


def _time_cards(value: Any) -> tuple[int, ...]:
    data = _object(value, _gear_keys(), "time_card_s")
    return tuple(as_int(data[str(g)], minimum=1, maximum=3600) for g in GEARS)


def _crash_draws(value: Any) -> tuple[tuple[int, ...], ...]:
    data = _object(value, _gear_keys(), "crash_draws")
    rows: list[tuple[int, ...]] = []
    for g in GEARS:
        row = data[str(g)]
        if not isinstance(row, list) or len(row) != len(DANGER_LEVELS):
            raise ParamError(
                f"Gear {g} needs one count per danger level ({len(DANGER_LEVELS)}).",
                "crash_draws_columns",
                gear=g,
                count=len(DANGER_LEVELS),
            )
        rows.append(tuple(as_int(v, minimum=0, maximum=20) for v in row))
    return tuple(rows)


_FACES = HazardFaces()
_ALLOWANCE = Allowance()
_LOC_WEIGHTS = LocWeights()
_CRASH_TOKENS = _weights(CRASH_TOKENS, 1, 1, 1, 2)
_SHORTCUT_DRAW = _weights(SHORTCUT_TOKENS, 2, 1, 1)


@dataclass(frozen=True)
class RallyRules:
    """Every ``[param]`` of rallyman.md that belongs in a rally's ``rules`` object."""

    hazard_faces: HazardFaces = field(default=_FACES, metadata={"check": HazardFaces.from_json})
    boost_enabled: bool = False
    allowance: Allowance = field(default=_ALLOWANCE, metadata={"check": Allowance.from_json})
    first_stage_order: str = param("entry", choices=("entry", "random"))
    later_stage_order: str = param("standings", choices=("standings", "entry", "random"))
    first_die_may_repeat_gear: bool = False
    hazard_limit: int = param(3, check=lambda v: as_int(v, minimum=1, maximum=20))
    big_attack_loc_policy: str = param("planned", choices=("planned", "free"))
    tokens_on_big_attack_loc: bool = True
    token_seconds: int = param(1, check=lambda v: as_int(v, minimum=0, maximum=60))
    tokens_carry_over: bool = False
    time_card_s: tuple[int, ...] = param((50, 40, 30, 20, 15, 10), check=_time_cards)
    loc_card_s: int = param(60, check=lambda v: as_int(v, minimum=1, maximum=3600))
    loc_outcome_weights: LocWeights = field(
        default=_LOC_WEIGHTS, metadata={"check": LocWeights.from_json}
    )
    crash_draws: tuple[tuple[int, ...], ...] = param(
        ((0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 1, 2), (0, 1, 2, 3), (0, 2, 3, 4)),
        check=_crash_draws,
    )
    crash_token_weights: Weights = field(default=_CRASH_TOKENS, metadata={"check": _crash_tokens})
    shortcut_draw: Weights = field(default=_SHORTCUT_DRAW, metadata={"check": _shortcut_draw})
    repair_between_stages: bool = True
    max_turns_per_stage: int = param(60, check=lambda v: as_int(v, minimum=1, maximum=1000))
    super_rally: bool = True
    super_rally_penalty_s: int = param(300, check=lambda v: as_int(v, minimum=0, maximum=86400))
    super_rally_base: str = param("slowest", choices=("slowest", "fastest"))

    def card_seconds(self, gear: int) -> int:
        """RM-34: the card of ``gear`` (1..6); gear 0 is the LoC side (RM-33 ruling)."""
        return self.loc_card_s if gear == 0 else self.time_card_s[gear - 1]

    def cross_check(self) -> Iterator[tuple[str, ParamError]]:
        """RM-34: the LoC side must cost more than any gear card."""
        worst = max(self.time_card_s)
        if self.loc_card_s <= worst:
            yield (
                "loc_card_s",
                ParamError(
                    f"The LoC card must be worth more than every gear card ({worst} s).",
                    "loc_card_too_low",
                    limit=worst,
                ),
            )

    def to_json(self) -> dict[str, Any]:
        """Every effective value in the JSON form of rallyman.md (the rally detail's ``rules``)."""
        out = rules_to_json(self)
        out["time_card_s"] = {str(g): self.time_card_s[g - 1] for g in GEARS}
        out["crash_draws"] = {str(g): list(self.crash_draws[g - 1]) for g in GEARS}
        return out


def parse_rules(data: Mapping[str, Any] | None) -> tuple[RallyRules, dict[str, list[ParamError]]]:
    """``build_rules(RallyRules, data)``: the rules and ``{name: [errors]}`` (empty when valid)."""
    return build_rules(RallyRules, data)
