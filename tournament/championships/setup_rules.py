"""Formula D rules on the set-up pages: every parameter of ``FormulaDRules`` in groups, with a
label, a unit and one line of help from rules/formula_d.md (the rule numbers in brackets).

Types, defaults and bounds are not repeated here: the pages read them from the dataclass and
its checks (``scoring.formula_d.rules``), so the form can never drift from the API's rules.
Composite parameters (``blocking_table``, ``downshift_table``) list their boxes as paths inside
the parameter's JSON form. ``when`` names the rule set a group matters for ("advanced"): the page
folds it away under the basic rules; the values are still checked whatever the rule set.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from scoring.formula_d.rules import ZONES, FormulaDRules
from tournament.web.setup.composite_rules import Composite, CompositeRuleSet, Leaf
from tournament.web.setup.rules import Param

ZONE_LABELS = {
    "tyres": _("Tyres"),
    "brakes": _("Brakes"),
    "gearbox": _("Gearbox"),
    "body": _("Body"),
    "engine": _("Engine"),
    "handling": _("Road handling"),
}

WP = _("WP")
ROLL = _("d20 roll")
SPACES = _("spaces")
GEARS = _("gears")


def rule(key: str, label: Any, help_text: Any, unit: Any = "", **more: Any) -> dict[str, Any]:
    """One parameter's words (``choices``: its options named for people)."""
    return {"key": key, "label": label, "help": help_text, "unit": unit, **more}


def group(key: str, title: Any, rules: list[dict[str, Any]], when: str = "") -> dict[str, Any]:
    return {"key": key, "title": title, "rules": rules, "when": when}


def params_of(groups: list[dict[str, Any]]) -> dict[str, Param]:
    """The :class:`Param` of every parameter of ``groups`` (the rule set's words)."""
    return {
        r["key"]: Param(
            group=g["key"],
            help=r["help"],
            unit=r["unit"],
            label=r["label"],
            choices=r.get("choices", {}),
        )
        for g in groups
        for r in g["rules"]
    }


# FD-62: the k-th value for k blocked spaces, one list per zone; FD-63: one row per number of
# gears skipped, one optional box per zone (empty: no loss there; an empty row ends the table).
DOWNSHIFT_ROWS = 4
COMPOSITES = {
    "blocking_table": Composite(
        leaves=(
            Leaf(("brakes",), ZONE_LABELS["brakes"], kind="list"),
            Leaf(("tyres",), ZONE_LABELS["tyres"], kind="list"),
        ),
    ),
    "downshift_table": Composite(
        leaves=tuple(
            Leaf((str(skipped), zone), ZONE_LABELS[zone], optional=True)
            for skipped in range(1, DOWNSHIFT_ROWS + 1)
            for zone in ZONES
        ),
        columns=len(ZONES),
        row_labels=tuple(str(n) for n in range(1, DOWNSHIFT_ROWS + 1)),
        column_labels=tuple(ZONE_LABELS[zone] for zone in ZONES),
    ),
}

