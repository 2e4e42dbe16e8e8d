"""The words of a Grand Tour's rules on the set-up page: group, one-line help and unit of every
``[param]`` of grand_tour.md and flamme_rouge_stage.md (one namespace), and the named presets.

The parameters themselves (names, types, defaults) come from the rules dataclasses; this module
only says them in people's words, with the rule each one comes from.
"""

from __future__ import annotations

import dataclasses

from django.utils.translation import gettext_lazy as _

from games.flamme_rouge.rules import StageRules
from scoring.grand_tour.rules import GrandTourRules
from tournament.web.setup.rules import Param, Preset, RuleSet

SECONDS = _("seconds")
POINTS = _("points")
TP = _("Tour Points")
SQUARES = _("squares")

GROUPS = (
    ("field", _("Teams and dummy riders")),
    ("timing", _("Stage times and the Timing tile")),
    ("tokens", _("Sprint and mountain tokens")),
    ("points", _("Tour Points, jerseys and start order")),
    ("race", _("Racing rules")),
    ("finish", _("The finish")),
    ("robots", _("Automatic riders (simulated stages)")),
)

PARAMS = {
    "max_teams": Param(
        "field", _("Most player teams a tour takes (GT-1.1); dummy teams do not count."), _("teams")
    ),
    "dummy_teams": Param(
        "field",
        _("Dummy teams raced in simulated stages (GT-1.5, FR-56 to FR-60); never stored."),
        choices={
            "none": _("none"),
            "peloton": _("Peloton team"),
            "muscle": _("Muscle team"),
            "both": _("Peloton and Muscle teams"),
        },
    ),
    "dummy_empty_value": Param(
        "field", _("What a dummy plays each round once its deck is empty (FR-58)."), SQUARES
    ),
    "dummies_take_exhaustion": Param("field", _("Dummy riders take Exhaustion cards too (FR-59).")),
    "timing_tile": Param(
        "timing",
        _("Check typed seconds against the Timing tile (GT-2.4); off: any seconds are accepted."),
    ),
    "timing_flat": Param(
        "timing",
        _(
            "Seconds for squares 1, 2, … past the line on a flat finish, strictly decreasing, "
            "below 60 (GT-2.4)."
        ),
        SECONDS,
    ),
    "timing_ascent": Param(
        "timing",
        _("Seconds for squares 1, 2, … past the line on an ascent finish (GT-2.4)."),
        SECONDS,
    ),
    "major_tokens": Param(
        "tokens", _("Token values of a Major stack, highest first (GT-3.1, FR-53)."), POINTS
    ),
    "minor_tokens": Param(
        "tokens", _("Token values of a Minor stack, highest first (GT-3.1, FR-53)."), POINTS
    ),
    "slipstream_reaches_stacks": Param(
        "tokens", _("A rider who reaches a stack by slipstream takes a token (FR-54).")
    ),
    "dummies_take_tokens": Param("tokens", _("Dummy riders take tokens too (FR-55).")),
    "podium_tp": Param(
        "points", _("Tour Points for the first three riders of each stage (GT-4.1)."), TP
    ),
    "rest_day_tp": Param(
        "points",
        _("Tour Points on each Rest Day for each classification a team's rider leads (GT-8.1)."),
        TP,
    ),
    "jersey_needs_points": Param(
        "points",
        _("The Sprint and Mountain jerseys and bonuses need more than zero points (GT-6.3)."),
    ),
    "tp_order_from_stage": Param(
        "points",
        _(
            "From this stage on, the team with fewest Tour Points places first; before it the "
            "start order is drawn (GT-10)."
        ),
        _("stage"),
    ),
    "classification_tp": Param(
        "points",
        _(
            "End-of-tour bonus Tour Points by classification, one list per tour length band "
            "(GT-9.1)."
        ),
        TP,
        parts={
            "bands": _("last stage of each band"),
            "general": _("general, band"),
            "sprint": _("sprint, band"),
            "mountain": _("mountain, band"),
            "team": _("team, band"),
        },
    ),
    "exhaustion_supply": Param(
        "race",
        _("Exhaustion cards in the supply per rider type: a number, or unlimited (FR-3)."),
        _("cards"),
    ),
    "ascent_cap": Param(
        "race", _("Most squares a rider moves on or into a climb (FR-32)."), SQUARES
    ),
    "breakaway_variant": Param(
        "race", _("Breakaway squares keep a special rule; off: they behave as flat (FR-34).")
    ),
    "slipstream_past_line": Param(
        "race", _("Slipstream still works past the finish line (FR-37).")
    ),
    "specialist_effects": Param(
        "race",
        _("Which Specialist card symbols take effect (FR-64)."),
        choices={"recovery_only": _("Recovery only"), "none": _("none")},
    ),
    "strong_descents_value": Param(
        "race", _("The value of a Strong Descents card (FR-64; sources say 3 or 7)."), SQUARES
    ),
    "tour_mode": Param(
        "finish",
        _("Tour mode: the Wide Finish tile and Timing tile replace the last tile (FR-13, FR-15)."),
    ),
    "wide_finish_flat": Param(
        "finish",
        _(
            "Squares of the flat Wide Finish before and past the line; past = number of flat "
            "timing values (FR-13)."
        ),
        SQUARES,
        parts={"before": _("before the line"), "past": _("past the line")},
    ),
    "wide_finish_ascent": Param(
        "finish",
        _("Squares of the ascent Wide Finish before and past the line (FR-13)."),
        SQUARES,
        parts={"before": _("before the line"), "past": _("past the line")},
    ),
    "wide_finish_lanes": Param("finish", _("Lanes of the Wide Finish tile (FR-13)."), _("lanes")),
    "max_rounds": Param(
        "robots",
        _("A simulated stage stops with an error after this many rounds (FR-45)."),
        _("rounds"),
    ),
    "policy_sprint_cards": Param(
        "robots",
        _("An automatic rider sprints when the line is within his best this many cards (FR-68)."),
        _("cards"),
    ),
    "policy_weights": Param(
        "robots",
        _(
            "Weights of an automatic rider's card choice: move, slipstream, token, exposed, card "
            "value (FR-68)."
        ),
    ),
    "policy_expected_move": Param(
        "robots", _("How far an automatic rider expects the others to move (FR-68)."), SQUARES
    ),
    "policy_hold_nines": Param(
        "robots", _("An automatic Sprinteur keeps his 9s for the sprint (FR-68).")
    ),
    "policy_first_placed": Param(
        "robots",
        _("Which rider an automatic team places first at the start (FR-69)."),
        choices={"sprinteur": _("Sprinteur"), "rouleur": _("Rouleur")},
    ),
}

