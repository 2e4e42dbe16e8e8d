"""Checking a submitted finishing order (API.md "Leagues") as a pure function.

Rows are ``{"driver", "position", "status", "bonus"}``: every entered driver exactly once,
positions exactly 1..n, every ``dnf`` after every ``finished`` (FD-41's "finishers first"), and
``bonus`` (an integer >= 0) only where the league allows it. :func:`validate_finishing_order`
returns every problem as a :class:`~scoring.issues.Issue` with a stable code (the service
translates it); :func:`parse_finishes` turns valid rows into
:class:`~scoring.points.championship.Finish` objects.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scoring.bounds import MAX_POINTS
from scoring.issues import Issue, by_row
from scoring.points.championship import FINISHED, Finish

DNF = "dnf"
STATUSES = (FINISHED, DNF)
FIELDS = ("driver", "position", "status", "bonus")
REQUIRED = ("driver", "position", "status")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_finishing_order(
    rows: Any, *, entered: Sequence[int], known: Sequence[int], bonus_allowed: bool
) -> list[Issue]:
    """Every problem of ``rows`` for a race entered by ``entered`` (of the ``known`` drivers)."""
    issues: list[Issue] = []

    def add(row: int | None, fld: str | None, code: str, message: str, **params: Any) -> None:
        issues.append(Issue(code=code, message=message, index=row, field=fld, params=params))

    good = readable_rows(rows, add, lambda i, row: _check_row(i, row, bonus_allowed, add))
    if good is None:
        return issues
    check_drivers(good, list(entered), set(known), add)
    _check_positions(good, len(entered), add)
    return by_row(issues)


def _check_row(i: int, row: Mapping[str, Any], bonus_allowed: bool, add: Any) -> bool:
    """One row's own problems; True when its driver, position and status can be read (the row
    then takes part in the checks of the whole list)."""
    for key in sorted(set(row) - set(FIELDS), key=str):
        add(i, str(key), "unknown_field", f"Unknown field {key!r}.", field=key)
    bonus = row.get("bonus")
    if bonus is not None and not bonus_allowed:
        add(i, "bonus", "bonus_not_allowed", "This league gives no bonus points.")
    elif bonus is not None and (not _is_int(bonus) or not 0 <= bonus <= MAX_POINTS):
        message = f"bonus must be a whole number from 0 to {MAX_POINTS}."
        add(i, "bonus", "bonus_range", message, limit=MAX_POINTS)
    readable = True
    for key in REQUIRED:
        if key not in row:
            add(i, key, "required", f"{key} is required.")
            readable = False
    for key in ("driver", "position"):
        if key in row and not _is_int(row[key]):
            add(i, key, "not_int", f"{key} must be an integer.")
            readable = False
    if "status" in row and row["status"] not in STATUSES:
        add(i, "status", "invalid_status", "status must be finished or dnf.", choices=STATUSES)
        readable = False
    return readable


Rows = Sequence[tuple[int, Mapping[str, Any]]]


def readable_rows(
    rows: Any, add: Any, readable: Callable[[int, Mapping[str, Any]], bool]
) -> list[tuple[int, Mapping[str, Any]]] | None:
    """The (index, row) pairs of the objects in ``rows`` that ``readable`` accepts (it reports
    each row's own problems); None, reported, when ``rows`` is not a list."""
    if not isinstance(rows, (list, tuple)):
        add(None, None, "not_list", "Results must be a list of entries.")
        return None
    good: list[tuple[int, Mapping[str, Any]]] = []
    for i, row in enumerate(rows):
        if not isinstance(row, Mapping):
            add(i, None, "not_object", "Each entry must be an object.")
        elif readable(i, row):
            good.append((i, row))
    return good


def check_drivers(
    good: Rows,
    entered: Sequence[int],
    known: set[int],
    add: Any,
    *,
    competition: str = "league",
    first_row: bool = False,
) -> None:
    """Every readable row's driver is known, entered and listed once; every entrant is listed.

    ``competition`` names what the driver must belong to in the message ("league",
    "championship"); with ``first_row`` a duplicate's issue also gives the row listing it first.
    """
    seen: dict[int, int] = {}
    for i, row in good:
        d = row["driver"]
        if d not in known:
            add(i, "driver", "unknown_driver", f"Driver {d} is not in the {competition}.", driver=d)
        elif d not in entered:
            add(i, "driver", "not_entered", f"Driver {d} is not entered in this race.", driver=d)
        elif d in seen:
            where = {"first_row": seen[d]} if first_row else {}
            add(i, "driver", "duplicate_driver", f"Driver {d} is listed twice.", driver=d, **where)
        else:
            seen[d] = i
    for d in entered:
        if d not in seen:
            add(None, "driver", "missing_driver", f"Entered driver {d} has no entry.", driver=d)


def check_position_numbers(good: Rows, n: int, add: Any) -> None:
    """Every readable row's position is one of 1..``n`` and given once."""
    counts = Counter(row["position"] for _, row in good)
    for i, row in good:
        p = row["position"]
        if not 1 <= p <= n:
            add(i, "position", "position_range", f"position must be between 1 and {n}.", limit=n)
        elif counts[p] > 1:
            add(i, "position", "duplicate_position", f"Position {p} is given twice.", position=p)


def _check_positions(good: Rows, n: int, add: Any) -> None:
    check_position_numbers(good, n, add)
    # Every dnf after every finisher: a finisher ranked behind a dnf is the row to fix.
    first_dnf = min((row["position"] for _, row in good if row["status"] == DNF), default=None)
    for i, row in good:
        if row["status"] == FINISHED and first_dnf is not None and row["position"] > first_dnf:
            add(i, "position", "dnf_ahead", "A dnf is ranked ahead of this finisher.")


def parse_finishes(rows: Sequence[Mapping[str, Any]]) -> tuple[Finish, ...]:
    """Valid rows (see :func:`validate_finishing_order`) as finishes in position order."""
    return tuple(
        Finish(r["driver"], r["position"], r["status"], r.get("bonus") or 0)
        for r in sorted(rows, key=lambda r: r["position"])
    )
