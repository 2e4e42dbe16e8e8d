"""Grand Tour statuses: green and polka dot against brute force, Tour Points checked for
soundness on sampled endings, time titles open until the last stage."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.forecast.grand_tour import GrandTour, StageTokens, grand_tour_statuses
from scoring.grand_tour import GrandTourRules, RiderResult, StageResults, compute_standings
from tests.scoring.gt_builders import make_setup

RULES = GrandTourRules(timing_tile=False)
LIMIT = 1500


def random_stage(rng: random.Random, riders: list[int], number: int) -> StageResults:
    order = riders[:]
    rng.shuffle(order)
    rows, clock = [], 0
    for position, rider in enumerate(order, start=1):
        clock += rng.choice([0, 10, 60])
        rows.append(
            RiderResult(
                rider,
                position,
                clock // 60,
                clock % 60,
                rng.choice([0, 0, 2, 4]),
                rng.choice([0, 0, 1, 3]),
            )
        )
    return StageResults(number, tuple(rows))


def deals(values: Sequence[int], riders: Sequence[int], lost: bool) -> Iterator[dict[int, int]]:
    """Every way a stack's tokens go to distinct riders (GT-3.2); with ``lost``, to dummies too."""
    taken = list(values[: len(riders)]) if not lost else list(values)
    choices: list[int | None] = [*riders, None] if lost else list(riders)
    for pick in itertools.product(choices, repeat=len(taken)):
        named = [p for p in pick if p is not None]
        if len(named) != len(set(named)):
            continue
        if not lost and len(named) != len(taken):
            continue
        out: dict[int, int] = {}
        for value, rider in zip(taken, pick, strict=True):
            if rider is not None:
                out[rider] = out.get(rider, 0) + value
        yield out


def stage_points(
    stacks: Sequence[Sequence[int]], riders: list[int], lost: bool
) -> list[dict[int, int]]:
    options: list[dict[int, int]] = [{}]
    for values in stacks:
        options = [
            {k: a.get(k, 0) + b.get(k, 0) for k in set(a) | set(b)}
            for a in options
            for b in deals(values, riders, lost)
        ]
    return options


@st.composite
def tours(draw: st.DrawFn) -> tuple[GrandTour, str]:
    kind = draw(st.sampled_from(["sprint", "mountain"]))
    played = draw(st.integers(0, 3))
    left = draw(st.integers(1, 2))
    setup = make_setup(teams=2, stages=played + left, seed=draw(st.integers(0, 99)))
    rng = random.Random(draw(st.integers(0, 10_000)))
    riders = [r.id for r in setup.riders]
    stages = tuple(random_stage(rng, riders, n) for n in range(1, played + 1))
    lost = draw(st.booleans())
    tokens = []
    for _ in range(left):
        stacks = tuple(
            tuple(
                sorted(
                    draw(st.lists(st.sampled_from([5, 4, 3, 2, 1]), min_size=1, max_size=3)),
                    reverse=True,
                )
            )
            for _ in range(draw(st.integers(0, 2)))
        )
        tokens.append(
            StageTokens(sprint=stacks) if kind == "sprint" else StageTokens(mountain=stacks)
        )
    tour = GrandTour(setup, stages, RULES, tuple(tokens), tokens_may_be_lost=lost)
    return tour, kind