PRESETS = (
    Preset(
        "defaults",
        _("Rules' defaults"),
        _("every rule as the rules files give it"),
        reset=True,
    ),
    Preset(
        "short",
        _("Short tour"),
        _("up to 7 stages: the start order follows Tour Points from stage 3 (GT-10)"),
        {"tp_order_from_stage": 3},
    ),
    Preset(
        "long",
        _("Long tour"),
        _("15 to 21 stages: the start order is drawn until stage 8, then follows Tour Points"),
        {"tp_order_from_stage": 8},
    ),
    Preset(
        "timing-on",
        _("Timing tile on"),
        _("typed seconds must be values of the Timing tile (GT-2.4)"),
        {"timing_tile": True},
    ),
    Preset(
        "timing-off",
        _("Timing tile off"),
        _("any seconds are accepted, as when a club times stages its own way (GT-11.3)"),
        {"timing_tile": False},
    ),
)


#: Each parameter's name on the page (the rules files' names are for the API).
LABELS = {
    "max_teams": _("Most teams"),
    "dummy_teams": _("Dummy teams"),
    "dummy_empty_value": _("Empty dummy deck plays"),
    "dummies_take_exhaustion": _("Dummies take Exhaustion"),
    "timing_tile": _("Timing tile"),
    "timing_flat": _("Timing, flat finish"),
    "timing_ascent": _("Timing, ascent finish"),
    "major_tokens": _("Major stack tokens"),
    "minor_tokens": _("Minor stack tokens"),
    "slipstream_reaches_stacks": _("Slipstream reaches stacks"),
    "dummies_take_tokens": _("Dummies take tokens"),
    "podium_tp": _("Stage podium"),
    "rest_day_tp": _("Rest Day leaders"),
    "jersey_needs_points": _("Jerseys need points"),
    "tp_order_from_stage": _("Start order by Tour Points from stage"),
    "classification_tp": _("Classification bonus"),
    "exhaustion_supply": _("Exhaustion supply"),
    "ascent_cap": _("Ascent limit"),
    "breakaway_variant": _("Breakaway squares"),
    "slipstream_past_line": _("Slipstream past the line"),
    "specialist_effects": _("Specialist effects"),
    "strong_descents_value": _("Strong Descents value"),
    "tour_mode": _("Tour mode"),
    "wide_finish_flat": _("Wide Finish, flat"),
    "wide_finish_ascent": _("Wide Finish, ascent"),
    "wide_finish_lanes": _("Wide Finish lanes"),
    "max_rounds": _("Most rounds"),
    "policy_sprint_cards": _("Sprint within cards"),
    "policy_weights": _("Card choice weights"),
    "policy_expected_move": _("Expected move of others"),
    "policy_hold_nines": _("Keep the 9s"),
    "policy_first_placed": _("Placed first"),
}
PARAMS = {name: dataclasses.replace(words, label=LABELS[name]) for name, words in PARAMS.items()}
TOUR_RULES = RuleSet((GrandTourRules, StageRules), PARAMS, GROUPS, PRESETS)