RULE_GROUPS: list[dict[str, Any]] = [
    group(
        "start",
        _("Race set-up and start"),
        [
            rule(
                "max_cars",
                _("Cars per race"),
                _("At most this many cars start a race (FD-4)."),
                _("cars"),
            ),
            rule(
                "wp_start", _("Starting WP"), _("Wear points of every car at the start (FD-5)."), WP
            ),
            rule(
                "start_stall_max",
                _("Stall on"),
                _("A start roll up to this stalls the car (FD-7)."),
                ROLL,
            ),
            rule(
                "start_great_min",
                _("Great start from"),
                _("A start roll from this up is a great start (FD-7)."),
                ROLL,
            ),
            rule(
                "start_great_spaces",
                _("Great start moves"),
                _("Spaces a great start moves at once (FD-7)."),
                SPACES,
            ),
        ],
    ),
    group(
        "movement",
        _("Gears and movement"),
        [
            rule(
                "max_upshift",
                _("Upshift at most"),
                _("Gears a car may go up in one move (FD-13)."),
                GEARS,
            ),
            rule(
                "max_downshift",
                _("Downshift at most"),
                _("Gears a car may go down in one move (FD-14)."),
                GEARS,
            ),
            rule(
                "downshift_wp_per_skipped_gear",
                _("Downshift cost"),
                _("WP per gear skipped when shifting down (FD-14)."),
                WP,
            ),
            rule(
                "max_lane_changes",
                _("Lane changes"),
                _("Lane changes allowed in one move on straights (FD-16)."),
                _("per move"),
            ),
        ],
    ),
    group(
        "corners",
        _("Corners"),
        [
            rule(
                "exit_lane_lock",
                _("Exit lane lock"),
                _("When a car may not change lane after a corner's exit (FD-21)."),
                choices={"always": _("always"), "overshoot_only": _("only after an overshoot")},
            ),
            rule(
                "overshoot_wp_per_space",
                _("Overshoot cost"),
                _("WP lost per space beyond a corner's stop (FD-22)."),
                WP,
            ),
            rule(
                "overshoot_max_missing_stops",
                _("Missing stops allowed"),
                _("Stops short a car may be and survive (FD-22)."),
                _("stops"),
            ),
            rule(
                "overshoot_stop_voids",
                _("A stop short voids"),
                _("Which stops an overshoot makes void (FD-22)."),
                choices={
                    "overshoot_only": _("the overshooting move only"),
                    "always": _("every stop in the corner"),
                },
            ),
        ],
    ),
    group(
        "wear",
        _("Braking, collisions and engine"),
        [
            rule(
                "brake_wp_per_space",
                _("Braking cost"),
                _("WP per space not moved when braking (FD-26)."),
                WP,
            ),
            rule(
                "collision_fail_max",
                _("Collision fails on"),
                _("A collision roll up to this loses WP (FD-29)."),
                ROLL,
            ),
            rule(
                "collision_wp_loss",
                _("Collision loss"),
                _("WP lost on a failed collision roll (FD-29)."),
                WP,
            ),
            rule(
                "engine_fail_max",
                _("Engine fails on"),
                _("An engine test up to this loses WP (FD-32)."),
                ROLL,
            ),
            rule(
                "engine_wp_loss",
                _("Engine loss"),
                _("WP lost on a failed engine test (FD-32)."),
                WP,
            ),
            rule(
                "pit_exit_max_gear",
                _("Pit exit gear"),
                _("Highest gear a car may leave the pits in (FD-46)."),
                _("gear"),
            ),
        ],
    ),
    group(
        "street",
        _("Street rules"),
        [
            rule(
                "street_rules",
                _("Street rules"),
                _("Nitro, checkpoint, noise and danger zones, police (FD-51); not with advanced."),
            ),
            rule("nitro_per_lap", _("Nitro per lap"), _("Nitro uses per lap (FD-52)."), _("uses")),
            rule(
                "noise_fail_min",
                _("Noise fails from"),
                _("A noise-zone roll from this up loses WP (FD-53)."),
                ROLL,
            ),
            rule("noise_wp_loss", _("Noise loss"), _("WP lost in a noise zone (FD-53)."), WP),
            rule(
                "danger_fail_max",
                _("Danger fails on"),
                _("A danger-zone roll up to this loses WP (FD-54)."),
                ROLL,
            ),
            rule("danger_wp_loss", _("Danger loss"), _("WP lost in a danger zone (FD-54)."), WP),
            rule(
                "checkpoint_wp",
                _("Checkpoint bonus"),
                _("WP gained at the end of lap 1 (FD-56)."),
                WP,
            ),
            rule(
                "police_bonus_wp",
                _("Police bonus"),
                _("WP for the fastest car past the police line (FD-57)."),
                WP,
            ),
        ],
    ),
    group(
        "zones",
        _("Advanced: wear points by zone and car builds"),
        [
            rule(
                "own_car_build",
                _("Drivers build their cars"),
                _("Each driver spreads the build total over the six zones (FD-59)."),
            ),
            rule(
                "build_total_wp",
                _("Build total"),
                _("WP a driver spreads over the zones (FD-59)."),
                WP,
            ),
            rule("wp_tyres", ZONE_LABELS["tyres"], _("Default tyre WP (FD-59)."), WP),
            rule("wp_brakes", ZONE_LABELS["brakes"], _("Default brake WP (FD-59)."), WP),
            rule("wp_gearbox", ZONE_LABELS["gearbox"], _("Default gearbox WP (FD-59)."), WP),
            rule("wp_body", ZONE_LABELS["body"], _("Default body WP (FD-59)."), WP),
            rule("wp_engine", ZONE_LABELS["engine"], _("Default engine WP (FD-59)."), WP),
            rule(
                "wp_handling", ZONE_LABELS["handling"], _("Default road handling WP (FD-59)."), WP
            ),
            rule(
                "build_max_tyres",
                _("Build: tyres at most"),
                _("Most tyre WP a build may give (FD-59)."),
                WP,
            ),
            rule(
                "build_max_zone",
                _("Build: other zones at most"),
                _("Most WP a build may give any other zone (FD-59)."),
                WP,
            ),
        ],
        when="advanced",
    ),
    group(
        "costs",
        _("Advanced: tests and costs"),
        [
            rule(
                "collision_fail_max_rain",
                _("Collision fails on (rain)"),
                _("Collision roll that fails in the wet (FD-60)."),
                ROLL,
            ),
            rule(
                "engine_fail_max_rain",
                _("Engine fails on (rain)"),
                _("Engine test that fails in the wet (FD-60)."),
                ROLL,
            ),
            rule(
                "debris_fail_max",
                _("Debris fails on"),
                _("A debris roll up to this loses handling WP (FD-64)."),
                ROLL,
            ),
            rule(
                "debris_fail_max_rain",
                _("Debris fails on (rain)"),
                _("Debris roll that fails in the wet (FD-64)."),
                ROLL,
            ),
            rule(
                "slipstream_corner_brake_wp",
                _("Slipstream into a corner"),
                _("Brake WP lost entering a corner by slipstream (FD-60)."),
                WP,
            ),
            rule(
                "blocking_table",
                _("Blocking"),
                _("WP lost for 1, 2, 3… blocked spaces; beyond the list the car is out (FD-62)."),
                WP,
            ),
            rule(
                "downshift_table",
                _("Downshift costs"),
                _("WP lost per zone by gears skipped; an empty row ends the table (FD-63)."),
                WP,
            ),
            rule(
                "pit_quick_max",
                _("Quick pit stop on"),
                _("A pit roll up to this is a quick stop (FD-68)."),
                ROLL,
            ),
            rule(
                "pit_reservoir",
                _("Pit reservoir"),
                _("Each car may restore WP once from a reservoir (FD-69)."),
            ),
            rule(
                "pit_reservoir_wp",
                _("Reservoir size"),
                _("WP in the pit reservoir for the race (FD-69)."),
                WP,
            ),
        ],
        when="advanced",
    ),
    group(
        "slipstream",
        _("Advanced: slipstream, tyres and weather"),
        [
            rule(
                "slipstream",
                _("Slipstream"),
                _("A follower may take extra spaces behind a leader (FD-65)."),
            ),
            rule(
                "slipstream_min_gear",
                _("Slipstream from gear"),
                _("Both cars must be in this gear or higher (FD-65)."),
                _("gear"),
            ),
            rule(
                "slipstream_spaces",
                _("Slipstream spaces"),
                _("Extra spaces a slipstream gives (FD-65)."),
                SPACES,
            ),
            rule(
                "tyres",
                _("Tyre choice"),
                _("Hard, soft or rain tyres chosen after the weather (FD-66)."),
            ),
            rule(
                "tyre_table",
                _("Tyre table"),
                _("The tyre effects used (FD-66)."),
                choices={"rulebook": _("the rulebook's")},
            ),
            rule("weather", _("Weather"), _("Roll the circuit's weather chart (FD-67).")),
        ],
        when="advanced",
    ),
]

#: Championship scoring (§14): drawn beside the points table, not among the race rules.
SCORING = "scoring"
SCORING_RULES: list[dict[str, Any]] = [
    rule(
        "drop_worst",
        _("Drop worst results"),
        _("Each driver's lowest race totals discarded (FD-74)."),
        _("races"),
    ),
    rule(
        "points_finishers_only",
        _("Only finishers score"),
        _("Eliminated cars score nothing (FD-71)."),
    ),
    rule(
        "pole_bonus",
        _("Pole bonus"),
        _("Points for the driver starting from pole (FD-72)."),
        _("points"),
    ),
]


_ALL_GROUPS = [*RULE_GROUPS, group(SCORING, _("Championship scoring"), SCORING_RULES)]

#: The page's rule set: every FormulaDRules parameter, worded and grouped as above.
RULES = CompositeRuleSet(
    [FormulaDRules],
    params_of(_ALL_GROUPS),
    [(g["key"], g["title"]) for g in _ALL_GROUPS],
    COMPOSITES,
)
#: The groups that matter under the advanced rule set only (folded away under basic).
ADVANCED_GROUPS = frozenset(g["key"] for g in RULE_GROUPS if g["when"] == "advanced")
