"""The typed readers of settings from the environment (tournament/env.py) fail fast."""

from __future__ import annotations

import pytest

from tournament.env import env_bool, env_int, env_list


@pytest.mark.parametrize(("raw", "value"), [("12", 12), (" 7 ", 7), ("-3", -3), ("", 5)])
def test_env_int_reads_ascii_whole_numbers(
    monkeypatch: pytest.MonkeyPatch, raw: str, value: int
) -> None:
    monkeypatch.setenv("PODIUM_TEST_INT", raw)
    assert env_int("PODIUM_TEST_INT", 5) == value


def test_env_int_default_when_unset(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PODIUM_TEST_INT", raising=False)
    assert env_int("PODIUM_TEST_INT", 9) == 9


@pytest.mark.parametrize("raw", ["٣", "1_000", "+4", "3.5", "ten"])
def test_env_int_refuses_anything_else(monkeypatch: pytest.MonkeyPatch, raw: str) -> None:
    # int() took "٣" (3) and "1_000" (1000); a setting is written in the digits 0-9 or refused.
    monkeypatch.setenv("PODIUM_TEST_INT", raw)
    with pytest.raises(ValueError, match="PODIUM_TEST_INT must be a whole number"):
        env_int("PODIUM_TEST_INT", 5)


def test_env_bool_and_list(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PODIUM_TEST_BOOL", "Yes")
    assert env_bool("PODIUM_TEST_BOOL") is True
    monkeypatch.setenv("PODIUM_TEST_BOOL", "maybe")
    with pytest.raises(ValueError):
        env_bool("PODIUM_TEST_BOOL")
    monkeypatch.setenv("PODIUM_TEST_LIST", " a, ,b ")
    assert env_list("PODIUM_TEST_LIST") == ["a", "b"]
