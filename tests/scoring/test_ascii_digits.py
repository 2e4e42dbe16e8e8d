"""Numbers typed as text are ASCII digits only (issue #13 item 9).

``int()`` and ``\\d`` take any Unicode decimal digit: ``"1 ٣"`` (an Arabic-Indic 3) was a turn log
worth 80 s and ``"٤:٢١"`` a 261-second time. Each case here was accepted before the fix.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.digits import is_digits, parse_digits
from scoring.rally.notation import LogError, log_issues, log_time, parse_log
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import TimeFormatError, check_stage_sheet, parse_time

RULES = RallyRules()
# Arabic-Indic, Extended Arabic-Indic, Devanagari, fullwidth, Bengali digits; superscript two.
FOREIGN = ["٣", "۳", "३", "３", "৩", "²"]


@pytest.mark.parametrize("text", ["0", "7", "007", "1234567890"])
def test_ascii_digits_are_read(text: str) -> None:
    assert is_digits(text)
    assert parse_digits(text) == int(text)


@pytest.mark.parametrize(
    "text", [*FOREIGN, "1٣", "", " 3", "3 ", "+3", "-3", "1_0", "3.0", "٤٢", "\u0663"]
)
def test_anything_else_is_refused(text: str) -> None:
    assert not is_digits(text)
    with pytest.raises(ValueError):
        parse_digits(text)


def test_a_sign_only_when_asked() -> None:
    assert parse_digits("-12", signed=True) == -12
    for text in ("-", "--1", "-٣", "+1"):
        with pytest.raises(ValueError):
            parse_digits(text, signed=True)


@given(st.text(alphabet=st.characters(categories=["Nd"]), min_size=1, max_size=6))
def test_only_the_ten_ascii_digits_pass(text: str) -> None:
    # Every Unicode decimal digit string that int() accepts: only the ASCII ones are numbers here.
    assert is_digits(text) == all("0" <= c <= "9" for c in text)


@pytest.mark.parametrize("digit", FOREIGN)
def test_a_turn_log_with_a_foreign_digit_is_refused(digit: str) -> None:
    for log in (f"1 {digit}", f"{digit}s 2", f"1 2 t{digit}"):
        problems = log_issues(log)
        assert [p.code for p in problems] == ["log_unknown_item"], log
        assert problems[0].params["item"] in log.split()
        with pytest.raises(LogError):
            parse_log(log)
        with pytest.raises(LogError):
            log_time(log, RULES)


def test_the_ascii_log_still_reads() -> None:
    assert log_time("1 3", RULES).net_time == RULES.card_seconds(1) + RULES.card_seconds(3)


@pytest.mark.parametrize("text", ["٤:٢١", "4:٢١", "٤:21", "４:２１", "4:2١", "۴:۲۱"])
def test_an_m_ss_time_with_foreign_digits_is_refused(text: str) -> None:
    with pytest.raises(TimeFormatError) as caught:
        parse_time(text)
    assert caught.value.code == "bad_time_format"


def test_the_ascii_time_still_reads() -> None:
    assert parse_time("4:21") == 261
    assert parse_time(" 4:21 ") == 261


def test_a_sheet_refuses_foreign_digits_in_time_and_log() -> None:
    sheet = check_stage_sheet(
        [{"driver": 7, "time": "٤:٢١"}, {"driver": 8, "log": "1 ٣"}],
        entry_list=[7, 8],
        rules=RULES,
    )
    assert not sheet.ok
    assert [(i.index, i.field, i.code) for i in sheet.issues] == [
        (0, "time", "bad_time_format"),
        (1, "log", "log_unknown_item"),
    ]
