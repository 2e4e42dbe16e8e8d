"""Formula D rule parameters (``rules/formula_d.md``): every ``[param]`` but points and laps.

``points`` (FD-70) and ``rule_set`` are top-level championship settings and ``laps`` (FD-37) is set
per race, so they are validated by :func:`resolve_points`, :data:`RULE_SETS` and :func:`check_laps`
and never live in :class:`FormulaDRules`. Under ``rule_set = advanced`` some defaults change
(FD-58, FD-60); :func:`build_formula_d_rules` applies them for keys the club did not send.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from scoring.params import ParamError, as_int, as_int_tuple, build_rules, param
from scoring.points.presets import points_table

RULE_SETS = ("basic", "advanced")
ZONES = ("tyres", "brakes", "gearbox", "body", "engine", "handling")

# FD-70: the only table printed in the box, plus two common club scales.
POINTS_PRESETS: dict[str, tuple[int, ...]] = {
    "box-team-race": (10, 8, 6, 5, 4, 3, 2, 1),
    "f1-2010": (25, 18, 15, 12, 10, 8, 6, 4, 2, 1),
    "classic": (10, 6, 4, 3, 2, 1),
}
DEFAULT_POINTS = "box-team-race"

# FD-58 / FD-60: defaults that the advanced rule set replaces.
ADVANCED_DEFAULTS: dict[str, Any] = {"start_great_min": 20, "collision_fail_max": 1}


def _bounded(low: int, high: int) -> Any:
    def check(value: Any) -> int:
        return as_int(value, minimum=low, maximum=high)

    return check


@dataclass(frozen=True)
class BlockingTable:
    """FD-62: WP lost by a blocked car, the k-th value for k spaces it could not move."""

    brakes: tuple[int, ...] = (1, 2, 3, 3, 3, 3)
    tyres: tuple[int, ...] = (0, 0, 0, 1, 2, 3)

    def cost(self, spaces: int) -> tuple[int, int] | None:
        """(brakes, tyres) lost for ``spaces`` blocked spaces; ``None`` means eliminated."""
        if spaces <= 0:
            return (0, 0)
        if spaces > len(self.brakes):
            return None
        return (self.brakes[spaces - 1], self.tyres[spaces - 1])

    def to_json(self) -> dict[str, Any]:
        return {"brakes": list(self.brakes), "tyres": list(self.tyres)}

    @classmethod
    def from_json(cls, value: Any) -> BlockingTable:
        if not isinstance(value, dict) or set(value) != {"brakes", "tyres"}:
            raise ParamError('Expected {"brakes": [...], "tyres": [...]}.', "blocking_table_shape")
        brakes = as_int_tuple(value["brakes"], allow_empty=False)
        tyres = as_int_tuple(value["tyres"], allow_empty=False)
        if len(brakes) != len(tyres):
            raise ParamError("brakes and tyres need the same length.", "blocking_table_lengths")
        return cls(brakes=brakes, tyres=tyres)


@dataclass(frozen=True)
class DownshiftTable:
    """FD-63: WP lost per zone by gears skipped (gears dropped - 1)."""

    costs: tuple[tuple[tuple[str, int], ...], ...] = (
        (("gearbox", 1),),
        (("gearbox", 1), ("brakes", 1)),
        (("gearbox", 1), ("brakes", 1), ("engine", 1)),
    )

    def cost(self, skipped: int) -> dict[str, int] | None:
        """Zone losses for ``skipped`` gears; ``None`` when the table does not allow it."""
        if skipped <= 0:
            return {}
        if skipped > len(self.costs):
            return None
        return dict(self.costs[skipped - 1])

    def to_json(self) -> dict[str, Any]:
        return {str(i + 1): dict(entry) for i, entry in enumerate(self.costs)}

    @classmethod
    def from_json(cls, value: Any) -> DownshiftTable:
        if not isinstance(value, dict) or not value:
            raise ParamError("Expected an object keyed by gears skipped.", "downshift_table_shape")
        keys = sorted(value)
        if keys != [str(i) for i in range(1, len(keys) + 1)]:
            raise ParamError(
                'Keys must be "1", "2", ... without gaps.', "downshift_table_keys", keys=keys
            )
        costs: list[tuple[tuple[str, int], ...]] = []
        for key in keys:
            entry = value[key]
            if not isinstance(entry, dict) or not set(entry) <= set(ZONES):
                raise ParamError(
                    f"Entry {key} must map zone names to WP.", "downshift_table_zones", key=key
                )
            costs.append(
                tuple((zone, as_int(entry[zone], minimum=0)) for zone in ZONES if zone in entry)
            )
        return cls(costs=tuple(costs))


@dataclass(frozen=True)
class FormulaDRules:
    """Every ``[param]`` of formula_d.md except ``points`` (FD-70) and ``laps`` (FD-37)."""

    # §2 race setup
    max_cars: int = param(10, check=_bounded(1, 10))
    wp_start: int = param(18, check=_bounded(1, 99))
    start_stall_max: int = param(1, check=_bounded(0, 20))
    start_great_min: int = param(17, check=_bounded(1, 21))
    start_great_spaces: int = param(4, check=_bounded(1, 12))
    # §4 movement
    max_upshift: int = param(1, check=_bounded(1, 5))
    max_downshift: int = param(4, check=_bounded(1, 5))
    downshift_wp_per_skipped_gear: int = param(1, check=_bounded(0, 99))
    max_lane_changes: int = param(2, check=_bounded(0, 4))
    # §5 corners
    exit_lane_lock: str = param("always", choices=("always", "overshoot_only"))
    overshoot_wp_per_space: int = param(1, check=_bounded(0, 99))
    overshoot_max_missing_stops: int = param(1, check=_bounded(0, 3))
    overshoot_stop_voids: str = param("overshoot_only", choices=("overshoot_only", "always"))
    # §6-§8
    brake_wp_per_space: int = param(1, check=_bounded(0, 99))
    collision_fail_max: int = param(4, check=_bounded(0, 20))
    collision_wp_loss: int = param(1, check=_bounded(0, 99))
    engine_fail_max: int = param(4, check=_bounded(0, 20))
    engine_wp_loss: int = param(1, check=_bounded(0, 99))
    # §11 pit stop
    pit_exit_max_gear: int = param(4, check=_bounded(1, 6))
    # §12 street rules
    street_rules: bool = False
    nitro_per_lap: int = param(1, check=_bounded(0, 1))
    noise_fail_min: int = param(11, check=_bounded(1, 21))
    noise_wp_loss: int = param(2, check=_bounded(0, 99))
    danger_fail_max: int = param(4, check=_bounded(0, 20))
    danger_wp_loss: int = param(1, check=_bounded(0, 99))
    checkpoint_wp: int = param(10, check=_bounded(0, 99))
    police_bonus_wp: int = param(2, check=_bounded(0, 99))
    # §13 advanced rule set
    own_car_build: bool = False
    build_total_wp: int = param(20, check=_bounded(6, 99))
    wp_tyres: int = param(6, check=_bounded(1, 99))
    wp_brakes: int = param(3, check=_bounded(1, 99))
    wp_gearbox: int = param(3, check=_bounded(1, 99))
    wp_body: int = param(3, check=_bounded(1, 99))
    wp_engine: int = param(3, check=_bounded(1, 99))
    wp_handling: int = param(2, check=_bounded(1, 99))
    build_max_tyres: int = param(14, check=_bounded(1, 99))
    build_max_zone: int = param(7, check=_bounded(1, 99))
    collision_fail_max_rain: int = param(2, check=_bounded(0, 20))
    engine_fail_max_rain: int = param(3, check=_bounded(0, 20))
    debris_fail_max: int = param(4, check=_bounded(0, 20))
    debris_fail_max_rain: int = param(5, check=_bounded(0, 20))
    slipstream_corner_brake_wp: int = param(1, check=_bounded(0, 99))
    blocking_table: BlockingTable = field(
        default_factory=BlockingTable, metadata={"check": BlockingTable.from_json}
    )
    downshift_table: DownshiftTable = field(
        default_factory=DownshiftTable, metadata={"check": DownshiftTable.from_json}
    )
    slipstream: bool = True
    slipstream_min_gear: int = param(4, check=_bounded(1, 6))
    slipstream_spaces: int = param(3, check=_bounded(1, 6))
    tyres: bool = False
    tyre_table: str = param("rulebook", choices=("rulebook",))
    weather: bool = False
    pit_quick_max: int = param(10, check=_bounded(0, 20))
    pit_reservoir: bool = False
    pit_reservoir_wp: int = param(2, check=_bounded(0, 99))
    # §14 championship
    points_finishers_only: bool = True
    pole_bonus: int = param(0, check=_bounded(0, 999))
    drop_worst: int = param(0, check=_bounded(0, 99))

    def cross_check(self) -> Iterator[tuple[str, ParamError]]:
        """Checks across parameters, reported against the later parameter."""
        if self.start_great_min <= self.start_stall_max:
            yield (
                "start_great_min",
                ParamError(
                    "start_great_min must be above start_stall_max.",
                    "start_bands_overlap",
                    start_stall_max=self.start_stall_max,
                ),
            )

    def zone_defaults(self) -> dict[str, int]:
        """FD-59: the default spread of WP over the six zones."""
        return {zone: getattr(self, f"wp_{zone}") for zone in ZONES}


def build_formula_d_rules(
    data: Mapping[str, Any] | None, rule_set: str = "basic"
) -> tuple[FormulaDRules, dict[str, list[ParamError]]]:
    """Build the rules from a championship's ``rules`` object for ``rule_set``.

    Returns ``(rules, {name: [ParamError]})``. Top-level settings sent inside ``rules`` (``points``,
    ``laps``, ``rule_set``, ``seed``) are reported as errors with code ``top_level_setting``.
    """
    data = dict(data or {})
    errors: dict[str, list[ParamError]] = {}
    for key in ("points", "laps", "rule_set", "seed"):
        if key in data:
            del data[key]
            errors[key] = [
                ParamError(
                    f"{key} is a top-level setting, not a rule parameter.",
                    "top_level_setting",
                    name=key,
                )
            ]
    if rule_set not in RULE_SETS:
        errors["rule_set"] = [
            ParamError("Must be one of: basic, advanced.", "invalid_choice", choices=RULE_SETS)
        ]
    rules, param_errors = build_rules(FormulaDRules, data)
    errors.update(param_errors)
    if rule_set == "advanced":
        overrides = {k: v for k, v in ADVANCED_DEFAULTS.items() if k not in data}
        rules = dataclasses.replace(rules, **overrides)
        if rules.street_rules:
            # FD-58: street rules are not combined with the advanced set (project rule).
            errors.setdefault("street_rules", []).append(
                ParamError(
                    "Street rules cannot be combined with the advanced rule set.",
                    "street_rules_advanced",
                )
            )
        if not param_errors:
            for key, exc in rules.cross_check():
                errors.setdefault(key, []).append(exc)
    return rules, errors


def resolve_points(value: Any = None) -> tuple[int, ...]:
    """FD-70: a preset name or a non-increasing list of non-negative integers (None: default)."""
    return points_table(value, POINTS_PRESETS, DEFAULT_POINTS)


def check_laps(laps: Any, rule_set: str = "basic") -> int:
    """FD-37: 1 or 2 laps under basic, 1 to 3 under advanced."""
    return as_int(laps, minimum=1, maximum=3 if rule_set == "advanced" else 2)


def default_laps(rule_set: str = "basic") -> int:
    """FD-37 / FD-58: 1 lap under basic, 2 under advanced."""
    return 2 if rule_set == "advanced" else 1
