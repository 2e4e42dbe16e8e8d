"""The shared set-up page parts (tournament/web/setup/): errors onto boxes, flat values, rules
as typed boxes and back. Pure functions: no database."""

from __future__ import annotations

import dataclasses

import pytest

from games.flamme_rouge.rules import StageRules
from scoring.grand_tour.rules import GrandTourRules
from tournament.tours.setup_rules import PARAMS, TOUR_RULES
from tournament.web.setup.boxes import (
    ErrorMap,
    flatten,
    indices,
    numbers_or_text,
    renumber,
    whole_or_text,
)
from tournament.web.setup.rules import Param, RuleSet


def test_errors_land_on_the_box_their_path_names_and_the_rest_goes_up():
    detail = {
        "name": ["This field may not be blank."],
        "stages": [{}, {"course": ["Unknown tile Z."], "finish": ["Flat, not ascent."]}],
        "teams": {0: {"riders": [{"specialist": ["Unknown Specialist."]}]}},
        "rest_days_after": ["A Rest Day sits between two stages."],
        "rules": {"podium_tp": ["Expected a list of integers."]},
        "non_field_errors": ["Something about the whole request."],
    }
    errors = ErrorMap(detail, aliases={"rest_days_after": "stages"})
    assert errors.take("stages-1-course") == ["Unknown tile Z."]
    assert errors.take("teams-0-riders-0-specialist") == ["Unknown Specialist."]
    assert errors.take("rules-podium_tp") == ["Expected a list of integers."]
    assert errors.take("stages-1-course") == []  # taken once
    # A row gathers what no box of it took, naming the place; the section its own messages.
    assert errors.take_under("stages-1") == ["finish: Flat, not ascent."]
    assert errors.take_under("stages") == ["A Rest Day sits between two stages."]
    assert errors.rest() == [
        "name: This field may not be blank.",
        "Something about the whole request.",
    ]
    assert not errors


def test_flat_values_spell_the_request_and_read_back():
    request = {
        "stages": [{"name": "A", "stacks": [{"square": 43}]}, {"name": "B", "stacks": []}],
        "rules": {"podium_tp": [3, 2, 1], "timing_tile": False, "wide": {"past": 6}},
    }
    values = flatten(request, "")
    assert values["stages-0-stacks-0-square"] == "43"
    assert values["rules-podium_tp"] == "3, 2, 1" and values["rules-timing_tile"] == ""
    assert values["rules-wide-past"] == "6" and values["stages-1-stacks"] == ""
    assert indices(values, "stages") == [0, 1]
    moved = renumber(values, "stages", [1])
    assert moved["stages-0-name"] == "B" and "stages-1-name" not in moved


@pytest.mark.parametrize(
    ("text", "read"),
    [("3, 2, 1", [3, 2, 1]), ("3 2;1", [3, 2, 1]), ("", []), ("3, x", "3, x"), ("1.5", "1.5")],
)
def test_number_lists_are_read_or_passed_on_as_typed(text, read):
    assert numbers_or_text(text) == read


def test_whole_numbers_are_read_or_passed_on_as_typed():
    assert whole_or_text(" 42 ") == 42 and whole_or_text("") is None
    assert whole_or_text("4.2") == "4.2" and whole_or_text("-3") == -3


def test_every_tour_rule_is_on_the_page_with_words_and_its_default():
    names = {f.name for cls in (GrandTourRules, StageRules) for f in dataclasses.fields(cls)}
    assert set(TOUR_RULES.fields) == names == set(PARAMS)
    assert all(str(p.help) for p in PARAMS.values())
    # The defaults, read back from their own boxes, change nothing.
    values = TOUR_RULES.values() | {"rules-shown": "1"}
    assert TOUR_RULES.payload(values) == {}
    # Typed values come back typed: lists, numbers, switches, objects and tables.
    values |= {
        "rules-podium_tp": "5 3 1",
        "rules-timing_tile": "",
        "rules-wide_finish_flat-past": "5",
        "rules-classification_tp-team-0": "2",
        "rules-exhaustion_supply": "12",
    }
    changed = TOUR_RULES.payload(values)
    assert changed["podium_tp"] == [5, 3, 1] and changed["timing_tile"] is False
    assert changed["wide_finish_flat"] == {"before": 1, "past": 5}
    assert changed["classification_tp"]["team"][0] == [2] and changed["exhaustion_supply"] == 12


