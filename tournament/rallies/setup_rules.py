"""Rallyman: DIRT rules on the set-up page: every parameter of ``RallyRules`` in groups, with a
label, a unit and one line of help from rules/rallyman.md (the rule numbers in brackets).

Types, defaults and bounds come from the dataclass and its checks (``scoring.rally.rules``);
composite parameters list their boxes as paths inside the parameter's JSON form (RM-1's
``hazard_faces``, RM-38's ``crash_draws`` table, RM-37's mixes with optional per-gear rows).
"""

from __future__ import annotations

from typing import Any

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from scoring.rally.rules import (
    CRASH_TOKENS,
    DANGER_LEVELS,
    GEARS,
    LOC_OUTCOMES,
    SHORTCUT_TOKENS,
    RallyRules,
)
from tournament.championships.setup_rules import group, params_of, rule
from tournament.web.setup.composite_rules import Composite, CompositeRuleSet, Leaf, Path

SECONDS = _("s")
WEIGHT = _("weight")
DICE = _("dice")

GEAR_LABELS = {str(g): format_lazy("{} {}", _("gear"), g) for g in GEARS}
OUTCOME_LABELS = {"sisu": _("SISU"), "spin": _("spin"), "crash": _("crash")}
CRASH_TOKEN_LABELS = {
    "gear": _("gear damage"),
    "brake": _("brake damage"),
    "coast": _("coast damage"),
    "green_flag": _("green flag"),
}
SHORTCUT_LABELS = {"ok": _("OK"), "coast": _("coast damage"), "mud": _("mud")}
DANGER_LABELS = {
    "none": _("no level"),
    "yellow": _("yellow"),
    "orange": _("orange"),
    "red": _("red"),
}
DIE_LABELS = {
    "coast": _("coast"),
    "leader_coast": _("leader coast"),
    "brake": _("brake"),
    "boost": _("boost"),
    "gear": _("gear"),
}


_GEAR_KEYS = [str(g) for g in GEARS]


def _leaves(pairs: list[tuple[Path, Any]], optional: bool = False) -> tuple[Leaf, ...]:
    return tuple(Leaf(path, label, optional=optional) for path, label in pairs)


DIES = ("coast", "leader_coast", "brake", "boost")
COMPOSITES = {
    "hazard_faces": Composite(
        _leaves(
            [(("gear", g), GEAR_LABELS[g]) for g in _GEAR_KEYS]
            + [((d,), DIE_LABELS[d]) for d in DIES]
        ),
        columns=len(_GEAR_KEYS),
    ),
    "allowance": Composite(
        _leaves([((d,), DIE_LABELS[d]) for d in ("gear", "coast", "brake")]), columns=3
    ),
    "time_card_s": Composite(
        _leaves([((g,), GEAR_LABELS[g]) for g in _GEAR_KEYS]), columns=len(_GEAR_KEYS)
    ),
    # RM-37: the default mix, then an optional mix per gear (an empty row: the default mix).
    "loc_outcome_weights": Composite(
        _leaves([((o,), OUTCOME_LABELS[o]) for o in LOC_OUTCOMES])
        + _leaves(
            [((g, o), OUTCOME_LABELS[o]) for g in _GEAR_KEYS for o in LOC_OUTCOMES], optional=True
        ),
        columns=len(LOC_OUTCOMES),
        row_labels=(_("every gear"), *(GEAR_LABELS[g] for g in _GEAR_KEYS)),
        column_labels=tuple(OUTCOME_LABELS[o] for o in LOC_OUTCOMES),
    ),
    # RM-38: one row per gear at the crash, one column per danger level.
    "crash_draws": Composite(
        _leaves(
            [
                ((g, i), DANGER_LABELS[level])
                for g in _GEAR_KEYS
                for i, level in enumerate(DANGER_LEVELS)
            ]
        ),
        columns=len(DANGER_LEVELS),
        row_labels=tuple(GEAR_LABELS[g] for g in _GEAR_KEYS),
        column_labels=tuple(DANGER_LABELS[level] for level in DANGER_LEVELS),
    ),
    "crash_token_weights": Composite(
        _leaves([((t,), CRASH_TOKEN_LABELS[t]) for t in CRASH_TOKENS]), columns=4
    ),
    "shortcut_draw": Composite(
        _leaves([((t,), SHORTCUT_LABELS[t]) for t in SHORTCUT_TOKENS]), columns=3
    ),
}

