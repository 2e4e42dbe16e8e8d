"""compute_standings(previous=tally_races(...)), the forecasts' fast path, equals the full
computation (scoring/points/championship.py): drop-worst, finishers-only, bonuses, drivers
missing from races, non-finishers, countback and recent-race tie-breaks, teams."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from scoring.points import (
    Entrant,
    Finish,
    Race,
    Scale,
    compute_standings,
    snapshots,
    tally_races,
)


@dataclass(frozen=True)
class Championship:
    entrants: tuple[Entrant, ...]
    races: tuple[Race, ...]
    scale: Scale


@st.composite
def championships(draw: st.DrawFn) -> Championship:
    count = draw(st.integers(1, 6))
    # few teams and a short points table: many ties, so every tie-break is reached
    teams = draw(st.lists(st.sampled_from([None, "Red", "Blue", "Green"]), min_size=count))
    entrants = tuple(Entrant(10 + i, f"D{i}", teams[i]) for i in range(count))
    races = []
    for number in range(1, draw(st.integers(0, 6)) + 1):
        # some drivers sit a race out; a stranger's finish is ignored but takes a place
        field = draw(st.permutations([e.id for e in entrants] + [99]))
        field = field[: draw(st.integers(0, len(field)))]
        out = draw(st.integers(0, len(field)))
        finishes = tuple(
            Finish(
                driver,
                place,
                "finished" if place <= len(field) - out else draw(st.sampled_from(["dnf", "x"])),
                draw(st.sampled_from([0, 0, 1, 3])),  # FD-72's pole, a league's bonus
            )
            for place, driver in enumerate(field, start=1)
        )
        races.append(Race(number, finishes))
    points = draw(st.lists(st.integers(0, 6), min_size=1, max_size=5))
    scale = Scale(tuple(sorted(points, reverse=True)), draw(st.booleans()), draw(st.integers(0, 3)))
    return Championship(entrants, tuple(races), scale)


@settings(max_examples=50, deadline=None)
@given(championships(), st.data())
def test_resumed_standings_equal_the_full_computation(
    champ: Championship, data: st.DataObject
) -> None:
    entrants, races, scale = champ.entrants, champ.races, champ.scale
    full = compute_standings(entrants, races, scale)
    # --hypothesis-show-statistics counts the tie-breaks the examples reach
    for tie_break in [d.tie_break for d in full.drivers] + [t.tie_break for t in full.teams]:
        event(tie_break.code if tie_break else "no tie-break")
    cut = data.draw(st.integers(0, len(races)), label="played")
    played = tally_races(entrants, races[:cut], scale)
    assert compute_standings(entrants, races[cut:], scale, previous=played) == full
    # a tally extended by a tally: the same figures as one made in one go
    later = data.draw(st.integers(cut, len(races)), label="later")
    extended = tally_races(entrants, races[cut:later], scale, previous=played)
    assert extended == tally_races(entrants, races[:later], scale)
    assert compute_standings(entrants, races[later:], scale, previous=extended) == full
    after = data.draw(st.integers(cut, len(races)), label="after_race")
    assert compute_standings(
        entrants, races[cut:], scale, previous=played, after_race=after
    ) == compute_standings(entrants, races, scale, after_race=after)
    # the snapshots, one pass over a growing tally, are each race's full computation
    progression: dict[int, list[int]] = {}
    for k, document in enumerate(snapshots(entrants, races, scale), start=1):
        fresh = compute_standings(entrants, races[:k], scale)
        expected = fresh.to_json()
        for row, standing in zip(expected["drivers"], fresh.drivers, strict=True):
            progression.setdefault(standing.driver, []).append(standing.points)
            row["race_points"] = list(standing.race_totals)
            row["dropped"] = list(standing.dropped)
            row["progression"] = progression[standing.driver]
        assert document == expected


def test_a_tally_of_other_entrants_or_scale_or_later_races_is_refused() -> None:
    entrants = (Entrant(1, "Ana", "Red"), Entrant(2, "Rui", "Red"))
    races = [Race(n, (Finish(1, 1), Finish(2, 2))) for n in (1, 2, 3)]
    scale = Scale((3, 1), drop_worst=1)
    played = tally_races(entrants, races[:2], scale)
    standings: Any = compute_standings(entrants, races[2:], scale, previous=played)
    assert [(d.driver, d.points, d.dropped) for d in standings.drivers] == [
        (1, 6, (1,)),
        (2, 2, (1,)),
    ]
    assert [(t.team, t.points) for t in standings.teams] == [("Red", 12)]  # FD-77: no drops
    with pytest.raises(ValueError, match="other entrants"):
        compute_standings(entrants[:1], races[2:], scale, previous=played)
    with pytest.raises(ValueError, match="another scale"):
        compute_standings(entrants, races[2:], Scale((3, 1)), previous=played)
    with pytest.raises(ValueError, match="before the tally's last race"):
        compute_standings(entrants, races[:1], scale, previous=played)
    with pytest.raises(ValueError, match="past race 1"):
        compute_standings(entrants, races[2:], scale, previous=played, after_race=1)
