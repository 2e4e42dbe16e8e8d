"""A single rally's ``overall`` title: statuses and a simulation scorer, through
:func:`scoring.rally.rally_standings` (RM-42 to RM-46).

``overall`` is decided by time, and a stage time has no upper bound: every driver still in the
rally is ``open`` until the last stage (``time_title``). A driver out of the rally (retired
without Super Rally, RM-46) can no longer be classified: ``eliminated`` (``out_of_rally``).
After the last stage the rally's winner is ``clinched`` and everyone else ``eliminated``; a
shared first place (RM-44 ties every stage time too) leaves its holders ``open``, 1/k each.

A simulated stage draws a finishing order from the strengths and a *template* (one of the
rally's resolved stages: its finishers' stage times in order and how many retired); the p-th
of the order takes the template's time at the same relative place, and as many of the last as
the template had retirements, scaled to the drivers still running, retire. With no resolved
stage yet the template is one second a place (the order alone decides).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from scoring.forecast.model import EntrantStatus, Reason, Status, TitleStatus, ordinal
from scoring.forecast.montecarlo import Scorer, SimulationSpec
from scoring.forecast.strengths import Strengths
from scoring.rally import RallyDriver, StageEntry, StageSheet, rally_standings
from scoring.rally.rules import RallyRules
from scoring.rally.sheet import FINISHED, RETIRED
from scoring.rally.standings import RallyStandings

TITLE = "overall"


@dataclass(frozen=True)
class StageTemplate:
    """A resolved stage by place: its finishers' stage times, fastest first, and retirements."""

    times: tuple[int, ...]
    retired: int = 0


@dataclass(frozen=True)
class SingleRally:
    """A rally as the scoring code sees it: resolved stages 1..k of ``total_stages``."""

    drivers: tuple[RallyDriver, ...]
    sheets: tuple[StageSheet, ...]
    rules: RallyRules
    total_stages: int

    @property
    def events_left(self) -> int:
        return self.total_stages - len(self.sheets)

    def now(self) -> RallyStandings:
        return rally_standings(self.drivers, self.sheets, self.rules)

    def running(self) -> tuple[int, ...]:
        """Indices (entry order) of the drivers still in the rally."""
        out = self.now().out_of_rally
        return tuple(i for i, d in enumerate(self.drivers) if d.id not in out)


def _ranks(rally: SingleRally, standings: RallyStandings) -> list[int]:
    """Rank of each driver (entry order); the unclassified rank after the classified, in
    the order the standings list them."""
    index = {d.id: i for i, d in enumerate(rally.drivers)}
    ranks = [1] * len(rally.drivers)  # before any stage everyone is level
    for place, row in enumerate(standings.overall, start=1):
        ranks[index[row.driver]] = row.rank if row.rank is not None else place
    return ranks


def single_rally_statuses(rally: SingleRally) -> dict[str, TitleStatus]:
    """Exact statuses of ``overall`` (see the module's docstring)."""
    now = rally.now()
    left = rally.events_left
    rows = {r.driver: r for r in now.overall}
    entrants = []
    holders = [r.driver for r in now.overall if r.rank == 1]
    for d in rally.drivers:
        row = rows.get(d.id)
        if row is not None and row.out_after_stage is not None:
            reason = Reason("out_of_rally", {"entrant": d.name, "stage": row.out_after_stage})
            entrants.append(EntrantStatus(d.id, d.name, "eliminated", reason))
        elif left > 0 or row is None:
            reason = Reason("time_title", {"events_left": left, "event_noun": "stage"})
            entrants.append(EntrantStatus(d.id, d.name, "open", reason))
        elif row.rank == 1 and len(holders) > 1:
            entrants.append(EntrantStatus(d.id, d.name, "open", Reason("shared", {})))
        else:
            status: Status = "clinched" if row.rank == 1 else "eliminated"
            reason = Reason(
                "decided",
                {"entrant": d.name, "rank": ordinal(row.rank or 0), "event_noun": "stage"},
            )
            entrants.append(EntrantStatus(d.id, d.name, status, reason))
    return {TITLE: TitleStatus(TITLE, left, tuple(entrants))}


def stage_templates(rally: SingleRally) -> tuple[StageTemplate, ...]:
    """The rally's resolved stages as templates (its own stage times)."""
    now = rally.now()
    out = []
    for stage in now.stages:
        times = tuple(t.time for t in stage.times if t.status == FINISHED)
        retired = len(stage.retired)
        if times:
            out.append(StageTemplate(times, retired))
    return tuple(out)


def stage_orders(rally: SingleRally) -> list[list[int]]:
    """Each resolved stage's order (driver ids): finishers by time, then the retired; the
    input of the strength fit."""
    orders = []
    for stage in rally.now().stages:
        finished = [t.driver for t in stage.times if t.status == FINISHED]
        orders.append(finished + list(stage.retired))
    return orders


def _entries(ids: Sequence[int], template: StageTemplate) -> tuple[StageEntry, ...]:
    n = len(ids)
    size = len(template.times) + template.retired
    retired = min(n - 1, round(template.retired * n / size)) if size and n else 0
    finishers = n - retired
    times = template.times
    entries = []
    for p, driver in enumerate(ids):
        if p >= finishers:
            entries.append(StageEntry(driver, RETIRED))
            continue
        at = round(p * (len(times) - 1) / max(finishers - 1, 1)) if len(times) > 1 else 0
        entries.append(StageEntry(driver, FINISHED, times[at] if times else 600 + p))
    return tuple(entries)


def single_rally_scorer(rally: SingleRally, templates: Sequence[StageTemplate] = ()) -> Scorer:
    """A scorer for :func:`scoring.forecast.montecarlo.simulate` (units: the drivers in entry
    order): each remaining stage's order, filtered to the drivers still running, takes a
    template's times; ranks of ``overall`` come from :func:`scoring.rally.rally_standings`."""
    pool = tuple(templates) or (StageTemplate(tuple(range(600, 600 + len(rally.drivers)))),)
    ids = [d.id for d in rally.drivers]
    first = len(rally.sheets) + 1
    super_rally = rally.rules.super_rally
    start_out = rally.now().out_of_rally

    def score(
        orders: Sequence[np.ndarray], uniforms: np.ndarray, theta: np.ndarray
    ) -> dict[str, list[int]]:
        out = set(start_out)
        sheets = list(rally.sheets)
        for k, order in enumerate(orders):
            running = [ids[u] for u in order.tolist() if ids[u] not in out]
            template = pool[int(uniforms[k, 0] * len(pool))]
            entries = _entries(running, template)
            if not super_rally:
                out.update(e.driver for e in entries if e.status == RETIRED)
            sheets.append(StageSheet(first + k, entries))
        standings = rally_standings(rally.drivers, sheets, rally.rules)
        return {TITLE: _ranks(rally, standings)}

    return score


def single_rally_spec(rally: SingleRally, strengths: Strengths) -> SimulationSpec:
    """The remaining stages (every driver still running entered); main classification
    ``overall``."""
    if tuple(strengths.units) != tuple(d.id for d in rally.drivers):
        raise ValueError("strengths must be fitted on the rally's drivers in entry order")
    running = rally.running()
    titles = {TITLE: tuple(d.id for d in rally.drivers)}
    return SimulationSpec(strengths, (running,) * rally.events_left, titles, TITLE, 1)


__all__ = [
    "SingleRally",
    "StageTemplate",
    "single_rally_scorer",
    "single_rally_spec",
    "single_rally_statuses",
    "stage_orders",
    "stage_templates",
]
