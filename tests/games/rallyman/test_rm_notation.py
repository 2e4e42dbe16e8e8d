"""The RM-55 turn-log notation: valid and invalid logs, the RM-56 examples, properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.params import build_rules
from scoring.rally.notation import LogError, LogTurn, TurnLog, log_issues, log_time, parse_log
from scoring.rally.rules import RallyRules

RULES = RallyRules()
# The RM-55 pattern with possessive quantifiers (same language, no catastrophic backtracking).
RM55 = re.compile(r"^\s*+(?:0|[1-6]s?)(?:\s++(?:0|[1-6]s?))*+(?:\s++t\d++)?+\s*+$", re.IGNORECASE)


@pytest.mark.parametrize(
    ("log", "turns", "cards", "tokens", "net"),
    [
        ("1 2 3 4 5 5 4 3 4 5 6 t4", 11, 265, 4, 261),
        ("1 2 4 0 2 3 4 5 4 t2", 9, 295, 2, 293),
        ("1 3 5s 2 3 4 4 5 t1", 8, 220, 1, 219),
    ],
)
def test_rm56_examples(log: str, turns: int, cards: int, tokens: int, net: int) -> None:
    counted = log_time(log, RULES)
    assert (counted.turns, counted.cards, counted.tokens, counted.net_time) == (
        turns,
        cards,
        tokens,
        net,
    )


def test_case_whitespace_and_optional_tokens() -> None:
    assert parse_log("  1\t2  5S\nT3 ") == TurnLog(
        (LogTurn(1), LogTurn(2), LogTurn(5, sisu=True)), 3
    )
    assert parse_log("1 2").tokens == 0
    assert parse_log("1 5s 0").format() == "1 5s 0"


def test_sisu_counts_its_gear_card_and_zero_the_loc_card() -> None:
    assert log_time("5s", RULES).cards == 15
    assert log_time("0", RULES).cards == 60


def test_token_seconds_and_card_table_parameters() -> None:
    rules, errors = build_rules(
        RallyRules,
        {"token_seconds": 2, "time_card_s": {"1": 45, "2": 35, "3": 25, "4": 18, "5": 12, "6": 8}},
    )
    assert not errors
    assert log_time("1 6 6 t3", rules).net_time == 45 + 8 + 8 - 6


@pytest.mark.parametrize(
    ("log", "codes"),
    [
        ("", ["log_empty"]),
        ("   ", ["log_empty"]),
        ("t4", ["log_no_turns"]),
        ("1 2 7", ["log_gear_out_of_range"]),
        ("1 0s", ["log_gear_out_of_range"]),
        ("1 12", ["log_gear_out_of_range"]),
        ("1 x 3", ["log_unknown_item"]),
        ("1 t", ["log_unknown_item"]),
        ("1 -2", ["log_unknown_item"]),
        ("1 t2 3", ["log_tokens_not_last"]),
        ("1 2 t2 t3", ["log_tokens_repeated"]),
        ("9 y t1 2", ["log_gear_out_of_range", "log_unknown_item", "log_tokens_not_last"]),
    ],
)
def test_invalid_logs_list_every_problem(log: str, codes: list[str]) -> None:
    assert [e.code for e in log_issues(log)] == codes
    with pytest.raises(LogError) as err:
        parse_log(log)
    assert err.value.code == codes[0]


def test_errors_name_the_item_and_its_position() -> None:
    (error,) = log_issues("1 2 q 4")
    assert error.params == {"position": 3, "item": "q"}
    assert "Item 3 (q)" in error.message


def test_non_text_log() -> None:
    assert [e.code for e in log_issues(42)] == ["log_not_text"]  # type: ignore[arg-type]


ITEM = st.sampled_from(["0", "1", "2", "3", "4", "5", "6", "1s", "2s", "3s", "4s", "5s", "6s"])


@given(
    st.lists(ITEM, min_size=1, max_size=40),
    st.one_of(st.none(), st.integers(0, 999)),
    st.sampled_from([" ", "  ", "\t"]),
    st.booleans(),
)
def test_valid_logs_round_trip_and_sum_cards(
    items: list[str], tokens: int | None, sep: str, upper: bool
) -> None:
    text = sep.join(items + ([f"t{tokens}"] if tokens is not None else []))
    if upper:
        text = text.upper()
    assert RM55.match(text)
    parsed = parse_log(text)
    assert parse_log(parsed.format()) == parsed
    cards = sum(RULES.time_card_s[int(i[0]) - 1] if i != "0" else RULES.loc_card_s for i in items)
    assert log_time(text, RULES).net_time == cards - (tokens or 0)


@given(st.text(alphabet="0123456789stTx -", max_size=30))
def test_the_parser_agrees_with_the_rm55_pattern(text: str) -> None:
    assert (not log_issues(text)) == bool(RM55.match(text))