def test_an_edit_sends_what_differs_from_the_stored_rules():
    stored = {**TOUR_RULES.defaults, "podium_tp": [9, 1]}
    values = TOUR_RULES.values(stored) | {"rules-shown": "1"}
    assert TOUR_RULES.payload(values, stored) == {}
    values["rules-podium_tp"] = "3, 2, 1"  # back to the default: still a change to send
    assert TOUR_RULES.payload(values, stored) == {"podium_tp": [3, 2, 1]}


def test_presets_set_their_boxes_and_the_defaults_preset_resets_them_all():
    short = TOUR_RULES.preset("short")
    assert short is not None
    values = TOUR_RULES.apply({"rules-podium_tp": "9", "rules-shown": "1"}, short)
    assert values["rules-tp_order_from_stage"] == "3" and values["rules-podium_tp"] == "9"
    reset = TOUR_RULES.preset("defaults")
    assert reset is not None
    assert TOUR_RULES.apply(values, reset)["rules-podium_tp"] == "3, 2, 1"
    off = TOUR_RULES.preset("timing-off")
    assert off is not None and TOUR_RULES.apply(values, off)["rules-timing_tile"] == ""


def test_a_parameter_without_words_is_refused_when_the_page_is_built():
    words = {k: v for k, v in PARAMS.items() if k != "podium_tp"}
    with pytest.raises(LookupError, match="podium_tp"):
        RuleSet((GrandTourRules,), words, [("points", "x"), ("field", "y"), ("timing", "z")])
    with pytest.raises(LookupError, match="unknown rule groups"):
        RuleSet((GrandTourRules,), {**PARAMS, "podium_tp": Param("nowhere", "h")}, [])


def test_rule_boxes_are_grouped_typed_and_carry_their_errors():
    errors = ErrorMap({"rules": {"podium_tp": ["Bad."], "wide_finish_flat": ["Mismatch."]}})
    sections = TOUR_RULES.sections(TOUR_RULES.values(), errors)
    boxes = {b.name: b for s in sections for b in s["boxes"]}
    assert boxes["rules-podium_tp"].errors == ["Bad."] and boxes["rules-podium_tp"].kind == "list"
    assert boxes["rules-wide_finish_flat-before"].errors == ["Mismatch."]
    assert boxes["rules-timing_tile"].kind == "check" and boxes["rules-timing_tile"].checked
    assert boxes["rules-dummy_teams"].kind == "select"
    assert boxes["rules-max_teams"].unit and boxes["rules-max_teams"].default == "6"
    assert not errors


def test_a_rows_optional_keys_are_sent_only_when_filled_and_typed():
    from tournament.web.setup.rows_page import numbered, optional_parts, stored_text

    values = {"races-0-laps": " 2 ", "races-0-drivers": "Ana, , Eva", "races-0-date": ""}
    parts = optional_parts(values, "races-0", "laps", "drivers", "date")
    assert parts == {"laps": 2, "drivers": ["Ana", "Eva"]}  # no date: the API's default
    assert optional_parts({"races-1-laps": "x"}, "races-1", "laps") == {"laps": "x"}  # as typed
    assert [stored_text(v) for v in (None, ["Ana", "Eva"], 3, "Red")] == [
        "",
        "Ana, Eva",
        "3",
        "Red",
    ]
    assert numbered(0) == {"index": 0, "number": 1}
    assert numbered("__i__") == {"index": "__i__", "number": "__n__"}
