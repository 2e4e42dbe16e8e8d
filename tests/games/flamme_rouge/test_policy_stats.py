"""Statistics of the automatic policy over a few hundred seeded stages (bounded, ~seconds)."""

from __future__ import annotations

from games.flamme_rouge import StageRules, official_course, simulate_stage
from games.flamme_rouge.cards import card_values
from games.flamme_rouge.tables import tables_for
from tests.games.flamme_rouge.helpers import COL, setup

STAGES = 300


def test_sprinteurs_win_most_flat_stages() -> None:
    wins = sum(
        simulate_stage(setup(1, 4), seed, record_log=False).riders[0].rider_type == "sprinteur"
        for seed in range(STAGES)
    )
    assert wins > 0.6 * STAGES, wins


def test_rouleurs_win_most_mountain_stages() -> None:
    wins = sum(
        simulate_stage(setup(3, 4), seed, record_log=False).riders[0].rider_type == "rouleur"
        for seed in range(100)
    )
    assert wins > 70, wins


def test_slipstream_used_and_no_nine_wasted_on_an_ascent() -> None:
    values = card_values(3)
    mountain = official_course(3).small
    tables = tables_for(mountain, StageRules())
    wasted = nines_on_ascent = stages_with_slip = 0
    for seed in range(100):
        outcome = simulate_stage(setup(mountain, 4), seed)
        slipped = 0
        for entry in outcome.log["rounds"]:
            for row in entry["riders"]:
                slipped += row[COL["slip"]] > 0
                played, drawn, start = row[COL["played"]], row[COL["drawn"]], row[COL["from"]]
                if played is None or values[played] < 9 or "u" not in row[COL["mods"]]:
                    continue
                nines_on_ascent += 1
                # A 9 capped by the climb is wasted if a lower card in hand moved as far.
                move = tables.dest[start][values[played]]
                wasted += any(
                    values[c] < values[played] and tables.dest[start][values[c]] == move
                    for c in drawn
                )
        stages_with_slip += slipped > 0
    assert stages_with_slip >= 95, stages_with_slip
    assert wasted == 0, (wasted, nines_on_ascent)
