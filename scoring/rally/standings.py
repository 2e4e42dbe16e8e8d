"""Rally classification: stage times, Super Rally (RM-46), overall standings (RM-42 to RM-46).

:func:`rally_standings` takes the rally's drivers in entry-list order and the checked entries of
the resolved stages (1..k) and returns :class:`RallyStandings`, whose ``to_json()`` is the body of
``GET /api/rallies/{id}/standings/``. Tied times share a rank and the next rank is skipped
(1, 1, 3); tied entries are listed in entry-list order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.issues import EngineError
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import FINISHED, RETIRED, StageEntry
from scoring.tie_break import TieBreak


class RallyInputError(EngineError):
    """Stage entries that do not fit the rally (the service validates sheets first)."""


@dataclass(frozen=True, slots=True)
class RallyDriver:
    """A rally entrant: id and display name."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class StageSheet:
    """The accepted entries of one resolved stage."""

    number: int
    entries: tuple[StageEntry, ...]


@dataclass(frozen=True, slots=True)
class StageTime:
    """A driver's time on a stage; ``super_rally`` marks a retired driver's given time."""

    driver: int
    time: int
    status: str
    rank: int | None
    super_rally: bool
    tie_break: TieBreak | None = None  # RM-42: the same time as the finisher above


@dataclass(frozen=True, slots=True)
class StageClassification:
    """One stage: finishers ranked by stage time, then Super Rally times; the winners."""

    number: int
    times: tuple[StageTime, ...]
    winners: tuple[int, ...]
    retired: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The stage's part of the standings."""
        return {
            "number": self.number,
            "winner": self.winners[0] if self.winners else None,
            "winners": list(self.winners),
            "times": [
                {
                    "driver": t.driver,
                    "time": t.time,
                    "rank": t.rank,
                    "status": t.status,
                    "super_rally": t.super_rally,
                    **({} if t.tie_break is None else {"tie_break": t.tie_break.to_json()}),
                }
                for t in self.times
            ],
        }


@dataclass(frozen=True, slots=True)
class OverallRow:
    """A line of the overall classification (RM-44)."""

    rank: int | None
    driver: int
    name: str
    time: int | None
    gap: int | None
    stage_wins: int
    out_after_stage: int | None
    stage_times: tuple[int | None, ...]
    tie_break: TieBreak | None = None  # RM-44 against the row above, when level on rally time

    def to_json(self) -> dict[str, Any]:
        """The line as the API shows it."""
        out: dict[str, Any] = {
            "rank": self.rank,
            "driver": self.driver,
            "name": self.name,
            "time": self.time,
            "gap": self.gap,
            "stage_wins": self.stage_wins,
            "out_after_stage": self.out_after_stage,
        }
        if self.tie_break is not None:
            out["tie_break"] = self.tie_break.to_json()
        return out


@dataclass(frozen=True, slots=True)
class RallyStandings:
    """Standings after ``after_stage`` (None before any stage)."""

    after_stage: int | None
    drivers: tuple[RallyDriver, ...]
    overall: tuple[OverallRow, ...]
    stages: tuple[StageClassification, ...]

    @property
    def out_of_rally(self) -> frozenset[int]:
        """Drivers out of the rally (RM-46 without Super Rally): no sheet entry from now on."""
        return frozenset(r.driver for r in self.overall if r.out_after_stage is not None)

    def to_json(self) -> dict[str, Any]:
        """The body of ``GET /api/rallies/{id}/standings/``."""
        return {
            "after_stage": self.after_stage,
            "overall": [r.to_json() for r in self.overall],
            "stages": [s.to_json() for s in self.stages],
        }


def shared_ranks(keys: Sequence[Any]) -> list[int]:
    """Ranks of already-sorted keys; equal keys share the rank, the next is skipped (1, 1, 3)."""
    ranks: list[int] = []
    for i, key in enumerate(keys):
        ranks.append(ranks[-1] if i and key == keys[i - 1] else i + 1)
    return ranks


def classify_stage(
    number: int,
    entries: Sequence[StageEntry],
    order: Sequence[int],
    rules: RallyRules,
) -> StageClassification:
    """RM-42 stage ranking and RM-46 Super Rally times; ``order`` is the entry-list order."""
    position = {d: i for i, d in enumerate(order)}
    finished = sorted(
        (e for e in entries if e.status == FINISHED),
        key=lambda e: (e.stage_time, position[e.driver]),
    )
    times = [e.stage_time for e in finished]
    ranks = shared_ranks(times)
    out: list[StageTime] = [
        StageTime(
            e.driver,
            t,
            FINISHED,
            r,
            False,
            # RM-42: equal stage times share the position.
            TieBreak("shared_stage_time", "RM-42", {"rank": r})
            if i and t == times[i - 1]
            else None,
        )
        for i, (e, t, r) in enumerate(zip(finished, times, ranks, strict=True))
        if t is not None
    ]
    winners = tuple(s.driver for s in out if s.rank == 1)
    retired = [e for e in entries if e.status == RETIRED]
    if rules.super_rally and retired:
        # RM-46: the slowest (or fastest) finisher's time + the penalty, plus own penalties.
        finisher_times = [s.time for s in out]
        if not finisher_times:
            base = 0
        elif rules.super_rally_base == "slowest":
            base = max(finisher_times)
        else:
            base = min(finisher_times)
        given = sorted(
            (
                StageTime(
                    e.driver,
                    base + rules.super_rally_penalty_s + e.penalty_time,
                    RETIRED,
                    None,
                    True,
                )
                for e in retired
            ),
            key=lambda s: (s.time, position[s.driver]),
        )
        out.extend(given)
    return StageClassification(
        number,
        tuple(out),
        winners,
        tuple(sorted((e.driver for e in retired), key=position.__getitem__)),
    )


