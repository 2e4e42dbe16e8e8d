"""Stage templates of a Grand Tour's remaining stages: the simulator's runs over each course,
made once per course and field of teams and kept (:class:`~.models.StageTemplates`), plus the
tour's own resolved stages on the same course; a stage without a course draws from the tour's
resolved stages, or, before any, from evenly spaced times with no tokens."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games.flamme_rouge import (
    FlammeRougeError,
    RiderEntry,
    Stack,
    StageSetup,
    TeamEntry,
    simulate_stage,
)
from games.flamme_rouge.rules import StageRules
from scoring.forecast.grand_tour_odds import StageTemplate, templates_from_results
from scoring.grand_tour import StageResults, TourSetup
from tournament.forecasts.models import StageTemplates

log = logging.getLogger(__name__)

Line = tuple[int, int, int, int | None]


def template_runs() -> int:
    """Simulator runs per course (``PODIUM_FORECAST_TEMPLATE_RUNS``, default 200)."""
    return int(getattr(settings, "PODIUM_FORECAST_TEMPLATE_RUNS", 200))


def _entries(setup: TourSetup) -> tuple[TeamEntry, ...]:
    return tuple(
        TeamEntry(team.id, tuple(RiderEntry(r.id, r.role) for r in team.riders))
        for team in setup.teams
    )


def _stacks(stacks: Sequence[dict[str, Any]]) -> tuple[Stack, ...]:
    return tuple(
        Stack(id=s["id"], type=s["type"], side=s["side"], square=s["square"]) for s in stacks
    )


def _key(
    course: str, setup: TourSetup, stacks: Any, dummy: str, rules: StageRules, runs: int
) -> str:
    field = [[r.role for r in t.riders] for t in setup.teams]
    raw = json.dumps(
        [course, field, stacks, dummy, repr(rules), runs],
        sort_keys=True,
        default=str,
    )
    return hashlib.sha256(raw.encode()).hexdigest()


def simulator_runs(
    course: str,
    setup: TourSetup,
    stacks: Sequence[dict[str, Any]],
    dummy: str,
    rules: StageRules,
    runs: int,
) -> list[list[Line]]:
    """``runs`` simulator runs over ``course`` with the tour's field (cached; the first call
    plays them, seeded from the course so every worker makes the same)."""
    key = _key(course, setup, list(stacks), dummy, rules, runs)
    stored = StageTemplates.objects.filter(key=key).values_list("runs", flat=True).first()
    if stored is not None:
        return [[tuple(line) for line in run] for run in stored]
    entries = _entries(setup)
    made: list[list[Line]] = []
    base = int(key[:8], 16)
    for i in range(runs):
        stage = StageSetup(course, entries, _stacks(stacks), dummy_teams=dummy, rules=rules)
        try:
            outcome = simulate_stage(stage, base + i, record_log=False)
        except FlammeRougeError:
            log.warning("the simulator cannot play course %r; no templates from it", course)
            return []
        made.append(
            [
                (r.time_s, r.sprint_points, r.mountain_points, r.exhaustion_end)
                for r in outcome.riders
                if not r.is_dummy
            ]
        )
    try:
        with transaction.atomic():
            StageTemplates.objects.create(key=key, course=course[:200], runs=made)
    except IntegrityError:
        pass  # another worker stored the same runs first
    return made


def _spaced(riders: int) -> StageTemplate:
    return StageTemplate(tuple((10 * p, 0, 0, None) for p in range(riders)))


def tour_pools(
    setup: TourSetup,
    stages: Sequence[StageResults],
    courses: Sequence[tuple[str, Sequence[dict[str, Any]]]],
    dummy: str,
    rules: StageRules,
    played_courses: Sequence[str],
) -> list[tuple[StageTemplate, ...]]:
    """One template pool per remaining stage, ``courses[i]`` its (course, stacks)."""
    riders = len(setup.riders)
    own = templates_from_results(stages)
    runs = template_runs()
    pools: list[tuple[StageTemplate, ...]] = []
    for course, stacks in courses:
        pool: list[StageTemplate] = []
        if course:
            pool += [
                StageTemplate(tuple(run))
                for run in simulator_runs(course, setup, stacks, dummy, rules, runs)
                if len(run) == riders
            ]
            pool += [t for t, c in zip(own, played_courses, strict=False) if c == course]
        if not pool:
            pool = [t for t in own if len(t.rows) == riders] or [_spaced(riders)]
        pools.append(tuple(pool))
    return pools
