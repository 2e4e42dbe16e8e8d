"""One engine-error base with one argument order, one Issue type (issue #12 item 4)."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest

import games
import scoring
from scoring.issues import EngineError, Issue, by_row

ROOT = Path(__file__).resolve().parents[2]
CODE = re.compile(r"[a-z][a-z0-9_]*")


def _modules() -> list[str]:
    names = []
    for package in (games, scoring):
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            names.append(info.name)
    return names


def _error_classes() -> list[type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for _attr, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, Exception) and value.__module__ == name:
                found[f"{name}.{value.__name__}"] = value
    return list(found.values())


def test_every_input_error_of_the_engines_and_the_scoring_is_an_engine_error() -> None:
    # Input errors are ValueErrors; a RuntimeError (scoring.forecast's ForecastError) marks a bug.
    classes = [c for c in _error_classes() if issubclass(c, ValueError)]
    assert len(classes) >= 10  # FlammeRouge, FormulaD, Rallyman, rally scoring, ParamError...
    assert [c.__qualname__ for c in classes if not issubclass(c, EngineError)] == []


def test_every_raise_site_gives_the_message_first() -> None:
    names = {c.__name__ for c in _error_classes() if issubclass(c, EngineError)}
    swapped = []
    for path in [*ROOT.glob("games/**/*.py"), *ROOT.glob("scoring/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name not in names or len(node.args) < 2:
                continue
            first = node.args[0]
            if isinstance(first, ast.Constant) and CODE.fullmatch(str(first.value)):
                swapped.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert swapped == []


def test_the_error_carries_message_code_and_params() -> None:
    error = EngineError("Stages are numbered from 1.", "bad_stage_number", number=0)
    assert str(error) == error.message == "Stages are numbered from 1."
    assert error.code == "bad_stage_number"
    assert error.to_json() == {
        "code": "bad_stage_number",
        "message": "Stages are numbered from 1.",
        "params": {"number": 0},
    }


def test_an_issue_is_built_with_keywords_only_and_sorts_by_row() -> None:
    with pytest.raises(TypeError):
        Issue("code", "message")  # type: ignore[misc]
    late = Issue(code="missing", message="m", params={"driver": 3})
    first = Issue(code="a", message="m", index=0, field="time")
    second = Issue(code="b", message="m", index=2)
    assert by_row([late, second, first]) == [first, second, late]
    assert first.to_json() == {
        "index": 0,
        "field": "time",
        "code": "a",
        "message": "m",
        "params": {},
    }