def rally_standings(
    drivers: Sequence[RallyDriver], stages: Sequence[StageSheet], rules: RallyRules
) -> RallyStandings:
    """Overall standings after the given stages (numbered 1..k, in order).

    Raises :class:`RallyInputError` when a sheet misses a driver still in the rally, lists one
    twice, lists an unknown driver or one already out.
    """
    order = [d.id for d in drivers]
    if len(set(order)) != len(order):
        raise RallyInputError("A driver is entered twice.", "duplicate_driver")
    if not stages:
        return RallyStandings(None, tuple(drivers), (), ())
    out_after: dict[int, int] = {}
    totals: dict[int, int] = dict.fromkeys(order, 0)
    per_stage: dict[int, list[int | None]] = {d: [] for d in order}
    wins: dict[int, int] = dict.fromkeys(order, 0)
    classified: list[StageClassification] = []
    for k, sheet in enumerate(stages, start=1):
        if sheet.number != k:
            raise RallyInputError(
                f"Stage {sheet.number} given as stage {k}.",
                "stage_order",
                number=sheet.number,
                expected=k,
            )
        _check_entries(sheet, order, out_after)
        stage = classify_stage(k, sheet.entries, order, rules)
        classified.append(stage)
        given = {t.driver: t.time for t in stage.times}
        for d in order:
            if d in out_after:
                per_stage[d].append(None)
                continue
            time = given.get(d)
            per_stage[d].append(time)
            if time is None:
                out_after[d] = k  # RM-46: retired without Super Rally: out of the rally
            else:
                totals[d] += time
        for w in stage.winners:
            wins[w] += 1
    names = {d.id: d.name for d in drivers}
    running = [d for d in order if d not in out_after]
    position = {d: i for i, d in enumerate(order)}

    def key(d: int) -> tuple[int, ...]:
        # RM-44: rally time, then the better stage 1 time, stage 2 time, and so on.
        return (totals[d], *(t if t is not None else 0 for t in per_stage[d]))

    running.sort(key=lambda d: (key(d), position[d]))
    ranks = shared_ranks([key(d) for d in running])
    leader = totals[running[0]] if running else 0
    rows = [
        OverallRow(
            r,
            d,
            names[d],
            totals[d],
            totals[d] - leader,
            wins[d],
            None,
            tuple(per_stage[d]),
            _overall_tie_break(per_stage, running[i - 1], d, totals, r) if i else None,
        )
        for i, (d, r) in enumerate(zip(running, ranks, strict=True))
    ]
    gone = sorted(out_after, key=lambda d: (-out_after[d], position[d]))
    rows.extend(
        OverallRow(None, d, names[d], None, None, wins[d], out_after[d], tuple(per_stage[d]))
        for d in gone
    )
    return RallyStandings(len(stages), tuple(drivers), tuple(rows), tuple(classified))


def _overall_tie_break(
    per_stage: dict[int, list[int | None]],
    above: int,
    driver: int,
    totals: dict[int, int],
    rank: int,
) -> TieBreak | None:
    """RM-44 for ``driver`` ranked after ``above``: the first stage with different times, or
    the shared rank; ``None`` when the rally times differ."""
    if totals[above] != totals[driver]:
        return None
    for number, (a, b) in enumerate(zip(per_stage[above], per_stage[driver], strict=True), 1):
        if a != b:
            params = {"stage": number, "time": a, "other_time": b}
            return TieBreak("rally_stage_time", "RM-44", params)
    return TieBreak("shared_rally_time", "RM-44", {"rank": rank})


def _check_entries(sheet: StageSheet, order: list[int], out_after: dict[int, int]) -> None:
    seen: set[int] = set()
    for e in sheet.entries:
        if e.driver not in order:
            raise RallyInputError(
                f"Driver {e.driver} is not in the rally.",
                "unknown_driver",
                driver=e.driver,
                stage=sheet.number,
            )
        if e.driver in out_after:
            raise RallyInputError(
                f"Driver {e.driver} is out of the rally.",
                "driver_out",
                driver=e.driver,
                stage=sheet.number,
            )
        if e.driver in seen:
            raise RallyInputError(
                f"Driver {e.driver} appears twice.",
                "duplicate_driver",
                driver=e.driver,
                stage=sheet.number,
            )
        if e.status == FINISHED and e.net_time is None:
            raise RallyInputError(
                f"Driver {e.driver} has no time.",
                "missing_time",
                driver=e.driver,
                stage=sheet.number,
            )
        seen.add(e.driver)
    for d in order:
        if d not in out_after and d not in seen:
            raise RallyInputError(
                f"Driver {d} has no entry.", "missing_driver", driver=d, stage=sheet.number
            )
