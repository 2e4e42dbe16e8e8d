"""Plackett–Luce fit and the seeded, chunkable Monte Carlo through the real scoring code."""

from __future__ import annotations

import numpy as np
import pytest

from scoring.forecast.grand_tour import GrandTour, grand_tour_statuses
from scoring.forecast.grand_tour_odds import (
    grand_tour_scorer,
    grand_tour_spec,
    stage_orders,
    templates_from_results,
)
from scoring.forecast.model import Forecast
from scoring.forecast.montecarlo import merge, simulate, simulate_chunk
from scoring.forecast.points import (
    PointsChampionship,
    PointsSimulation,
    dnf_counts,
    finishing_orders,
    points_scorer,
    points_spec,
    points_statuses,
)
from scoring.forecast.rally import RallyChampionship, rally_orders, rally_scorer, rally_spec
from scoring.forecast.strengths import fit_plackett_luce
from scoring.grand_tour import GrandTourRules, RiderResult, StageResults
from scoring.points import Entrant, Finish, Race, Scale
from scoring.rally.championship import ChampionshipSettings
from tests.scoring.forecast.test_rally_exact import rally
from tests.scoring.gt_builders import make_setup


def pl_orders(strengths: np.ndarray, count: int, seed: int) -> list[list[int]]:
    rng = np.random.default_rng(seed)
    return [
        np.argsort(-(strengths + rng.gumbel(size=len(strengths)))).tolist() for _ in range(count)
    ]


def test_fit_recovers_known_strengths() -> None:
    truth = np.array([1.2, 0.6, 0.0, -0.4, -1.4])
    fit = fit_plackett_luce(range(5), pl_orders(truth, 300, 1), prior_sd=3.0, recency=1.0)
    assert np.corrcoef(fit.mean, truth)[0, 1] > 0.97
    assert np.all(np.abs((fit.mean - fit.mean.mean()) - (truth - truth.mean())) < 0.35)


def test_prior_pulls_the_unseen_to_the_average_and_data_shrink_the_uncertainty() -> None:
    orders = [[0, 1, 2], [0, 2, 1], [0, 1, 2]]  # unit 3 never raced
    fit = fit_plackett_luce(range(4), orders, prior_sd=1.0)
    assert fit.mean[3] == pytest.approx(0.0)
    assert fit.sd[3] == pytest.approx(1.0)
    assert fit.mean[0] > fit.mean[1] > fit.mean[2]
    more = fit_plackett_luce(range(4), orders * 10, prior_sd=1.0)
    assert more.sd[0] < fit.sd[0]


def test_recent_events_weigh_more() -> None:
    # unit 0 won early, unit 1 won lately: with recency < 1 unit 1 is rated higher
    orders = [[0, 1, 2]] * 3 + [[1, 0, 2]] * 3
    assert fit_plackett_luce(range(3), orders, recency=1.0).mean[0] == pytest.approx(
        fit_plackett_luce(range(3), orders, recency=1.0).mean[1]
    )
    fit = fit_plackett_luce(range(3), orders, recency=0.7)
    assert fit.mean[1] > fit.mean[0]


def championship(played: int, total: int) -> PointsChampionship:
    entrants = tuple(Entrant(i + 1, f"D{i + 1}", f"T{i // 2 + 1}") for i in range(6))
    truth = np.linspace(1, -1, 6)
    races = tuple(
        Race(
            k + 1,
            tuple(
                Finish(d + 1, p + 1, "finished" if p < 5 else "eliminated")
                for p, d in enumerate(order)
            ),
        )
        for k, order in enumerate(pl_orders(truth, played, 4))
    )
    return PointsChampionship(entrants, races, Scale((10, 8, 6, 5, 4, 3), True, 1), total)


