"""Read a Flamme Rouge Grand Tour Companion backup into an :class:`ImportPlan`.

The Companion (github.com/jepsenkasper-wq/flamme-rouge-grand-tour) exports a saved game as
``{"formatVersion": 1, "app": "Flamme Rouge Companion", "exportedAt": …, "game": {…}}``. Of the
game this reader takes ``createGameDraft`` (player names and colours, stage count, Rest Day
stages, scoring rules, and in "dummy" mode the teams' Specialists) and ``gameResults.entries``:
one entry per stage played and per Rest Day, each with one item per player holding a
``sprinteur`` and a ``rouleur``. The Companion keeps every count as text (``"3"``, or ``""`` for
nothing entered) and a stage time as ``"m:ss"``.

What the format means, and how Podium reads it (docs/imports.md):

- A stage's finishing order is its riders sorted by time, then ``tieBreakOrder`` (the order the
  Companion entered them in): the Companion ranks them so itself.
- An empty time is refused: the Companion would count it as 0:00, the best time of the stage.
- Empty points read as 0 (as the Companion adds them up); an empty fatigue count is unknown
  (Podium's ``exhaustion: null``), not 0.
- Times are whatever the players typed, so the tour has ``timing_tile`` off (GT-2.4).
- The game's ``adminKey`` (the secret that lets a device edit the shared copy), ``followCode``
  and ``remoteId`` are never read: nothing of them can reach the database or a log.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from tournament.competitions.errors import InvalidInput
from tournament.tours.imports.plan import FileErrors, ImportPlan, Path, RiderLine, StagePlan
from tournament.tours.setup import MAX_STAGES

APP = "Flamme Rouge Companion"
FORMAT_VERSION = 1
ROOT = "document"
#: Far above any real count or time; keeps absurd numbers out of the engines.
MAX_COUNT = 1000
MAX_MINUTES = 1440
MAX_NAME = 60  # a rider is "<player> - Sprinteur": within the 80 characters of a rider name
ROLES = ("rouleur", "sprinteur")
ROLE_LABEL = {"rouleur": "Rouleur", "sprinteur": "Sprinteur"}
#: The Companion's field for each field of a Podium result row (errors point at it).
ROW_FIELDS = {
    "position": "tieBreakOrder",
    "minutes": "time",
    "seconds": "time",
    "sprint_points": "sprintPoints",
    "mountain_points": "mountainPoints",
    "exhaustion": "fatigueCards",
}
SPECIALIST_FIELD = {"rouleur": "rouleurSpecialRiderId", "sprinteur": "sprinteurSpecialRiderId"}
TIME = re.compile(r"\A([0-9]{1,4}):([0-5][0-9])\Z")
DIGITS = re.compile(r"\A[0-9]{1,6}\Z")
DRAFT: Path = ("game", "createGameDraft")
ENTRIES: Path = ("game", "gameResults", "entries")


def read_companion(document: Any, *, name: str = "") -> ImportPlan:
    """The plan of the tour ``document`` describes; InvalidInput (400) naming every bad field."""
    errors = FileErrors(ROOT)
    game = _envelope(document, errors)
    if errors:
        raise InvalidInput(errors.detail())
    draft = _object(game.get("createGameDraft"), DRAFT, errors)
    results = _object(game.get("gameResults"), ("game", "gameResults"), errors)
    if errors:
        raise InvalidInput(errors.detail())
    reader = _Reader(draft, errors)
    entries = results.get("entries")
    if not isinstance(entries, list):
        errors.add(ENTRIES, _("Expected a list of stage and Rest Day entries."))
        entries = []
    plan_stages, claimed, claimed_where = reader.entries(entries)
    if errors:
        raise InvalidInput(errors.detail())
    title = name or _text(game.get("name")) or _text(draft.get("gameName"))
    return ImportPlan(
        source="companion",
        name=(title or _("Companion import"))[:160],
        setup=reader.setup(),
        stages=plan_stages,
        locate=reader.locate,
        claimed_tp=claimed,
        claimed_where=claimed_where,
        exported_at=_text(document.get("exportedAt"))[:64],
        root=ROOT,
    )


def _envelope(document: Any, errors: FileErrors) -> dict[str, Any]:
    """The backup's ``game`` once the envelope says this is a Companion backup we can read."""
    if not isinstance(document, dict):
        errors.add((), _("Expected a JSON object: a Flamme Rouge Companion backup."))
        return {}
    version = document.get("formatVersion")
    if "formatVersion" not in document:
        errors.add(("formatVersion",), _("This field is required."))
    elif isinstance(version, bool) or version != FORMAT_VERSION:
        errors.add(
            ("formatVersion",),
            _("Unsupported version %(got)s; Podium reads Companion backups of version %(v)s.")
            % {"got": _shown(version), "v": FORMAT_VERSION},
        )
    if document.get("app") != APP:
        errors.add(
            ("app",),
            _("Not a Flamme Rouge Companion backup (app %(app)s expected).") % {"app": f'"{APP}"'},
        )
    return _object(document.get("game"), ("game",), errors)


