"""Ranking the classifications, awarding jerseys, Rest Day leaders and end-of-tour bonuses.

Each function takes the running totals after a stage and that stage's finishing positions, which
break every tie (GT-5.5): a rider ranks ahead of an equal who crossed the line later in the most
recent stage, a team ahead of an equal whose better-placed rider crossed later. Positions are
unique, so ranks are 1..n and never shared, whatever order the input came in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scoring.grand_tour.model import (
    Rider,
    RiderPointsRow,
    RiderTimeRow,
    Team,
    TeamTimeRow,
)
from scoring.grand_tour.rules import GrandTourRules
from scoring.tie_break import TieBreak

#: GT-5.5's rule number, cited by every Grand Tour tie-break.
TIE_RULE = "GT-5.5"


def stage_tie_breaks(
    code: str,
    stage: int | None,
    ordered: Sequence[int],
    figure: Mapping[int, int],
    place: Mapping[int, int],
) -> list[TieBreak | None]:
    """GT-5.5 for each of ``ordered`` (ids, ranked) level with the one above on ``figure``:
    the two places on ``stage`` that separated them (``place``); ``None`` for the others.

    Without a stage number (a bare ranking) there are none.
    """
    out: list[TieBreak | None] = [None] * len(ordered)
    if stage is None:
        return out
    for i in range(1, len(ordered)):
        above, this = ordered[i - 1], ordered[i]
        if figure[above] == figure[this]:
            params = {"stage": stage, "place": place[above], "other_place": place[this]}
            out[i] = TieBreak(code, TIE_RULE, params)
    return out


def rank_general(
    riders: Sequence[Rider],
    time: Mapping[int, int],
    position: Mapping[int, int],
    *,
    stage: int | None = None,
) -> tuple[RiderTimeRow, ...]:
    """GT-5.1: lowest total time first; gaps from the leader.

    With ``stage`` (the number of the stage ``position`` comes from), a rider level on time with
    the one above carries the GT-5.5 tie-break that put him there.
    """
    ordered = sorted(riders, key=lambda r: (time[r.id], position[r.id]))
    if not ordered:
        return ()
    lead = time[ordered[0].id]
    ids = [r.id for r in ordered]
    breaks = stage_tie_breaks("gt_time_stage_place", stage, ids, time, position)
    return tuple(
        RiderTimeRow(
            rank=rank,
            rider=r.id,
            name=r.name,
            team=r.team_id,
            time=time[r.id],
            gap=time[r.id] - lead,
            tie_break=breaks[rank - 1],
        )
        for rank, r in enumerate(ordered, start=1)
    )


def rank_points(
    riders: Sequence[Rider],
    points: Mapping[int, int],
    position: Mapping[int, int],
    *,
    stage: int | None = None,
) -> tuple[RiderPointsRow, ...]:
    """GT-5.2/5.3: most points first; riders without points too (GT-5.6); ``stage`` as in
    :func:`rank_general`."""
    ordered = sorted(riders, key=lambda r: (-points[r.id], position[r.id]))
    ids = [r.id for r in ordered]
    breaks = stage_tie_breaks("gt_points_stage_place", stage, ids, points, position)
    return tuple(
        RiderPointsRow(
            rank=rank,
            rider=r.id,
            name=r.name,
            team=r.team_id,
            points=points[r.id],
            tie_break=breaks[rank - 1],
        )
        for rank, r in enumerate(ordered, start=1)
    )


def best_position(teams: Sequence[Team], position: Mapping[int, int]) -> dict[int, int]:
    """Each team's better-placed rider in the stage: the team's GT-5.5 tie-break."""
    return {t.id: min(position[r.id] for r in t.riders) for t in teams}


def rank_teams(
    teams: Sequence[Team],
    time: Mapping[int, int],
    best: Mapping[int, int],
    *,
    stage: int | None = None,
) -> tuple[TeamTimeRow, ...]:
    """GT-5.4: lowest sum of both riders' total times first; ``stage`` as in
    :func:`rank_general` (a team's place is its better-placed rider's)."""
    totals = {t.id: sum(time[r.id] for r in t.riders) for t in teams}
    ordered = sorted(teams, key=lambda t: (totals[t.id], best[t.id]))
    if not ordered:
        return ()
    lead = totals[ordered[0].id]
    ids = [t.id for t in ordered]
    breaks = stage_tie_breaks("gt_team_time_stage_place", stage, ids, totals, best)
    return tuple(
        TeamTimeRow(
            rank=rank,
            team=t.id,
            name=t.name,
            time=totals[t.id],
            gap=totals[t.id] - lead,
            tie_break=breaks[rank - 1],
        )
        for rank, t in enumerate(ordered, start=1)
    )


def _first_unclothed(
    rows: Sequence[RiderPointsRow], worn: set[int], needs_points: bool
) -> int | None:
    for row in rows:
        if row.rider in worn:
            continue
        # GT-6.3: rows are sorted by points, so once one is at zero no later one has points.
        if needs_points and row.points <= 0:
            return None
        return row.rider
    return None


def award_jerseys(
    general: Sequence[RiderTimeRow],
    sprint: Sequence[RiderPointsRow],
    mountain: Sequence[RiderPointsRow],
    rules: GrandTourRules,
) -> dict[str, int | None]:
    """GT-6: Yellow, Green and Polka Dot wearers, one jersey per rider, priority GC > SC > MC."""
    yellow = general[0].rider if general else None
    worn = {yellow} if yellow is not None else set()
    green = _first_unclothed(sprint, worn, rules.jersey_needs_points)
    if green is not None:
        worn.add(green)
    polka = _first_unclothed(mountain, worn, rules.jersey_needs_points)
    return {"yellow": yellow, "green": green, "polka_dot": polka}


def rest_day_awards(
    general: Sequence[RiderTimeRow],
    sprint: Sequence[RiderPointsRow],
    mountain: Sequence[RiderPointsRow],
    rules: GrandTourRules,
) -> tuple[tuple[str, int], ...]:
    """GT-8.1: the leader of each of GC, SC and MC (not the jersey wearer), one award each.

    A Sprint or Mountain leader needs points while ``jersey_needs_points`` holds.
    """
    awards: list[tuple[str, int]] = []
    if general:
        awards.append(("general", general[0].rider))
    for name, rows in (("sprint", sprint), ("mountain", mountain)):
        if rows and (rows[0].points > 0 or not rules.jersey_needs_points):
            awards.append((name, rows[0].rider))
    return tuple(awards)


def classification_bonus(
    teams: Sequence[Team],
    stage_count: int,
    general: Sequence[RiderTimeRow],
    sprint: Sequence[RiderPointsRow],
    mountain: Sequence[RiderPointsRow],
    team: Sequence[TeamTimeRow],
    rules: GrandTourRules,
) -> dict[int, int]:
    """GT-9.1: end-of-tour TP per team from its riders' and its own final ranks."""
    table = rules.classification_tp
    column = table.column(stage_count, len(teams))
    bonus = {t.id: 0 for t in teams}
    for row, value in zip(general, table.general[column], strict=False):
        bonus[row.team] += value
    for rows, values in ((sprint, table.sprint[column]), (mountain, table.mountain[column])):
        for points_row, value in zip(rows, values, strict=False):
            # GT-9.1 (GT-6.3's parameter): no Sprint or Mountain bonus without points.
            if rules.jersey_needs_points and points_row.points <= 0:
                break
            bonus[points_row.team] += value
    for team_row, value in zip(team, table.team[column], strict=False):
        bonus[team_row.team] += value
    return bonus


__all__ = [
    "award_jerseys",
    "best_position",
    "classification_bonus",
    "rank_general",
    "rank_points",
    "rank_teams",
    "rest_day_awards",
    "stage_tie_breaks",
]
