"""The stage layout format: the shipped samples, validation errors with paths, the space graph."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.rallyman.errors import RallymanError
from games.rallyman.layout import (
    SAMPLE_STAGES,
    LayoutInvalid,
    layout_issues,
    load_layout,
    parse_layout,
    sample_document,
)
from games.rallyman.track import CORNER, DRIFT, SHORTCUT, build_track


def minimal(*pieces: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": 1,
        "name": "T",
        "tiles": [{"name": "A", "pieces": [{"kind": "start"}, *pieces, {"kind": "finish"}]}],
    }


@pytest.mark.parametrize("name", SAMPLE_STAGES)
def test_samples_are_valid_and_well_formed(name: str) -> None:
    document = sample_document(name)
    assert layout_issues(document) == []
    track = build_track(load_layout(name))
    # Successors always have larger ids: the graph is acyclic and the policy relies on it.
    assert all(t > s for s in range(track.size) for t in track.succ[s])
    # Every space but the finish row leads somewhere; the start reaches the finish.
    assert all(track.succ[s] or track.is_finish(s) for s in range(track.size))
    seen = set(track.start_spaces)
    frontier = list(seen)
    while frontier:
        frontier = sorted({t for s in frontier for t in track.succ[s] if t not in seen})
        seen.update(frontier)
    assert any(track.is_finish(s) for s in seen)


def test_samples_have_their_character() -> None:
    def stats(name: str) -> dict[str, int]:
        t = build_track(load_layout(name))
        corner_limits = [t.corner_limit[s] for s in range(t.size) if t.kind[s] == CORNER]
        return {
            "jumps": sum(1 for j in t.jump if j),
            "fords": sum(t.ford),
            "shortcuts": sum(1 for k in t.kind if k == SHORTCUT),
            "drifts": sum(1 for k in t.kind if k == DRIFT),
            "red": sum(1 for d in t.danger if d == 3),
            "min_limit": min(corner_limits),
            "mean_limit_x10": round(10 * sum(corner_limits) / len(corner_limits)),
        }

    fast, twisty, cuts = (stats(n) for n in SAMPLE_STAGES)
    assert fast["mean_limit_x10"] > twisty["mean_limit_x10"] and fast["red"] == 0
    assert twisty["jumps"] >= 3 and twisty["red"] > 0 and twisty["min_limit"] == 2
    assert cuts["shortcuts"] >= 2 and cuts["fords"] >= 1


def test_unknown_sample() -> None:
    with pytest.raises(RallymanError) as err:
        load_layout("monte-carlo")
    assert err.value.code == "unknown_sample"


def issue_map(document: Any) -> dict[str, str]:
    return {i.path: i.code for i in layout_issues(document)}


def test_errors_carry_the_path_of_the_bad_element() -> None:
    doc = sample_document("ford-cuts")
    bad = copy.deepcopy(doc)
    bad["tiles"][1]["pieces"][3]["inside"][0] = 9
    bad["tiles"][0]["danger"] = "purple"
    bad["tiles"][2]["pieces"][1]["rows"] = 0
    bad["tiles"][1]["pieces"][0]["features"][0]["lane"] = "middle"
    bad["extra"] = True
    assert issue_map(bad) == {
        "tiles[1].pieces[3].inside[0]": "out_of_range",
        "tiles[0].danger": "bad_danger",
        "tiles[2].pieces[1].rows": "out_of_range",
        "tiles[1].pieces[0].features[0].lane": "bad_lane",
        "extra": "unknown_key",
    }
    with pytest.raises(LayoutInvalid) as err:
        parse_layout(bad)
    assert err.value.code == "layout_invalid"
    assert len(err.value.params["issues"]) == 5
    first = err.value.issues[0]
    assert err.value.message == f"{first.path}: {first.message} (and 4 more)"


@pytest.mark.parametrize(
    ("document", "path", "code"),
    [
        ([], "$", "not_object"),
        ({**minimal({"kind": "straight", "rows": 2}), "format": 2}, "format", "bad_format"),
        ({**minimal({"kind": "straight", "rows": 2}), "tiles": []}, "tiles", "no_tiles"),
        (minimal({"kind": "hairpin"}), "tiles[0].pieces[1].kind", "bad_kind"),
        (minimal({"kind": "drift", "rows": 1}), "tiles[0].pieces[1]", "drift_not_by_corner"),
        (
            minimal({"kind": "corner", "turn": "left", "inside": [2, 2, 2], "outside": [3, 3]}),
            "tiles[0].pieces[1]",
            "inside_longer",
        ),
        (
            minimal(
                {
                    "kind": "corner",
                    "turn": "left",
                    "inside": [2],
                    "outside": [3, 3],
                    "shortcut": {"limit": 2, "spaces": 1},
                }
            ),
            "tiles[0].pieces[1].shortcut",
            "shortcut_entry",
        ),
        (
            minimal(
                {
                    "kind": "straight",
                    "rows": 2,
                    "features": [
                        {"row": 1, "lane": "left", "obstacle": True},
                        {"row": 1, "lane": "right", "obstacle": True},
                    ],
                }
            ),
            "tiles[0].pieces[1].features",
            "road_blocked",
        ),
        (
            minimal(
                {
                    "kind": "straight",
                    "rows": 2,
                    "features": [
                        {"row": 1, "lane": "both", "jump": 3},
                        {"row": 1, "lane": "left", "ford": True},
                    ],
                }
            ),
            "tiles[0].pieces[1].features[1]",
            "feature_conflict",
        ),
        (
            minimal(
                {"kind": "straight", "rows": 2, "features": [{"row": 5, "lane": "left", "jump": 3}]}
            ),
            "tiles[0].pieces[1].features[0].row",
            "out_of_range",
        ),
        (
            minimal(
                {
                    "kind": "straight",
                    "rows": 2,
                    "features": [{"row": 1, "lane": "left", "jump": 3, "ford": True}],
                }
            ),
            "tiles[0].pieces[1].features[0]",
            "one_feature",
        ),
        (minimal(), "tiles", "no_road"),
    ],
)
def test_validation_errors(document: Any, path: str, code: str) -> None:
    assert issue_map(document).get(path) == code


def test_start_and_finish_placement() -> None:
    doc = minimal({"kind": "straight", "rows": 2})
    doc["tiles"][0]["pieces"] = doc["tiles"][0]["pieces"][::-1]
    codes = {i.code for i in layout_issues(doc)}
    assert {"start_first", "finish_last", "start_twice", "finish_twice"} <= codes


def test_corner_lanes_and_adjacency() -> None:
    track = build_track(
        parse_layout(
            minimal(
                {"kind": "straight", "rows": 1},
                {"kind": "corner", "turn": "right", "inside": [2, 2], "outside": [3, 3, 3, 3]},
                {"kind": "straight", "rows": 1},
            )
        )
    )
    sid = track.labels.index
    inside0, outside = sid("A.2.inside0"), [sid(f"A.2.outside{k}") for k in range(4)]
    assert track.adjacent[inside0] == frozenset(outside[:2])
    assert track.succ[sid("A.1.r0-left")] == (inside0, outside[0])
    assert track.inside_rank[sid("A.1.r0-right")] == 0  # right lane is the inside of a right turn
    assert track.front[outside[1]] == track.front[inside0]
