"""Validation of submitted Formula D race results (FD-78, FD-79) as a pure function.

:func:`validate_race_results` reads the raw JSON rows and returns every problem as a
:class:`scoring.issues.Issue` (row index, field, stable code, English message, params); the
service maps them to a 400 and stores nothing. :func:`parse_race_results` turns valid rows into
:class:`~scoring.formula_d.standings.RaceEntry` objects.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from scoring.formula_d.rules import ZONES, FormulaDRules
from scoring.formula_d.standings import RaceEntry
from scoring.issues import Issue, by_row
from scoring.points.validation import Rows, check_drivers, check_position_numbers, readable_rows

FIELDS = ("driver", "position", "status", "laps", "elimination_order", "wp_left", "pole")
REQUIRED = ("driver", "position", "status", "laps")
STATUSES = ("finished", "eliminated")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_race_results(
    rows: Sequence[Any],
    *,
    race_drivers: Sequence[int],
    championship_drivers: Sequence[int],
    laps: int,
    rules: FormulaDRules,
    rule_set: str = "basic",
    builds: Mapping[int, Mapping[str, int]] | None = None,
) -> list[Issue]:
    """Every FD-79 problem of ``rows`` for a race of ``laps`` laps entered by ``race_drivers``.

    ``builds`` gives drivers' own zone spreads (FD-59) for the advanced ``wp_left`` check.
    """
    issues: list[Issue] = []

    def add(row: int | None, fld: str | None, code: str, message: str, **params: Any) -> None:
        issues.append(Issue(code=code, message=message, index=row, field=fld, params=params))

    good = readable_rows(rows, add, lambda i, row: _row_shape_ok(i, row, add))
    if good is None:
        return issues
    entered = list(race_drivers)
    known = set(championship_drivers)
    n = len(rows)
    check_drivers(good, entered, known, add, competition="championship", first_row=True)
    _check_positions(good, n, add)
    _check_laps(good, laps, add)
    _check_elimination(good, add)
    _check_wp(good, rules, rule_set, builds or {}, add)
    poles = [i for i, row in good if row.get("pole") is True]
    if len(poles) > 1:
        add(None, "pole", "multiple_pole", "Only one car can start from pole.", rows=poles)
    return by_row(issues)


def _row_shape_ok(i: int, row: Mapping[str, Any], add: Any) -> bool:
    """Report unknown, missing and mistyped fields of one row; whether it can be checked further.

    An unknown field or a non-boolean ``pole`` is reported but does not stop the later checks.
    """
    ok = True
    for key in sorted(set(row) - set(FIELDS)):
        add(i, key, "unknown_field", f"Unknown field {key!r}.", field=key)
    for key in REQUIRED:
        if key not in row:
            add(i, key, "required", f"{key} is required.")
            ok = False
    for key in ("driver", "position", "laps", "elimination_order"):
        # Only elimination_order may be null; a null driver, position or laps is not an int.
        if key not in row or (row[key] is None and key not in REQUIRED):
            continue
        if not _is_int(row[key]):
            add(i, key, "not_int", f"{key} must be an integer.")
            ok = False
        elif row[key] < 0:
            add(i, key, "negative", f"{key} may not be negative.")
            ok = False
    if "status" in row and row["status"] not in STATUSES:
        add(
            i,
            "status",
            "invalid_status",
            "status must be finished or eliminated.",
            choices=STATUSES,
        )
        ok = False
    if "pole" in row and not isinstance(row["pole"], bool):
        add(i, "pole", "not_bool", "pole must be true or false.")
    return ok


def _check_positions(good: Rows, n: int, add: Any) -> None:
    check_position_numbers(good, n, add)
    # Finishers first (FD-41): no eliminated car ahead of a finisher.
    ranked = sorted(good, key=lambda item: item[1]["position"])
    seen_out = False
    for i, row in ranked:
        if row["status"] == "eliminated":
            seen_out = True
        elif seen_out:
            add(
                i,
                "position",
                "eliminated_ahead",
                "An eliminated driver is ranked ahead of this finisher.",
            )


def _check_laps(good: Rows, laps: int, add: Any) -> None:
    for i, row in good:
        value = row["laps"]
        if value > laps:
            add(i, "laps", "laps_exceed", f"laps may not exceed the race's {laps}.", limit=laps)
        elif row["status"] == "finished" and value != laps:
            add(i, "laps", "finisher_laps", f"A finisher completed all {laps} laps.", limit=laps)
        elif row["status"] == "eliminated" and value >= laps:
            add(
                i,
                "laps",
                "eliminated_all_laps",
                "An eliminated driver completed fewer laps than the race.",
                limit=laps,
            )


def _check_elimination(good: Rows, add: Any) -> None:
    out = [(i, row) for i, row in good if row["status"] == "eliminated"]
    e = len(out)
    for i, row in good:
        if row["status"] == "finished" and row.get("elimination_order") is not None:
            add(
                i,
                "elimination_order",
                "order_for_finisher",
                "Only eliminated drivers have an elimination order.",
            )
    orders = Counter(row.get("elimination_order") for _, row in out)
    for i, row in out:
        order = row.get("elimination_order")
        if order is None:
            continue
        if not 1 <= order <= e:
            add(
                i,
                "elimination_order",
                "order_range",
                f"elimination_order must be between 1 and {e}.",
                limit=e,
            )
        elif orders[order] > 1:
            add(
                i,
                "elimination_order",
                "order_repeated",
                f"Elimination order {order} is given twice.",
                order=order,
            )
    _check_fd41_order(out, add)


def _check_fd41_order(out: Rows, add: Any) -> None:
    """FD-41: eliminated cars rank by laps completed, then the later eliminated first."""
    ranked = sorted(out, key=lambda item: item[1]["position"])
    for (_, a), (j, b) in itertools.pairwise(ranked):
        if b["laps"] > a["laps"]:
            add(
                j,
                "laps",
                "elimination_rank",
                "An eliminated driver with more laps is ranked below one with fewer.",
            )
        elif b["laps"] == a["laps"]:
            oa, ob = a.get("elimination_order"), b.get("elimination_order")
            if oa is not None and ob is not None and ob > oa:
                add(
                    j,
                    "elimination_order",
                    "order_contradicts_position",
                    "With equal laps, the car eliminated later must rank higher.",
                )


def _check_wp(
    good: Rows,
    rules: FormulaDRules,
    rule_set: str,
    builds: Mapping[int, Mapping[str, int]],
    add: Any,
) -> None:
    for i, row in good:
        if "wp_left" not in row or row["wp_left"] is None:
            continue
        value = row["wp_left"]
        finished = row["status"] == "finished"
        if rule_set == "advanced":
            start = dict(builds.get(row["driver"], rules.zone_defaults()))
            if not isinstance(value, Mapping) or set(value) != set(ZONES):
                add(
                    i,
                    "wp_left",
                    "wp_zones",
                    "wp_left needs one value per zone: " + ", ".join(ZONES) + ".",
                    zones=ZONES,
                )
                continue
            for zone in ZONES:
                v = value[zone]
                if not _is_int(v) or not 0 <= v <= start.get(zone, 0):
                    add(
                        i,
                        "wp_left",
                        "wp_range",
                        f"wp_left.{zone} must be an integer between 0 and {start.get(zone, 0)}.",
                        zone=zone,
                        limit=start.get(zone, 0),
                    )
            continue
        if not _is_int(value):
            add(i, "wp_left", "not_int", "wp_left must be an integer.")
        elif finished and not 1 <= value <= rules.wp_start:
            add(
                i,
                "wp_left",
                "wp_range",
                f"A finisher has between 1 and {rules.wp_start} WP left.",
                limit=rules.wp_start,
            )
        elif not finished and value != 0:
            add(i, "wp_left", "wp_range", "An eliminated car has 0 WP left.", limit=0)


def parse_race_results(rows: Sequence[Mapping[str, Any]]) -> tuple[RaceEntry, ...]:
    """Valid rows (see :func:`validate_race_results`) as entries in position order.

    A missing ``elimination_order`` is filled from the positions (FD-79: it follows from them).
    """
    entries = sorted(rows, key=lambda r: r["position"])
    out_rows = [r for r in entries if r["status"] == "eliminated"]
    given = {r.get("elimination_order") for r in out_rows} - {None}
    free = [k for k in range(len(out_rows), 0, -1) if k not in given]
    result: list[RaceEntry] = []
    for r in entries:
        order = r.get("elimination_order")
        if r["status"] == "eliminated" and order is None:
            order = free.pop(0)  # the higher ranked, the later out (FD-41)
        wp = r.get("wp_left")
        result.append(
            RaceEntry(
                driver=r["driver"],
                position=r["position"],
                status=r["status"],
                laps=r["laps"],
                elimination_order=order,
                wp_left=wp if isinstance(wp, int) else None,
                pole=r.get("pole") is True,
            )
        )
    return tuple(result)
