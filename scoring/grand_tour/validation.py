"""Checks a stage result must pass before it is stored (GT-11).

Every problem is reported, not just the first, so a scorekeeper can fix the whole sheet at once.
Row problems carry the row's index and field; list problems (a missing or repeated rider,
positions that are not 1..n as a whole) carry neither. GT-11.5 (an earlier stage without
results) is the service's check: it needs the stored stages.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from scoring.bounds import MAX_EVENT_SECONDS, MAX_POINTS
from scoring.clock import clock
from scoring.grand_tour.model import Rider, RiderResult, StageSpec, TourSetup
from scoring.grand_tour.rules import GrandTourRules
from scoring.issues import Issue

# Row fields that may never be negative (GT-11.3); exhaustion has its own code (GT-11.6).
_NON_NEGATIVE = ("minutes", "seconds", "sprint_points", "mountain_points")


def format_time(seconds: int) -> str:
    """A stage time as ``m:ss`` (``h:mm:ss`` from an hour), as organisers read it."""
    return clock(seconds)


def timing_values(stage: StageSpec, rules: GrandTourRules) -> tuple[int, ...]:
    """The seconds printed on the Timing tile side this stage finishes on (GT-2.4)."""
    return rules.timing_ascent if stage.finish == "ascent" else rules.timing_flat


def validate_stage_results(
    setup: TourSetup,
    stage: StageSpec,
    rows: Sequence[RiderResult],
    rules: GrandTourRules,
) -> list[Issue]:
    """Every reason to reject ``rows`` as the results of ``stage`` (GT-11.1-11.4, GT-11.6).

    An empty list means the results can be stored. Issues come grouped by rule (riders,
    positions, values, times, exhaustion) and, within a rule, in row order.
    """
    riders = {r.id: r for r in setup.riders}
    issues: list[Issue] = []
    issues += _check_riders(setup, rows, riders)
    issues += _check_positions(rows, riders)
    for index, row in enumerate(rows):
        issues += _check_values(index, row, riders, stage, rules)
    issues += _check_time_order(rows, riders)
    for index, row in enumerate(rows):
        if row.exhaustion is not None and row.exhaustion < 0:
            # GT-11.6
            issues.append(
                Issue(
                    code="negative_exhaustion",
                    message=(
                        f"{_who(row.rider, riders)} has {row.exhaustion} Exhaustion cards; "
                        "a count cannot be negative."
                    ),
                    index=index,
                    field="exhaustion",
                    params={**_rider_params(row.rider, riders), "value": row.exhaustion},
                )
            )
    return issues


def _who(rider_id: int, riders: dict[int, Rider]) -> str:
    rider = riders.get(rider_id)
    return rider.name if rider is not None else f"Rider {rider_id}"


def _rider_params(rider_id: int, riders: dict[int, Rider]) -> dict[str, object]:
    rider = riders.get(rider_id)
    return {"rider": rider_id, "name": rider.name if rider is not None else None}


def _check_riders(
    setup: TourSetup, rows: Sequence[RiderResult], riders: dict[int, Rider]
) -> list[Issue]:
    """GT-11.1: every rider of the tour exactly once, nobody else."""
    issues: list[Issue] = []
    seen: dict[int, list[int]] = {}
    for index, row in enumerate(rows):
        if row.rider in riders:
            seen.setdefault(row.rider, []).append(index)
            continue
        issues.append(
            Issue(
                code="unknown_rider",
                message=f"Rider {row.rider} does not ride in this tour.",
                index=index,
                field="rider",
                params={"rider": row.rider},
            )
        )
    for rider_id, indices in seen.items():
        if len(indices) > 1:
            name = riders[rider_id].name
            issues.append(
                Issue(
                    code="duplicate_rider",
                    message=f"{name} is listed {len(indices)} times; list each rider once.",
                    params={"rider": rider_id, "name": name, "count": len(indices)},
                )
            )
    for rider in setup.riders:
        if rider.id not in seen:
            issues.append(
                Issue(
                    code="missing_rider",
                    message=f"{rider.name} has no result; every rider of the tour needs one.",
                    params={"rider": rider.id, "name": rider.name},
                )
            )
    return issues


def _check_positions(rows: Sequence[RiderResult], riders: dict[int, Rider]) -> list[Issue]:
    """GT-11.2: positions are exactly 1..n, n being the number of rows submitted."""
    count = len(rows)
    issues: list[Issue] = []
    first_at: dict[int, int] = {}
    for index, row in enumerate(rows):
        params = {**_rider_params(row.rider, riders), "position": row.position}
        if not 1 <= row.position <= count:
            issues.append(
                Issue(
                    code="position_out_of_range",
                    message=(
                        f"{_who(row.rider, riders)} has position {row.position}; "
                        f"positions run from 1 to {count}."
                    ),
                    index=index,
                    field="position",
                    params={**params, "count": count},
                )
            )
        elif row.position in first_at:
            other = rows[first_at[row.position]].rider
            issues.append(
                Issue(
                    code="duplicate_position",
                    message=(
                        f"{_who(row.rider, riders)} and {_who(other, riders)} both have "
                        f"position {row.position}; each position is used once."
                    ),
                    index=index,
                    field="position",
                    params={**params, "other_rider": other},
                )
            )
        else:
            first_at[row.position] = index
    missing = [p for p in range(1, count + 1) if p not in first_at]
    if missing:
        listed = ", ".join(str(p) for p in missing)
        issues.append(
            Issue(
                code="positions_not_sequence",
                message=f"Positions must be exactly 1 to {count}; missing: {listed}.",
                params={"count": count, "missing": missing},
            )
        )
    return issues


def _check_values(
    index: int,
    row: RiderResult,
    riders: dict[int, Rider],
    stage: StageSpec,
    rules: GrandTourRules,
) -> list[Issue]:
    """GT-11.3: no negative values, seconds below 60 and, with the tile, printed on it."""
    who = _who(row.rider, riders)
    base = _rider_params(row.rider, riders)
    issues: list[Issue] = []
    for name in _NON_NEGATIVE:
        value = getattr(row, name)
        if value < 0:
            label = name.replace("_", " ")
            issues.append(
                Issue(
                    code="negative",
                    message=f"{who} has {value} {label}; it cannot be negative.",
                    index=index,
                    field=name,
                    params={**base, "value": value},
                )
            )
    # Bounds (scoring.bounds): a stage time of at most a day, points of at most MAX_POINTS.
    if row.minutes * 60 + row.seconds > MAX_EVENT_SECONDS:
        issues.append(
            Issue(
                code="time_too_long",
                message=f"{who}'s time is more than {MAX_EVENT_SECONDS // 3600} hours.",
                index=index,
                field="minutes",
                params={**base, "limit": MAX_EVENT_SECONDS},
            )
        )
    for name in ("sprint_points", "mountain_points"):
        if getattr(row, name) > MAX_POINTS:
            issues.append(
                Issue(
                    code="too_many_points",
                    message=f"{who} has more than {MAX_POINTS} {name.replace('_', ' ')}.",
                    index=index,
                    field=name,
                    params={**base, "limit": MAX_POINTS},
                )
            )
    if row.exhaustion is not None and row.exhaustion > MAX_POINTS:
        issues.append(
            Issue(
                code="too_many_cards",
                message=f"{who} has more than {MAX_POINTS} Exhaustion cards.",
                index=index,
                field="exhaustion",
                params={**base, "limit": MAX_POINTS},
            )
        )
    if row.seconds >= 60:
        issues.append(
            Issue(
                code="seconds_too_large",
                message=(
                    f"{who} has {row.seconds} seconds; seconds must be below 60 "
                    "(a whole minute is a Time token)."
                ),
                index=index,
                field="seconds",
                params={**base, "value": row.seconds},
            )
        )
    elif row.seconds >= 0 and rules.timing_tile:
        allowed = timing_values(stage, rules)
        if row.seconds not in allowed:
            listed = ", ".join(str(v) for v in allowed)
            issues.append(
                Issue(
                    code="seconds_not_on_timing_tile",
                    message=(
                        f"{who} has {row.seconds} seconds, which is not on the {stage.finish} "
                        f"Timing tile ({listed})."
                    ),
                    index=index,
                    field="seconds",
                    params={
                        **base,
                        "value": row.seconds,
                        "finish": stage.finish,
                        "allowed": list(allowed),
                    },
                )
            )
    return issues


def _check_time_order(rows: Sequence[RiderResult], riders: dict[int, Rider]) -> list[Issue]:
    """GT-11.4 (GT-2.5): along the finishing order, stage times never decrease.

    Only rows whose position is unambiguous (in range, not repeated) and whose time is well
    formed take part: the finishing order is unknown otherwise, and those rows already have
    their own issue.
    """
    count = len(rows)
    uses: dict[int, int] = {}
    for row in rows:
        uses[row.position] = uses.get(row.position, 0) + 1
    ordered = sorted(
        (
            (row.position, index)
            for index, row in enumerate(rows)
            if 1 <= row.position <= count
            and uses[row.position] == 1
            and row.minutes >= 0
            and 0 <= row.seconds < 60
        ),
    )
    issues: list[Issue] = []
    for (_, before_index), (_, index) in itertools.pairwise(ordered):
        before, row = rows[before_index], rows[index]
        if row.time >= before.time:
            continue
        # Blame the minutes when they dropped, else the seconds on the same minute.
        field_name = "minutes" if row.minutes < before.minutes else "seconds"
        issues.append(
            Issue(
                code="time_decreases",
                message=(
                    f"{_who(row.rider, riders)} (position {row.position}) has time "
                    f"{format_time(row.time)}, less than {format_time(before.time)} of "
                    f"{_who(before.rider, riders)} (position {before.position}), who crossed "
                    "the line earlier; times never decrease along the finishing order."
                ),
                index=index,
                field=field_name,
                params={
                    **_rider_params(row.rider, riders),
                    "position": row.position,
                    "time": row.time,
                    "previous_rider": before.rider,
                    "previous_position": before.position,
                    "previous_time": before.time,
                },
            )
        )
    return issues


__all__ = ["format_time", "timing_values", "validate_stage_results"]
