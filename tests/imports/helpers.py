"""Companion backups built the way the app writes them (lib/savedGameTypes.ts, createGameDraft.ts,
stageDraft.ts, gameResults.ts and the export in app/(tabs)/more.tsx).

Counts are text, times ``"m:ss"``, ``tieBreakOrder`` numbers the riders in the order the app
entered them (each player's sprinteur, then rouleur). ``stage(...)`` takes per player the two
riders' times and, optionally, their other fields.
"""

from __future__ import annotations

import copy
from typing import Any

SECRET = "adm-7f3c9e1b-SECRET-d4a2"
NAMES = ["Ana", "Rui", "Gil"]
COLOURS = ["Red", "Blue", "Green"]


def rider(
    time: str, tp: int | str = "", sprint: str = "", mountain: str = "", cards: str = ""
) -> dict[str, Any]:
    return {
        "time": time,
        "tourPoints": str(tp),
        "mountainPoints": mountain,
        "sprintPoints": sprint,
        "fatigueCards": cards,
        "tieBreakOrder": 0,
    }


def stage(number: int, players: list[tuple[dict[str, Any], dict[str, Any]]]) -> dict[str, Any]:
    """An entry: per player (sprinteur, rouleur), tieBreakOrder as the app numbers them."""
    order = 0
    items = []
    for sprinteur, rouleur in players:
        sprinteur, rouleur = copy.deepcopy(sprinteur), copy.deepcopy(rouleur)
        sprinteur["tieBreakOrder"], rouleur["tieBreakOrder"] = order, order + 1
        order += 2
        items.append({"sprinteur": sprinteur, "rouleur": rouleur})
    return {"entryType": "stage", "stageNumber": number, "players": items}


def rest_day(after: int, tps: list[tuple[int, int]]) -> dict[str, Any]:
    """A Rest Day entry: only Tour Points are entered (player-entry.tsx); times stay empty."""
    return {
        "entryType": "restDay",
        "stageNumber": after,
        "players": [{"sprinteur": rider("", s), "rouleur": rider("", r)} for s, r in tps],
    }


def backup(
    entries: list[dict[str, Any]],
    *,
    stages: int = 3,
    rest_days: list[str] | None = None,
    names: list[str] | None = None,
    dummy_teams: list[dict[str, Any]] | None = None,
    scoring_rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    names = names or NAMES
    draft: dict[str, Any] = {
        "gameName": "Volta do Porto",
        "players": str(len(names)),
        "stages": str(stages),
        "restDays": str(len(rest_days or [])),
        "companionMode": "dummy" if dummy_teams else "normal",
        "dummyTeams": dummy_teams or [],
        "playerNames": names,
        "playerColors": COLOURS[: len(names)],
        "restDayStages": rest_days or [],
        "scoringRules": scoring_rules
        or {"yellow": [3, 2, 1], "sprint": [2, 1], "mountain": [2, 1], "team": [1]},
    }
    return {
        "formatVersion": 1,
        "app": "Flamme Rouge Companion",
        "exportedAt": "2026-11-28T21:14:03.120Z",
        "game": {
            "id": "1764364443120",
            "name": "Volta do Porto",
            "createdAt": "2026-11-01T19:00:00.000Z",
            "createGameDraft": draft,
            "gameResults": {"entries": entries},
            "gameState": {
                "currentStage": 3,
                "currentEntryType": "stage",
                "stageState": "waiting-for-play",
            },
            "role": "admin",
            "remoteId": "5b0e6f1c-remote",
            "followCode": "FR7K2Q",
            "adminKey": SECRET,
        },
    }


def complete_tour() -> dict[str, Any]:
    """Three players, three stages, a Rest Day after stage 1, Specialists (dummy mode).

    Stage 1: Ana's sprinteur wins (0:00), Rui's sprinteur 2nd (0:10), Gil's rouleur 3rd (0:20):
    podium TP 3, 2, 1 (GT-4). The Companion's figures are right except stage 2, where Rui
    typed 3 TP for a 2nd place (Podium: 2).
    """
    entries = [
        stage(
            1,
            [
                (rider("0:00", 3, sprint="4", cards="1"), rider("1:20", 0, cards="2")),
                (rider("0:10", 2, sprint="3"), rider("1:40", 0, mountain="2")),
                (rider("1:30", 0), rider("0:20", 1, cards="")),
            ],
        ),
        # After stage 1: Ana's sprinteur leads GC and SC; Rui's rouleur the MC (GT-8.1).
        rest_day(1, [(2, 0), (0, 1), (0, 0)]),
        stage(
            2,
            [
                (rider("0:40", 0), rider("0:30", 1)),
                (rider("0:20", 3), rider("1:00", 0)),  # 2nd: Podium gives 2, the app says 3
                (rider("0:10", 3), rider("1:10", 0)),
            ],
        ),
        stage(
            3,
            [
                (rider("0:00", 3), rider("0:50", 0)),
                (rider("0:30", 1), rider("0:50", 0)),
                (rider("0:10", 2), rider("1:00", 0)),
            ],
        ),
    ]
    teams = [
        {
            "id": "team-1",
            "name": "Ana",
            "color": "Red",
            "teamType": "human",
            "drawMode": "app-draw",
            "sprinteurSpecialRiderId": "super-sprinteur",
            "rouleurSpecialRiderId": "super-rouleur",
        },
        {
            "id": "team-2",
            "name": "Rui",
            "color": "Blue",
            "teamType": "human",
            "drawMode": "card-draw",
        },
        {
            "id": "team-3",
            "name": "Gil",
            "color": "Green",
            "teamType": "normal-ai",
            "rouleurSpecialRiderId": "grimpeur",
        },
    ]
    return backup(entries, stages=3, rest_days=["1"], dummy_teams=teams)