RULE_GROUPS: list[dict[str, Any]] = [
    group(
        "super_rally",
        _("Super Rally"),
        [
            rule(
                "super_rally",
                _("Super Rally"),
                _("A retired car gets a time for the stage and may go on (RM-46)."),
            ),
            rule(
                "super_rally_penalty_s",
                _("Super Rally penalty"),
                _("Added to the base time for a retired car (RM-46)."),
                SECONDS,
            ),
            rule(
                "super_rally_base",
                _("Super Rally base"),
                _("Whose time a retired car is given (RM-46)."),
                choices={
                    "slowest": _("the slowest finisher's"),
                    "fastest": _("the fastest finisher's (FIA)"),
                },
            ),
        ],
    ),
    group(
        "dice",
        _("Dice"),
        [
            rule(
                "hazard_faces",
                _("Hazard faces"),
                _("Faces out of six that show a hazard, per die (RM-1)."),
                _("faces"),
            ),
            rule("boost_enabled", _("Boost die"), _("Use the green boost die (RM-2, RM-14).")),
            rule(
                "allowance",
                _("Dice per turn"),
                _("Dice an undamaged car may use each turn (RM-3)."),
                DICE,
            ),
            rule(
                "first_die_may_repeat_gear",
                _("First die may repeat the gear"),
                _("Rallyman GT's variant: the first die may keep the gear (RM-11)."),
            ),
            rule(
                "hazard_limit",
                _("Hazard limit"),
                _("Hazards in one turn that cause a loss of control (RM-26)."),
                _("hazards"),
            ),
        ],
    ),
    group(
        "tokens",
        _("Big Attack and second tokens"),
        [
            rule(
                "big_attack_loc_policy",
                _("Big Attack loss of control"),
                _("Where a Big Attack loses control (RM-28)."),
                choices={
                    "planned": _("on the planned die"),
                    "free": _("wherever the driver places it"),
                },
            ),
            rule(
                "tokens_on_big_attack_loc",
                _("Tokens despite a loss of control"),
                _("A Big Attack earns tokens even when it ends in a loss of control (RM-29)."),
            ),
            rule(
                "token_seconds",
                _("Token value"),
                _("Seconds each unspent token takes off the stage time (RM-31)."),
                SECONDS,
            ),
            rule(
                "tokens_carry_over",
                _("Tokens carry over"),
                _("Unspent tokens go to the next stage instead (RM-31)."),
            ),
        ],
    ),
    group(
        "cards",
        _("Time cards"),
        [
            rule(
                "time_card_s",
                _("Card values"),
                _("Seconds on the time card of each gear (RM-34)."),
                SECONDS,
            ),
            rule(
                "loc_card_s",
                _("Loss of control card"),
                _("Seconds of a spin or crash; above every gear card (RM-34)."),
                SECONDS,
            ),
        ],
    ),
    group(
        "damage",
        _("Loss of control and damage (simulator)"),
        [
            rule(
                "loc_outcome_weights",
                _("Loss of control outcomes"),
                _("Weights of SISU, spin and crash; an empty gear row uses the first (RM-37)."),
                WEIGHT,
            ),
            rule(
                "crash_draws",
                _("Damage tokens per crash"),
                _("Tokens drawn by gear at the crash and the tile's danger level (RM-38)."),
                _("tokens"),
            ),
            rule(
                "crash_token_weights",
                _("Damage token mix"),
                _("Weights of the crash sides of the damage tokens (RM-39)."),
                WEIGHT,
            ),
            rule(
                "shortcut_draw",
                _("Shortcut token mix"),
                _("Weights of the shortcut sides of the damage tokens (RM-19)."),
                WEIGHT,
            ),
            rule(
                "repair_between_stages",
                _("Repair between stages"),
                _("Damage is repaired before the next stage (RM-40)."),
            ),
            rule(
                "max_turns_per_stage",
                _("Turn limit"),
                _("The simulator retires a car still running after this many turns (RM-41)."),
                _("turns"),
            ),
        ],
    ),
    group(
        "order",
        _("Start order (simulator)"),
        [
            rule(
                "first_stage_order",
                _("First stage order"),
                _("The start order of stage 1 (RM-6)."),
                choices={"entry": _("entry list"), "random": _("random")},
            ),
            rule(
                "later_stage_order",
                _("Later stage order"),
                _("The start order of the other stages (RM-6)."),
                choices={
                    "standings": _("rally standings, leader first"),
                    "entry": _("entry list"),
                    "random": _("random"),
                },
            ),
        ],
    ),
]


#: The page's rule set: every RallyRules parameter, worded and grouped as above.
RULES = CompositeRuleSet(
    [RallyRules],
    params_of(RULE_GROUPS),
    [(g["key"], g["title"]) for g in RULE_GROUPS],
    COMPOSITES,
)