def _object(value: Any, where: Path, errors: FileErrors) -> dict[str, Any]:
    if value is None:
        errors.add(where, _("This field is required."))
        return {}
    if not isinstance(value, dict):
        errors.add(where, _("Expected a JSON object."))
        return {}
    return value


def _text(value: Any) -> str:
    return " ".join(value.split()) if isinstance(value, str) else ""


def _shown(value: Any) -> str:
    """A short, safe rendering of a value the document holds, for a message."""
    text = repr(value) if not isinstance(value, str) else f'"{value}"'
    return text if len(text) <= 20 else text[:17] + "..."


class _Reader:
    """The draft's set-up and the entries' results, checked field by field."""

    def __init__(self, draft: dict[str, Any], errors: FileErrors) -> None:
        self.errors = errors
        self.names = self._player_names(draft.get("playerNames"))
        self.colours = self._colours(draft.get("playerColors"))
        self.stage_count = self._stage_count(draft.get("stages"))
        self.rest_days = self._rest_days(draft.get("restDayStages"))
        self.specialists = self._specialists(draft)
        self.rules = self._rules(draft.get("scoringRules"))

    # --- the draft ---------------------------------------------------------------------------

    def _player_names(self, value: Any) -> list[str]:
        where = (*DRAFT, "playerNames")
        if not isinstance(value, list) or not value:
            self.errors.add(where, _("Expected the list of player names."))
            return []
        names = []
        for i, raw in enumerate(value):
            if not isinstance(raw, str):
                self.errors.add((*where, i), _("Expected a name (text)."))
                raw = ""
            name = _text(raw) or _("Player %(n)s") % {"n": i + 1}  # as the Companion shows it
            if len(name) > MAX_NAME:
                self.errors.add(
                    (*where, i), _("A name has at most %(n)s characters.") % {"n": MAX_NAME}
                )
            names.append(name[:MAX_NAME])
        return names

    def _colours(self, value: Any) -> list[str]:
        """Team names: the players' colours when each player has a distinct one."""
        if value is None:
            return []
        if not isinstance(value, list) or len(value) != len(self.names):
            self.errors.add(
                (*DRAFT, "playerColors"), _("Expected one colour per player, or no colours.")
            )
            return []
        colours = [_text(c)[:MAX_NAME] if isinstance(c, str) else "" for c in value]
        distinct = {c.casefold() for c in colours}
        return colours if all(colours) and len(distinct) == len(colours) else []

    def _stage_count(self, value: Any) -> int:
        where = (*DRAFT, "stages")
        count = _count(value)
        if count is None or not 1 <= count <= MAX_STAGES:
            self.errors.add(
                where, _("Expected the number of stages, 1 to %(max)s.") % {"max": MAX_STAGES}
            )
            return 0
        return count

    def _rest_days(self, value: Any) -> list[int]:
        where = (*DRAFT, "restDayStages")
        if value is None:
            return []
        if not isinstance(value, list):
            self.errors.add(where, _("Expected a list of stage numbers."))
            return []
        days = []
        for i, raw in enumerate(value):
            number = _count(raw)
            if number is None:
                self.errors.add((*where, i), _("Expected a stage number."))
            else:
                days.append(number)
        return days

    def _specialists(self, draft: dict[str, Any]) -> list[dict[str, str]]:
        """Per team, role → Podium's Specialist name (only "dummy" mode teams carry any)."""
        empty: list[dict[str, str]] = [{} for _ in self.names]
        teams = draft.get("dummyTeams")
        if draft.get("companionMode") != "dummy" or not teams:
            return empty
        where = (*DRAFT, "dummyTeams")
        if not isinstance(teams, list) or len(teams) != len(self.names):
            self.errors.add(where, _("Expected one team per player."))
            return empty
        for i, team in enumerate(teams):
            if not isinstance(team, dict):
                self.errors.add((*where, i), _("Expected a JSON object."))
                continue
            for role, key in SPECIALIST_FIELD.items():
                raw = team.get(key)
                if raw in (None, ""):
                    continue  # "Normal": the base deck
                if not isinstance(raw, str) or len(raw) > 40:
                    self.errors.add((*where, i, key), _("Expected a Specialist's name."))
                    continue
                # The Companion spells "super-rouleur"; Podium's names are "super_rouleur".
                empty[i][role] = raw.strip().casefold().replace("-", "_").replace(" ", "_")
        return empty

    def _rules(self, value: Any) -> dict[str, Any]:
        """The tour's rules: Timing tile off, and the Companion's bonus table when it has one."""
        rules: dict[str, Any] = {"timing_tile": False}
        if value is None:
            return rules  # older backups: Podium's GT-9.1 defaults
        where = (*DRAFT, "scoringRules")
        if not isinstance(value, dict):
            self.errors.add(where, _("Expected a JSON object."))
            return rules
        # The Companion keeps one column, for the tour's own length: one band covering every
        # length (GT-9.1's table with a single column).
        table: dict[str, Any] = {"bands": [MAX_STAGES]}
        for podium_name, key in (
            ("general", "yellow"),
            ("sprint", "sprint"),
            ("mountain", "mountain"),
            ("team", "team"),
        ):
            raw = value.get(key)
            points = [_count(p) for p in raw] if isinstance(raw, list) else None
            if points is None or any(p is None for p in points) or len(points) > 50:
                self.errors.add(
                    (*where, key), _("Expected a list of bonus Tour Points (whole numbers).")
                )
                continue
            table[podium_name] = [points]
        rules["classification_tp"] = table
        return rules

    # --- the entries -------------------------------------------------------------------------

    def entries(
        self, entries: list[Any]
    ) -> tuple[
        tuple[StagePlan, ...], dict[tuple[str, int], dict[int, int]], dict[tuple[str, int], Path]
    ]:
        stages: dict[int, StagePlan] = {}
        stage_at: dict[int, int] = {}
        rest_at: dict[int, int] = {}
        claimed: dict[tuple[str, int], dict[int, int]] = {}
        claimed_where: dict[tuple[str, int], Path] = {}
        for i, entry in enumerate(entries):
            where: Path = (*ENTRIES, i)
            if not isinstance(entry, dict):
                self.errors.add(where, _("Expected a JSON object."))
                continue
            kind = entry.get("entryType")
            number = _count(entry.get("stageNumber"))
            if kind not in ("stage", "restDay"):
                self.errors.add((*where, "entryType"), _('Expected "stage" or "restDay".'))
                continue
            if number is None or not 1 <= number <= max(self.stage_count, 1):
                self.errors.add(
                    (*where, "stageNumber"),
                    _("Expected a stage number, 1 to %(max)s.") % {"max": self.stage_count},
                )
                continue
            seen = stage_at if kind == "stage" else rest_at
            if number in seen:
                self.errors.add(
                    (*where, "stageNumber"),
                    _("Entry %(other)s is already for this stage.") % {"other": seen[number]},
                )
                continue
            seen[number] = i
            if kind == "restDay" and number not in self.rest_days:
                self.errors.add(
                    (*where, "stageNumber"),
                    _("The tour has no Rest Day after stage %(n)s (restDayStages).")
                    % {"n": number},
                )
                continue
            players = self._players(entry.get("players"), where)
            if players is None:
                continue
            claimed[("stage" if kind == "stage" else "rest_day", number)] = {
                team: points for team, (_riders, points) in enumerate(players)
            }
            claimed_where[("stage" if kind == "stage" else "rest_day", number)] = where
            if kind == "stage":
                stages[number] = self._stage(number, players, where)
        self._check_order(stage_at, rest_at)
        return tuple(stages[n] for n in sorted(stages)), claimed, claimed_where

    def _players(self, value: Any, where: Path) -> list[tuple[list[dict[str, Any]], int]] | None:
        """Per team: its two riders' fields (rouleur, sprinteur) and the TP the entry claims."""
        where = (*where, "players")
        if not isinstance(value, list) or len(value) != len(self.names):
            self.errors.add(
                where, _("Expected one item per player (%(n)s).") % {"n": len(self.names)}
            )
            return None
        players = []
        for team, item in enumerate(value):
            if not isinstance(item, dict):
                self.errors.add((*where, team), _("Expected a JSON object."))
                return None
            riders = []
            claimed = 0
            for role in ROLES:
                rider = item.get(role)
                rider_at = (*where, team, role)
                if not isinstance(rider, dict):
                    self.errors.add(rider_at, _("Expected the rider's entry (a JSON object)."))
                    return None
                tp = self._number(rider.get("tourPoints"), (*rider_at, "tourPoints"))
                claimed += tp or 0
                riders.append({**rider, "_role": role, "_at": rider_at})
            players.append((riders, claimed))
        return players

    def _stage(
        self, number: int, players: list[tuple[list[dict[str, Any]], int]], where: Path
    ) -> StagePlan:
        lines = []
        for team, (riders, _claimed) in enumerate(players):
            for rider in riders:
                at: Path = rider["_at"]
                seconds = self._time(rider.get("time"), (*at, "time"))
                order = rider.get("tieBreakOrder")
                if order is None:
                    # Backups before tieBreakOrder: the order the Companion entered riders in.
                    order = 2 * team + (0 if rider["_role"] == "sprinteur" else 1)
                elif isinstance(order, bool) or not isinstance(order, int):
                    self.errors.add((*at, "tieBreakOrder"), _("Expected a whole number."))
                    order = 0
                lines.append(
                    (
                        seconds if seconds is not None else 0,
                        order,
                        RiderLine(
                            team=team,
                            role=rider["_role"],
                            position=0,
                            seconds_total=seconds if seconds is not None else 0,
                            sprint_points=self._number(
                                rider.get("sprintPoints"), (*at, "sprintPoints")
                            )
                            or 0,
                            mountain_points=self._number(
                                rider.get("mountainPoints"), (*at, "mountainPoints")
                            )
                            or 0,
                            exhaustion=self._number(
                                rider.get("fatigueCards"), (*at, "fatigueCards")
                            ),
                            where=at,
                            fields=ROW_FIELDS,
                        ),
                    )
                )
        # The Companion's own ranking: time, then the order the riders were entered in.
        lines.sort(key=lambda item: (item[0], item[1], item[2].team, item[2].role))
        ranked = tuple(
            replace(line, position=position)
            for position, (_t, _o, line) in enumerate(lines, start=1)
        )
        return StagePlan(number=number, riders=ranked, where=where)

    def _check_order(self, stage_at: dict[int, int], rest_at: dict[int, int]) -> None:
        """Stages are played in order: a stage's entry needs every earlier stage's entry."""
        played = sorted(stage_at)
        for expected, number in enumerate(played, start=1):
            if number != expected:
                self.errors.add(
                    (*ENTRIES, stage_at[number], "stageNumber"),
                    _("Stage %(n)s has results but stage %(missing)s has none.")
                    % {"n": number, "missing": expected},
                )
                break
        for number, index in rest_at.items():
            if number not in stage_at:
                self.errors.add(
                    (*ENTRIES, index, "stageNumber"),
                    _("A Rest Day after stage %(n)s, which has no results.") % {"n": number},
                )

    def _time(self, value: Any, where: Path) -> int | None:
        if value is None or (isinstance(value, str) and not value.strip()):
            # The Companion would count an empty time as 0:00, the stage's best time.
            self.errors.add(where, _("This rider has no time; enter it as m:ss (e.g. 1:20)."))
            return None
        match = TIME.match(value.strip()) if isinstance(value, str) else None
        if match is None or int(match.group(1)) > MAX_MINUTES:
            self.errors.add(
                where, _("Expected a time as m:ss (e.g. 1:20), got %(v)s.") % {"v": _shown(value)}
            )
            return None
        return 60 * int(match.group(1)) + int(match.group(2))

    def _number(self, value: Any, where: Path) -> int | None:
        """A count kept as text: ``""`` is nothing entered (None), else a whole number ≥ 0."""
        if value is None or value == "":
            return None
        number = _count(value)
        if number is None or number > MAX_COUNT:
            self.errors.add(
                where,
                _("Expected a whole number from 0 to %(max)s, got %(v)s.")
                % {"max": MAX_COUNT, "v": _shown(value)},
            )
            return None
        return number

    # --- the plan ----------------------------------------------------------------------------

    def setup(self) -> dict[str, Any]:
        """The create request's set-up (``POST /api/tours/``)."""
        return {
            "stages": [{"name": ""} for _ in range(self.stage_count)],
            "rest_days_after": self.rest_days,
            "teams": [
                {
                    "name": self.colours[i] if self.colours else player,
                    "player": player,
                    "riders": [
                        {
                            "name": f"{player} - {ROLE_LABEL[role]}",
                            "role": role,
                            "specialist": self.specialists[i].get(role, ""),
                        }
                        for role in ROLES
                    ],
                }
                for i, player in enumerate(self.names)
            ],
            "rules": self.rules,
        }

    def locate(self, where: Path) -> Path:
        """Where in the backup a set-up error of Podium's (``teams[1].riders[0]...``) points."""
        head = where[0] if where else None
        if head == "stages":
            return (*DRAFT, "stages")
        if head == "rest_days_after":
            return (*DRAFT, "restDayStages")
        if head == "rules":
            return (*DRAFT, "scoringRules")
        if head == "name":
            return ("game", "name")
        if head == "teams" and len(where) > 1 and isinstance(where[1], int):
            team = where[1]
            if len(where) > 4 and where[2] == "riders" and where[4] == "specialist":
                role = ROLES[where[3]] if isinstance(where[3], int) and where[3] < 2 else "rouleur"
                return (*DRAFT, "dummyTeams", team, SPECIALIST_FIELD[role])
            if len(where) > 2 and where[2] == "name" and self.colours:
                return (*DRAFT, "playerColors", team)
            return (*DRAFT, "playerNames", team)
        if head == "teams":
            return (*DRAFT, "playerNames")
        return ("game",)


def _count(value: Any) -> int | None:
    """A whole number ≥ 0 written as text (the Companion's way) or as a JSON number."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if value >= 0 else None
    if isinstance(value, str) and DIGITS.match(value.strip()):
        return int(value.strip())
    return None