def brute_force(tour: GrandTour, kind: str) -> dict[int, set[bool]] | None:
    """Who can win the points title over every token deal and every final stage order (the
    only parts of an ending that this classification reads: GT-5.2, GT-5.3, GT-5.5)."""
    riders = [r.id for r in tour.setup.riders]
    per_stage = []
    for i in range(tour.events_left):
        t = tour.tokens_of(i)
        per_stage.append(
            stage_points(
                t.sprint if kind == "sprint" else t.mountain, riders, tour.tokens_may_be_lost
            )
        )
    size = len(list(itertools.permutations(riders)))
    for p in per_stage:
        size *= len(p)
    if size > LIMIT:
        return None
    wins: dict[int, set[bool]] = {r: set() for r in riders}
    previous = tour.now() if tour.stages else None
    first = len(tour.stages) + 1
    for combo in itertools.product(*per_stage):
        for last in itertools.permutations(riders):
            stages = []
            for i, points in enumerate(combo):
                order = list(last) if i == len(combo) - 1 else riders
                stages.append(
                    StageResults(
                        first + i,
                        tuple(
                            RiderResult(
                                r,
                                p + 1,
                                0,
                                0,
                                points.get(r, 0) if kind == "sprint" else 0,
                                points.get(r, 0) if kind == "mountain" else 0,
                            )
                            for p, r in enumerate(order)
                        ),
                    )
                )
            final = compute_standings(tour.setup, stages, RULES, previous=previous, last_only=True)[
                0
            ]
            rows = final.sprint if kind == "sprint" else final.mountain
            for row in rows:
                wins[row.rider].add(row.rank == 1)
    return wins


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,  # the same examples every run: a bounded, repeatable cost
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(tours())
def test_points_titles_match_brute_force(case: tuple[GrandTour, str]) -> None:
    tour, kind = case
    truth = brute_force(tour, kind)
    if truth is None:
        return
    title = "green" if kind == "sprint" else "polka_dot"
    for row in grand_tour_statuses(tour)[title].entrants:
        outcomes = truth[int(str(row.entrant))]
        expected = (
            "clinched" if outcomes == {True} else "eliminated" if True not in outcomes else "open"
        )
        assert row.status == expected, (row, outcomes)
        assert row.exact


def sampled_endings(
    tour: GrandTour, rng: random.Random, count: int
) -> Iterator[list[StageResults]]:
    riders = [r.id for r in tour.setup.riders]
    first = len(tour.stages) + 1
    for _ in range(count):
        stages = []
        for i in range(tour.events_left):
            order = riders[:]
            rng.shuffle(order)
            t = tour.tokens_of(i)
            sprint = rng.choice(stage_points(t.sprint, riders, tour.tokens_may_be_lost))
            mountain = rng.choice(stage_points(t.mountain, riders, tour.tokens_may_be_lost))
            rows, clock = [], 0
            for p, r in enumerate(order, start=1):
                clock += rng.choice([0, 1, 5, 1000])
                rows.append(RiderResult(r, p, clock, 0, sprint.get(r, 0), mountain.get(r, 0)))
            stages.append(StageResults(first + i, tuple(rows)))
        yield stages


@settings(max_examples=15, deadline=None, derandomize=True)
@given(
    st.integers(2, 3), st.integers(0, 4), st.integers(1, 2), st.integers(0, 10_000), st.booleans()
)
def test_tour_points_statuses_hold_on_sampled_endings(
    teams: int, played: int, left: int, seed: int, rest: bool
) -> None:
    setup = make_setup(
        teams=teams, stages=played + left, rest_days=(played,) if rest and played else (), seed=seed
    )
    rng = random.Random(seed)
    riders = [r.id for r in setup.riders]
    stages = tuple(random_stage(rng, riders, n) for n in range(1, played + 1))
    tokens = (StageTokens(((4, 3, 2),), ((3, 1),)),) * left
    tour = GrandTour(setup, stages, RULES, tokens)
    status = grand_tour_statuses(tour)["tour_points"]
    previous = tour.now() if stages else None
    for ending in sampled_endings(tour, rng, 60):
        final = compute_standings(setup, ending, RULES, previous=previous, last_only=True)[0]
        winner = final.tour_points[0].team
        for row in status.entrants:
            if row.status == "clinched":
                assert winner == row.entrant
            if row.status == "eliminated":
                assert winner != row.entrant
    for row in status.entrants:
        if row.status == "open" and row.exact:
            assert row.scenario is not None


def test_time_titles_open_until_the_last_stage_then_decided() -> None:
    setup = make_setup(teams=2, stages=2)
    rng = random.Random(3)
    riders = [r.id for r in setup.riders]
    one = (random_stage(rng, riders, 1),)
    tour = GrandTour(setup, one, RULES)
    for title in ("yellow", "team"):
        assert {r.status for r in grand_tour_statuses(tour)[title].entrants} == {"open"}
    done = GrandTour(setup, (*one, random_stage(rng, riders, 2)), RULES)
    final = compute_standings(setup, done.stages, RULES)[-1]
    yellow = grand_tour_statuses(done)["yellow"].by_entrant()
    assert yellow[final.general[0].rider].status == "clinched"
    assert sum(1 for r in yellow.values() if r.status == "eliminated") == len(riders) - 1