def run(champ: PointsChampionship, seed: int, sims: int, chunk: int | None = None) -> Forecast:
    fit = fit_plackett_luce([e.id for e in champ.entrants], finishing_orders(champ))
    spec = points_spec(champ, fit)
    scorer = points_scorer(champ, PointsSimulation(dnf_counts(champ.races)))
    statuses = points_statuses(champ)
    if chunk is None:
        return simulate(spec, scorer, seed=seed, simulations=sims, statuses=statuses)
    parts = [
        simulate_chunk(spec, scorer, seed=seed, chunk_index=i, chunk_size=chunk, simulations=sims)
        for i in range(-(-sims // chunk))
    ]
    return merge(spec, parts[::-1], seed=seed, statuses=statuses)


def test_same_seed_same_forecast_and_chunks_merge_to_one_run() -> None:
    champ = championship(3, 6)
    one = run(champ, 11, 500)
    assert run(champ, 11, 500) == one
    assert run(champ, 11, 500, chunk=37) == one  # chunks cut across the draw blocks
    assert run(champ, 12, 500) != one
    for odds in one.titles.values():
        assert sum(odds.probabilities) == pytest.approx(1.0)
    assert all(sum(d) == pytest.approx(1.0) for d in one.positions.values())


def test_clinched_has_exactly_one_and_eliminated_zero() -> None:
    champ = championship(5, 6)
    forecast = run(champ, 3, 300)
    statuses = points_statuses(champ)
    for title, odds in forecast.titles.items():
        for entrant, p, status in zip(
            odds.entrants, odds.probabilities, odds.statuses, strict=True
        ):
            assert status == statuses[title].status_of(entrant)
            if status == "clinched":
                assert p == 1.0
            if status == "eliminated":
                assert p == 0.0


def test_equal_entrants_have_equal_odds_before_any_result() -> None:
    entrants = tuple(Entrant(i + 1, f"D{i + 1}") for i in range(4))
    champ = PointsChampionship(entrants, (), Scale((10, 8, 6, 5)), 3)
    forecast = run(champ, 5, 4000)
    probabilities = np.array(forecast.titles["drivers"].probabilities)
    # binomial sd at p = 0.25, n = 4000 is 0.0068: allow four of them
    assert np.all(np.abs(probabilities - 0.25) < 0.028)
    assert all(s == "open" for s in forecast.titles["drivers"].statuses)


def test_stronger_entrant_is_favoured() -> None:
    forecast = run(championship(4, 8), 9, 1000)
    p = forecast.titles["drivers"].probabilities
    assert p[0] + p[1] > p[4] + p[5]


def test_rally_championship_simulation() -> None:
    names = ("Ana", "Eva", "Rui")
    rules = ChampionshipSettings(points=(10, 6, 4), power_stage=True, power_stage_points=(3, 1))
    history = (rally(names, [[0], [1], [2]], [], [[0], [2]]),)
    champ = RallyChampionship(history, rules, 3, names, super_rally=False)
    fit = fit_plackett_luce(range(3), rally_orders(champ))
    spec = rally_spec(champ, fit)
    forecast = simulate(spec, rally_scorer(champ, (0, 1)), seed=1, simulations=300)
    assert sum(forecast.titles["drivers"].probabilities) == pytest.approx(1.0)
    assert forecast.titles["drivers"].probabilities[0] > forecast.titles["drivers"].probabilities[2]


def test_grand_tour_simulation_through_stage_templates() -> None:
    setup = make_setup(teams=3, stages=5)
    rng = np.random.default_rng(2)
    riders = [r.id for r in setup.riders]
    stages = []
    for n in range(1, 4):
        order = [riders[i] for i in rng.permutation(len(riders))]
        stages.append(
            StageResults(
                n,
                tuple(
                    RiderResult(r, p + 1, p // 2, 0, (4, 3, 2, 0, 0, 0)[p], (0, 0, 3, 1, 0, 0)[p])
                    for p, r in enumerate(order)
                ),
            )
        )
    tour = GrandTour(setup, tuple(stages), GrandTourRules(timing_tile=False))
    fit = fit_plackett_luce(riders, stage_orders(tour))
    spec = grand_tour_spec(tour, fit)
    pools = [templates_from_results(tour.stages)] * 2
    statuses = grand_tour_statuses(tour)
    forecast = simulate(
        spec, grand_tour_scorer(tour, pools), seed=4, simulations=300, statuses=statuses
    )
    assert set(forecast.titles) == {"yellow", "green", "polka_dot", "team", "tour_points"}
    for odds in forecast.titles.values():
        assert sum(odds.probabilities) == pytest.approx(1.0)
    assert forecast.main == "yellow"
    assert len(forecast.positions) == len(riders)


def test_a_finished_competition_forecasts_its_final_standings() -> None:
    champ = championship(4, 4)
    forecast = run(champ, 1, 50)
    winner = champ.standings().drivers[0].driver
    odds = forecast.titles["drivers"]
    assert dict(zip(odds.entrants, odds.probabilities, strict=True))[winner] == 1.0
    assert sum(odds.probabilities) == 1.0
    setup = make_setup(teams=2, stages=1)
    riders = [r.id for r in setup.riders]
    stage = StageResults(1, tuple(RiderResult(r, p + 1, p, 0) for p, r in enumerate(riders)))
    tour = GrandTour(setup, (stage,), GrandTourRules(timing_tile=False))
    spec = grand_tour_spec(tour, fit_plackett_luce(riders, stage_orders(tour)))
    done = simulate(
        spec,
        grand_tour_scorer(tour, []),
        seed=1,
        simulations=20,
        statuses=grand_tour_statuses(tour),
    )
    assert done.titles["yellow"].probabilities[0] == 1.0
    assert done.positions[riders[0]][0] == 1.0
