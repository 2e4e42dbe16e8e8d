"""A club's competitions as the player pages and the hall of fame read them (issue #19, 2 and 3).

One loading step per game turns rows into plain :class:`CompetitionHistory` values: the entries
(tour teams, drivers) with their club player, their rank in the main title (Tour Points for tours,
the drivers' standings for Formula D and leagues, overall for rallies) and their finishing place
in every resolved event and, where the standings count them, its event wins; the winner's
margin; the jerseys held now (tours). With ``full`` (the hall of fame, a player's record) it also
reads every snapshot for the leader after each event (the yellow jersey for tours) and, per
jersey, the stages after which each team held it.

The queries are a fixed number per game (entries, events, latest standings, and riders for
tours; all snapshots with ``full``) whatever the length of the club's history; only the keys of
the standings documents that are read leave the database (PostgreSQL JSON key transforms).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from tournament.clubs.models import Club
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import Status

#: Game kinds in the order the pages show them.
KINDS = ("tour", "championship", "league", "rally")


@dataclass
class EntryHistory:
    """A team or driver of one competition."""

    pk: int
    player_id: int | None
    name: str
    rank: int | None = None  # in the main title, latest standings
    positions: dict[int, int] = field(default_factory=dict)  # event number → finishing place
    #: Events won as the latest standings count them (finishers only); ``None`` where the
    #: standings keep no count (tours: a team wins the stages its riders win).
    wins: int | None = None

    @property
    def event_wins(self) -> int:
        if self.wins is not None:
            return self.wins
        return sum(1 for p in self.positions.values() if p == 1)


@dataclass
class CompetitionHistory:
    kind: str
    pk: int
    name: str
    public: bool
    created_at: datetime
    finished: bool
    resolved: int  # events resolved
    entries: dict[int, EntryHistory] = field(default_factory=dict)
    #: The winner's lead over the second in the main title: points (tours: Tour Points), or
    #: seconds for rallies; ``None`` with fewer than two ranked entries.
    margin: int | None = None
    jerseys_now: dict[str, int | None] = field(default_factory=dict)  # tours: jersey → team
    #: ``full`` only: the leading entry after each event (the yellow jersey's team for tours).
    leaders: list[int | None] = field(default_factory=list)
    #: ``full`` only, tours: team → jersey → stages after which one of its riders held it.
    jersey_stages: dict[int, dict[str, int]] = field(default_factory=dict)

    @property
    def running(self) -> bool:
        return self.resolved > 0 and not self.finished

    def entry_of(self, player_id: int) -> EntryHistory | None:
        return next((e for e in self.entries.values() if e.player_id == player_id), None)


@dataclass(frozen=True)
class Game:
    kind: str
    link: str  # the entry's foreign key to its competition
    rows: str  # the main title's list in a standings document
    key: str  # the entrant key in those rows
    score: str  # the winner's figure in those rows (its margin)
    lower_wins: bool  # a smaller score is better (times)
    wins: str | None  # the count of event wins in those rows, where they keep one


GAMES = {
    "tour": Game("tour", "tour", "tour_points", "team", "total", False, None),
    "championship": Game(
        "championship", "championship", "drivers", "driver", "points", False, "wins"
    ),
    "league": Game("league", "league", "drivers", "driver", "points", False, "wins"),
    "rally": Game("rally", "rally", "overall", "driver", "time", True, "stage_wins"),
}


def _entry_model(kind: str) -> Any:
    from tournament.championships.models import Driver as FDDriver
    from tournament.leagues.models import Driver as LeagueDriver
    from tournament.rallies.models import Driver as RallyDriver
    from tournament.tours.models import Team

    return {"tour": Team, "championship": FDDriver, "league": LeagueDriver, "rally": RallyDriver}[
        kind
    ]


def club_history(
    club: Club,
    user: Any,
    *,
    players: Iterable[int] | None = None,
    competitions: Iterable[tuple[str, int]] | None = None,
    full: bool = False,
) -> list[CompetitionHistory]:
    """The club's competitions ``user`` may see, oldest first.

    With ``players``, only the competitions those players entered, and only their entries; with
    ``competitions`` (``(kind, id)`` pairs, a season's), only those.
    """
    wanted = None if players is None else list(players)
    chosen: dict[str, list[int]] | None = None
    if competitions is not None:
        chosen = defaultdict(list)
        for kind, pk in competitions:
            chosen[kind].append(pk)
    out: list[CompetitionHistory] = []
    for kind in KINDS:
        if chosen is not None and not chosen[kind]:
            continue
        ids = None if chosen is None else chosen[kind]
        out += _load(GAMES[kind], club, user, wanted, ids, full)
    out.sort(key=lambda c: (c.created_at, KINDS.index(c.kind), c.pk))
    return out


def _load(
    game: Game,
    club: Club,
    user: Any,
    players: list[int] | None,
    ids: list[int] | None,
    full: bool,
) -> list[CompetitionHistory]:
    kind = get_kind(game.kind)
    visible = kind.competition_model.objects.visible_to(user).filter(club=club)
    if ids is not None:
        visible = visible.filter(pk__in=ids)
    entries = _entry_model(game.kind).objects.filter(**{f"{game.link}__in": visible})
    if players is not None:
        entries = entries.filter(club_player__in=players)
    competitions: dict[int, CompetitionHistory] = {}
    for entry in entries.select_related(game.link).order_by(f"{game.link}_id", "order"):
        c = getattr(entry, game.link)
        if c.pk not in competitions:
            competitions[c.pk] = CompetitionHistory(
                game.kind, c.pk, c.name, c.public, c.created_at, finished=False, resolved=0
            )
        competitions[c.pk].entries[entry.pk] = EntryHistory(
            entry.pk, entry.club_player_id, entry.name
        )
    if not competitions:
        return []
    riders = _riders(list(competitions)) if game.kind == "tour" else {}
    _read_events(game, competitions, riders)
    _read_latest(game, competitions, riders)
    if full:
        _read_snapshots(game, competitions, riders)
    return list(competitions.values())


def _riders(tour_ids: list[int]) -> dict[int, int]:
    """Rider → team, for every team of the tours (a stage place or jersey is a rider's)."""
    from tournament.tours.models import Rider

    return dict(Rider.objects.filter(team__tour_id__in=tour_ids).values_list("pk", "team_id"))


def _read_events(
    game: Game, competitions: dict[int, CompetitionHistory], riders: dict[int, int]
) -> None:
    """Finished flags, resolved counts and (not rallies) each entry's place in every event."""
    model = get_kind(game.kind).event_model
    fields = ["competition_id", "number", "status"]
    if game.kind != "rally":  # a rally's stage places are in its standings
        fields.append("results")
    statuses: dict[int, list[str]] = defaultdict(list)
    for row in model.objects.filter(competition_id__in=list(competitions)).values(*fields):
        competition = competitions[row["competition_id"]]
        statuses[competition.pk].append(row["status"])
        if row["status"] != Status.RESOLVED or game.kind == "rally":
            continue
        for result in row["results"] or []:
            entrant = result.get("rider" if game.kind == "tour" else "driver")
            place = result.get("position")
            owner = riders.get(entrant) if game.kind == "tour" else entrant
            entry = competition.entries.get(owner) if owner is not None else None
            if entry is None or not isinstance(place, int):
                continue
            # A team finishes a stage where its best rider does.
            best = entry.positions.get(row["number"])
            entry.positions[row["number"]] = place if best is None else min(best, place)
    for pk, competition in competitions.items():
        done = statuses[pk]
        competition.resolved = sum(1 for s in done if s == Status.RESOLVED)
        competition.finished = bool(done) and competition.resolved == len(done)


def _latest_fields(game: Game) -> list[str]:
    fields = ["competition_id", f"data__{game.rows}"]
    if game.kind == "tour":
        fields.append("data__jerseys")
    if game.kind == "rally":
        fields.append("data__stages")
    return fields


def _read_latest(
    game: Game, competitions: dict[int, CompetitionHistory], riders: dict[int, int]
) -> None:
    """Ranks, the winner's margin and jerseys now from each competition's latest standings."""
    model: Any = get_kind(game.kind).snapshot_model
    rows = (
        model.objects.filter(competition_id__in=list(competitions))
        .order_by("competition_id", "-number")
        .distinct("competition_id")  # PostgreSQL DISTINCT ON: the latest of each, one query
        .values(*_latest_fields(game))
    )
    for row in rows:
        competition = competitions[row["competition_id"]]
        rows_now = row[f"data__{game.rows}"] or []
        _read_rows(game, competition, rows_now)
        ranked = [r for r in rows_now if r.get("rank") is not None]
        ranked.sort(key=lambda r: r["rank"])
        if len(ranked) >= 2 and ranked[0]["rank"] == 1:
            first, second = ranked[0].get(game.score), ranked[1].get(game.score)
            if isinstance(first, int) and isinstance(second, int):
                competition.margin = (second - first) if game.lower_wins else (first - second)
        if game.kind == "tour":
            jerseys = row["data__jerseys"] or {}
            competition.jerseys_now = {j: riders.get(r) for j, r in jerseys.items() if r}
        if game.kind == "rally":
            _rally_places(competition, row["data__stages"] or [])


def _read_rows(game: Game, competition: CompetitionHistory, rows: list[dict[str, Any]]) -> None:
    """Each entry's rank and (where the standings count them) event wins."""
    for r in rows:
        key = r.get(game.key)
        entry = competition.entries.get(key) if isinstance(key, int) else None
        if entry is None:
            continue
        entry.rank = r.get("rank")
        if game.wins is not None and game.wins in r:
            entry.wins = int(r[game.wins] or 0)


def _rally_places(competition: CompetitionHistory, stages: list[dict[str, Any]]) -> None:
    """Each driver's place on every stage (the rally's latest standings list every stage)."""
    for stage in stages:
        for time in stage.get("times") or []:
            entry = competition.entries.get(time.get("driver"))
            if entry is not None and isinstance(time.get("rank"), int):
                entry.positions[stage["number"]] = time["rank"]


def _read_snapshots(
    game: Game, competitions: dict[int, CompetitionHistory], riders: dict[int, int]
) -> None:
    """The leader after each event, and for tours the stages each team held a jersey."""
    model: Any = get_kind(game.kind).snapshot_model
    key = "data__jerseys" if game.kind == "tour" else f"data__{game.rows}"
    rows = (
        model.objects.filter(competition_id__in=list(competitions))
        .order_by("competition_id", "number")
        .values_list("competition_id", key)
    )
    for competition_id, data in rows:
        competition = competitions[competition_id]
        if game.kind == "tour":
            jerseys = data or {}
            yellow = jerseys.get("yellow")
            competition.leaders.append(riders.get(yellow) if yellow is not None else None)
            for jersey, rider in jerseys.items():
                team = riders.get(rider)
                if team is not None:
                    held = competition.jersey_stages.setdefault(team, {})
                    held[jersey] = held.get(jersey, 0) + 1
            continue
        leader = next((r.get(game.key) for r in data or [] if r.get("rank") == 1), None)
        competition.leaders.append(leader)
