"""Circuit data: Monaco as shipped (formula_d.md §15) and the validator's messages."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

from games.formula_d import CircuitError, circuit_from_json, load_circuit, shipped_circuits

RAW: dict[str, Any] = json.loads(
    resources.files("games.formula_d.circuits").joinpath("monaco.json").read_text()
)


def test_monaco_matches_the_rules_table() -> None:
    monaco = load_circuit("monaco")
    assert "monaco" in shipped_circuits()
    lanes = [sum(s.lengths[k] for s in monaco.segments) for k in range(3)]
    assert lanes == [168, 166, 163]
    corners = [s for s in monaco.segments if s.is_corner]
    assert [c.stops for c in corners] == [1, 1, 1, 1, 3, 1, 1, 2, 2, 1]
    assert [(c.longest, c.shortest) for c in corners][4] == (18, 8)
    assert sum(sum(s.lengths) for s in corners) == 197
    assert monaco.finish_line.after == (16, 17, 17)
    assert len(monaco.grid) == 10 and monaco.grid[0] == (0, 0, 15)
    assert monaco.pit is not None and monaco.pit.length == 18 and monaco.pit.boxes[0] == 2
    assert monaco.weather is not None and (
        monaco.weather.rain_max,
        monaco.weather.changeable_max,
    ) == (7, 12)


def test_unknown_circuit() -> None:
    with pytest.raises(CircuitError) as err:
        load_circuit("imola")
    assert err.value.code == "unknown_circuit"


def broken(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(RAW)
    for path, value in changes.items():
        target: Any = doc
        keys = path.split("__")
        for key in keys[:-1]:
            target = target[int(key)] if key.isdigit() else target[key]
        last = keys[-1]
        if value is ...:
            del target[int(last) if last.isdigit() else last]
        elif last.isdigit():
            target[int(last)] = value
        else:
            target[last] = value
    return doc


@pytest.mark.parametrize(
    ("doc", "path", "code"),
    [
        (broken(segments__1__stops=4), "segments[1].stops", "out_of_range"),
        (broken(segments__0__length={"L": 21, "M": 22}), "segments[0].length", "bad_length"),
        (broken(segments__2__kind="chicane"), "segments[2].kind", "bad_kind"),
        (broken(segments__1__shortest=9), "segments[1].shortest", "shortest_above_longest"),
        (broken(segments__9__inside=...), "segments[9].inside", "inside_ambiguous"),
        (broken(spaces=500), "spaces", "spaces_mismatch"),
        (
            broken(finish_line={"segment": "C1", "after": {"L": 2, "M": 2, "R": 1}}),
            "finish_line.segment",
            "line_in_corner",
        ),
        (
            broken(grid__0={"segment": "S0", "lane": "L", "space": 19}),
            "grid[0]",
            "grid_not_behind_line",
        ),
        (broken(grid__1={"segment": "S0", "lane": "L", "space": 16}), "grid", "grid_duplicate"),
        (
            broken(pit_lane__exit={"segment": "S0", "lane": "R", "space": 5}),
            "pit_lane.exit",
            "pit_exit_before_line",
        ),
        (broken(pit_lane__boxes=[3, 3]), "pit_lane.boxes", "bad_boxes"),
        (broken(weather__good=[13, 19]), "weather.good", "bad_band"),
        (broken(colour="red"), "colour", "unknown_key"),
        (broken(segments__3__id="C1"), "segments[3].id", "bad_id"),
    ],
)
def test_validator_rejects_malformed_files(doc: dict[str, Any], path: str, code: str) -> None:
    with pytest.raises(CircuitError) as err:
        circuit_from_json(doc)
    problems = err.value.params["errors"]
    assert {"path": path, "code": code} in [
        {"path": p["path"], "code": p["code"]} for p in problems
    ]
    assert err.value.code == "invalid_circuit"
    assert err.value.message.startswith("Invalid circuit: ")


def test_validator_reports_every_problem() -> None:
    doc = broken(segments__1__stops=0, spaces=1)
    with pytest.raises(CircuitError) as err:
        circuit_from_json(doc)
    assert len(err.value.params["errors"]) >= 2
    assert "more problems" in err.value.message


def test_not_an_object() -> None:
    with pytest.raises(CircuitError):
        circuit_from_json([1, 2])
