"""A tour as a plain CSV: one line per rider per stage (read, and written for the template and
the export of a tour's results).

For clubs that kept their Grand Tour in a spreadsheet. Columns (docs/imports.md), in any order,
names case-insensitive; ``;`` or tab separators are read as well as ``,``:

- ``stage`` (1 to 21), ``team``, ``rider``, ``role`` (``rouleur``/``sprinteur``, or ``R``/``S``)
  and ``time`` (``m:ss`` or ``h:mm:ss``) are required on every rider's line;
- ``player``, ``specialist``, ``position``, ``sprint_points``, ``mountain_points`` and
  ``exhaustion`` are optional (empty points are 0, an empty exhaustion is unknown, as in the API);
- ``stage_name`` and ``rest_day_after`` (``yes`` on any line of the stage) describe the stage.

A line with a stage number and no rider declares a stage not played yet (a tour stored mid-way).
The finishing order is ``position`` when every line of the stage has one, else time then the
order of the lines. Teams come in the order they first appear; each has one rouleur and one
sprinteur, named alike on every stage. Text that a spreadsheet would read as a formula was
written with a leading ``'`` (``tournament.web.exports.csv_value``); it is read back without it.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from scoring.clock import clock
from tournament.competitions.errors import InvalidInput
from tournament.players.matching import clean_name, match_key
from tournament.tours.imports.plan import FileErrors, ImportPlan, Path, RiderLine, StagePlan
from tournament.tours.setup import MAX_STAGES
from tournament.web.exports import FORMULA_STARTS, csv_value

ROOT = "csv"
COLUMNS = (
    "stage",
    "stage_name",
    "rest_day_after",
    "team",
    "player",
    "rider",
    "role",
    "specialist",
    "position",
    "time",
    "sprint_points",
    "mountain_points",
    "exhaustion",
)
REQUIRED = ("stage", "team", "rider", "role", "time")
RIDER_COLUMNS = ("team", "player", "rider", "role", "specialist", "position", "time")
#: The CSV column of each field of a Podium result row (errors point at it).
ROW_FIELDS = {"minutes": "time", "seconds": "time", "rider": "rider"}
MAX_BYTES = 512 * 1024
MAX_LINES = 2000
MAX_COUNT = 1000
MAX_TEXT = 80
ROLES = {"rouleur": "rouleur", "r": "rouleur", "sprinteur": "sprinteur", "s": "sprinteur"}
YES = frozenset({"yes", "y", "1", "true", "x", "sim", "sí", "si", "oui"})
NO = frozenset({"", "no", "n", "0", "false", "não", "nao", "non"})
TIME = re.compile(r"\A(?:([0-9]{1,3}):)?([0-9]{1,4}):([0-5][0-9])\Z")
DIGITS = re.compile(r"\A[0-9]{1,6}\Z")


def line_key(number: int) -> str:
    """How errors name a line of the file: ``"line 3"`` (the header is line 1)."""
    return f"line {number}"


@dataclass(frozen=True)
class _Line:
    number: int
    values: dict[str, str]

    def at(self, column: str | None = None) -> Path:
        return (line_key(self.number),) if column is None else (line_key(self.number), column)


def decode(data: bytes | str) -> str:
    """The file's text (UTF-8, with or without a byte order mark); InvalidInput otherwise."""
    if isinstance(data, str):
        return data
    if len(data) > MAX_BYTES:
        raise InvalidInput(
            {ROOT: [_("The file is larger than %(n)s KB.") % {"n": MAX_BYTES // 1024}]}
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(
            {ROOT: [_('The file is not UTF-8 text; save it as "CSV UTF-8" and try again.')]}
        ) from None


def read_csv(
    text: str, *, name: str, stage_count: int | None = None, rules: dict[str, Any] | None = None
) -> ImportPlan:
    """The plan of the tour ``text`` describes; InvalidInput (400) naming every bad line."""
    errors = FileErrors(ROOT)
    if len(text) > MAX_BYTES:
        raise InvalidInput(
            {ROOT: [_("The file is larger than %(n)s KB.") % {"n": MAX_BYTES // 1024}]}
        )
    lines = _lines(text, errors)
    if errors:
        raise InvalidInput(errors.detail())
    reader = _Reader(errors)
    for line in lines:
        reader.read(line)
    count = max([*reader.stage_names, *reader.rest, stage_count or 0], default=0)
    if not reader.teams:
        errors.add((), _("The file has no rider lines."))
    if not 1 <= count <= MAX_STAGES:
        errors.add((), _("A tour has 1 to %(max)s stages.") % {"max": MAX_STAGES})
    stages = reader.stages(count)
    teams = reader.team_setup()
    if errors:
        raise InvalidInput(errors.detail())
    setup = {
        "stages": [{"name": reader.stage_names.get(n, "")} for n in range(1, count + 1)],
        "rest_days_after": sorted(n for n in reader.rest if n < count),
        "teams": teams,
        # Spreadsheets hold whatever seconds the club wrote down (GT-2.4: no tile check).
        "rules": {"timing_tile": False, **(rules or {})},
    }
    return ImportPlan(
        source="csv",
        name=name,
        setup=setup,
        stages=stages,
        locate=reader.locate,
        root=ROOT,
    )


def _lines(text: str, errors: FileErrors) -> list[_Line]:
    """The data lines with their values by (normalised) column name."""
    head = text.lstrip("\ufeff").split("\n", 1)[0]
    delimiter = max((",", ";", "\t"), key=head.count)
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))
    if not rows:
        errors.add((), _("The file is empty."))
        return []
    if len(rows) > MAX_LINES:
        errors.add((), _("The file has more than %(n)s lines.") % {"n": MAX_LINES})
        return []
    header = [re.sub(r"[\s-]+", "_", cell.strip().casefold()) for cell in rows[0]]
    unknown = [cell for cell in header if cell and cell not in COLUMNS]
    if unknown:
        errors.add(
            (line_key(1),),
            _("Unknown columns: %(names)s. The columns are: %(all)s.")
            % {"names": ", ".join(unknown), "all": ", ".join(COLUMNS)},
        )
    missing = [c for c in REQUIRED if c not in header]
    if missing:
        errors.add((line_key(1),), _("Missing columns: %(names)s.") % {"names": ", ".join(missing)})
    if errors:
        return []
    lines = []
    for number, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        values = {
            column: _unquote(row[i].strip()) if i < len(row) else ""
            for i, column in enumerate(header)
            if column
        }
        lines.append(_Line(number, values))
    return lines


def _unquote(cell: str) -> str:
    """A cell written through ``csv_value`` (``'=…``) as it was before."""
    return cell[1:] if cell.startswith("'") and cell[1:].startswith(FORMULA_STARTS) else cell


@dataclass
class _Team:
    name: str
    player: str
    riders: dict[str, tuple[str, str, int]]  # role → (name, specialist, line number)
    first_line: int


class _Reader:
    def __init__(self, errors: FileErrors) -> None:
        self.errors = errors
        self.teams: dict[str, _Team] = {}  # by match key, in order of appearance
        self.stage_names: dict[int, str] = {}
        self.rest: set[int] = set()
        self.results: dict[int, list[tuple[_Line, int, str, int]]] = {}  # stage → lines

    def read(self, line: _Line) -> None:
        values = line.values
        stage = _whole(values.get("stage", ""))
        if stage is None or not 1 <= stage <= MAX_STAGES:
            self.errors.add(
                line.at("stage"), _("Expected a stage number, 1 to %(max)s.") % {"max": MAX_STAGES}
            )
            return
        self.stage_names.setdefault(stage, "")
        stage_name = values.get("stage_name", "")
        if stage_name:
            if len(stage_name) > 160:
                self.errors.add(line.at("stage_name"), _("At most 160 characters."))
            elif not self.stage_names[stage]:
                self.stage_names[stage] = stage_name
        rest = values.get("rest_day_after", "").casefold()
        if rest in YES:
            self.rest.add(stage)
        elif rest not in NO:
            self.errors.add(line.at("rest_day_after"), _('Expected "yes" or nothing.'))
        if not any(values.get(c) for c in RIDER_COLUMNS):
            return  # a stage declared, not played yet
        rider = self._rider(line)
        if rider is None:
            return
        team, role = rider
        seconds = self._time(line)
        if seconds is None:
            return
        self.results.setdefault(stage, []).append((line, team, role, seconds))

    def _rider(self, line: _Line) -> tuple[int, str] | None:
        values = line.values
        team_name = clean_name(values.get("team", ""))
        rider_name = clean_name(values.get("rider", ""))
        role = ROLES.get(values.get("role", "").casefold())
        ok = True
        for column, value in (("team", team_name), ("rider", rider_name)):
            if not value:
                self.errors.add(line.at(column), _("This field is required."))
                ok = False
            elif len(value) > MAX_TEXT:
                self.errors.add(line.at(column), _("At most %(n)s characters.") % {"n": MAX_TEXT})
                ok = False
        if role is None:
            self.errors.add(line.at("role"), _('Expected "rouleur" or "sprinteur".'))
            ok = False
        player = clean_name(values.get("player", ""))[:MAX_TEXT]
        specialist = values.get("specialist", "").strip().casefold().replace("-", "_")
        if not ok or role is None:
            return None
        key = match_key(team_name)
        team = self.teams.get(key)
        if team is None:
            team = self.teams[key] = _Team(team_name, player, {}, line.number)
        elif player and team.player and match_key(player) != match_key(team.player):
            self.errors.add(
                line.at("player"),
                _("Team %(team)s is %(player)s's on line %(line)s.")
                % {"team": team.name, "player": team.player, "line": team.first_line},
            )
            return None
        team.player = team.player or player
        known = team.riders.get(role)
        if known is None:
            team.riders[role] = (rider_name, specialist, line.number)
        elif match_key(known[0]) != match_key(rider_name) or (
            specialist and known[1] != specialist
        ):
            self.errors.add(
                line.at("rider"),
                _(
                    "The %(role)s of %(team)s is %(rider)s on line %(line)s; a team keeps its "
                    "riders."
                )
                % {"role": role, "team": team.name, "rider": known[0], "line": known[2]},
            )
            return None
        return list(self.teams).index(key), role

    def _time(self, line: _Line) -> int | None:
        raw = line.values.get("time", "")
        if not raw:
            self.errors.add(
                line.at("time"), _("This rider has no time; enter it as m:ss (e.g. 1:20).")
            )
            return None
        match = TIME.match(raw)
        if match is None:
            self.errors.add(line.at("time"), _("Expected a time as m:ss or h:mm:ss (e.g. 1:20)."))
            return None
        hours, minutes, seconds = (int(g) if g else 0 for g in match.groups())
        return 3600 * hours + 60 * minutes + seconds

    def _count(self, line: _Line, column: str) -> int | None:
        raw = line.values.get(column, "")
        if raw == "":
            return None
        number = _whole(raw)
        if number is None or number > MAX_COUNT:
            self.errors.add(
                line.at(column),
                _("Expected a whole number from 0 to %(max)s.") % {"max": MAX_COUNT},
            )
        return number

    def stages(self, count: int) -> tuple[StagePlan, ...]:
        plans = []
        for number in sorted(self.results):
            if number > count:
                continue
            entries = self.results[number]
            positions = [self._count(line, "position") for line, *_ in entries]
            given = [p for p in positions if p is not None]
            if given and len(given) != len(positions):
                line = entries[positions.index(None)][0]
                self.errors.add(
                    line.at("position"),
                    _("Give every rider of stage %(n)s a position, or none.") % {"n": number},
                )
            riders = [
                RiderLine(
                    team=team,
                    role=role,
                    position=position or 0,
                    seconds_total=seconds,
                    sprint_points=self._count(line, "sprint_points") or 0,
                    mountain_points=self._count(line, "mountain_points") or 0,
                    exhaustion=self._count(line, "exhaustion"),
                    where=line.at(),
                    fields=ROW_FIELDS,
                )
                for (line, team, role, seconds), position in zip(entries, positions, strict=True)
            ]
            if not given:
                # No positions: time, then the order of the lines (stable sort).
                ordered = sorted(riders, key=lambda r: r.seconds_total)
                riders = [replace(r, position=i) for i, r in enumerate(ordered, start=1)]
            riders.sort(key=lambda r: r.position)
            plans.append(StagePlan(number, tuple(riders), (f"stage {number}",)))
        return tuple(plans)

    def team_setup(self) -> list[dict[str, Any]]:
        teams = []
        for team in self.teams.values():
            riders = []
            for role in ("rouleur", "sprinteur"):
                rider = team.riders.get(role)
                if rider is None:
                    self.errors.add(
                        (line_key(team.first_line), "role"),
                        _("Team %(team)s has no %(role)s.") % {"team": team.name, "role": role},
                    )
                    continue
                riders.append({"name": rider[0], "role": role, "specialist": rider[1]})
            teams.append({"name": team.name, "player": team.player, "riders": riders})
        return teams

    def locate(self, where: Path) -> Path:
        """Where in the file a set-up error of Podium's points (the team's first line)."""
        if len(where) > 1 and where[0] == "teams" and isinstance(where[1], int):
            teams = list(self.teams.values())
            if where[1] < len(teams):
                team = teams[where[1]]
                if len(where) > 3 and where[2] == "riders" and isinstance(where[3], int):
                    role = ("rouleur", "sprinteur")[min(where[3], 1)]
                    rider = team.riders.get(role)
                    column = "specialist" if where[-1] == "specialist" else "rider"
                    if rider is not None:
                        return (line_key(rider[2]), column)
                column = "player" if len(where) > 2 and where[2] == "player" else "team"
                return (line_key(team.first_line), column)
        return ()


def _whole(raw: str) -> int | None:
    return int(raw) if DIGITS.match(raw) else None


# --- writing ---------------------------------------------------------------------------------


def write_csv(lines: Iterable[Sequence[Any]]) -> str:
    """The header and ``lines`` (in ``COLUMNS`` order) as CSV text, every cell made safe."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    writer.writerows([csv_value(cell) for cell in line] for line in lines)
    return out.getvalue()


def template_lines() -> list[list[Any]]:
    """The downloadable template: two teams ride stage 1, a Rest Day, stage 2 still to ride."""
    rows: list[list[Any]] = []
    # team, player, rider, role, specialist, position, time, sprint, mountain, exhaustion
    sample = (
        ("Blue", "Rui", "Rui S", "sprinteur", "", 1, "0:00", 3, 1, 0),
        ("Red", "Ana", "Ana R", "rouleur", "grimpeur", 2, "0:10", 0, 3, 2),
        ("Red", "Ana", "Ana S", "sprinteur", "", 3, "1:20", 4, 0, ""),
        ("Blue", "Rui", "Rui R", "rouleur", "", 4, "1:20", 0, 0, 1),
    )
    for line in sample:
        rows.append([1, "Prologue", "yes", *line])
    rows.append([2, "Mountains", "", "", "", "", "", "", "", "", "", "", ""])
    return rows


def tour_lines(teams: Iterable[Any], stages: Iterable[Any]) -> list[list[Any]]:
    """Every current result of a tour (its teams with riders prefetched, its stages in order
    with their results), in finishing order; a stage without results is a line of its own
    (declared, not ridden yet)."""
    riders = {rider.pk: (team, rider) for team in teams for rider in team.riders.all()}
    lines: list[list[Any]] = []
    for stage in stages:
        rest = "yes" if stage.rest_day_after else ""
        if not stage.results:
            lines.append([stage.number, stage.name, rest, *[""] * 10])
            continue
        for row in sorted(stage.results, key=lambda r: r["position"]):
            team, rider = riders[row["rider"]]
            lines.append(
                [
                    stage.number,
                    stage.name,
                    rest,
                    team.name,
                    team.player,
                    rider.name,
                    rider.role,
                    rider.specialist,
                    row["position"],
                    clock(60 * row["minutes"] + row["seconds"]),
                    row.get("sprint_points", 0),
                    row.get("mountain_points", 0),
                    row.get("exhaustion"),
                ]
            )
    return lines
