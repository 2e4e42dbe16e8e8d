"""Validation of a submitted rally stage sheet (RM-52 to RM-54).

:func:`check_stage_sheet` reads the raw JSON rows, lists every problem at once (row index, field,
code, message, params: the service maps them to a 400) and returns the accepted entries with their
times. ``time`` is whole seconds (``261``) or ``"m:ss"`` (``"4:21"``, ASCII digits only: see
``scoring.digits``); a ``log`` is RM-55.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.bounds import (
    MAX_EVENT_SECONDS,
    MAX_LOG_LENGTH,
    MAX_PENALTIES,
    MAX_PENALTY_SECONDS,
    MAX_REASON_LENGTH,
)
from scoring.clock import clock
from scoring.digits import DIGIT, parse_digits
from scoring.issues import EngineError, Issue
from scoring.rally.notation import LogTime, log_issues, log_time
from scoring.rally.rules import RallyRules

FINISHED, RETIRED = "finished", "retired"
_MSS = re.compile(rf"({DIGIT}+):({DIGIT}{DIGIT})")
_FIELDS = ("driver", "status", "time", "log", "penalties")


@dataclass(frozen=True, slots=True)
class Penalty:
    """A time penalty (RM-52): positive seconds and a reason."""

    seconds: int
    reason: str


@dataclass(frozen=True, slots=True)
class StageEntry:
    """One accepted entry: ``net_time`` has tokens deducted, penalties not added (RM-52)."""

    driver: int
    status: str = FINISHED
    net_time: int | None = None
    penalties: tuple[Penalty, ...] = ()
    cards: int | None = None
    tokens: int | None = None

    @property
    def penalty_time(self) -> int:
        """Sum of the penalties."""
        return sum(p.seconds for p in self.penalties)

    @property
    def stage_time(self) -> int | None:
        """RM-42: net time plus penalties, for a finished driver (else None)."""
        if self.status != FINISHED or self.net_time is None:
            return None
        return self.net_time + self.penalty_time


@dataclass(frozen=True, slots=True)
class CheckedSheet:
    """The outcome of :func:`check_stage_sheet`: entries (row order), issues and RM-54 flags."""

    entries: tuple[StageEntry, ...]
    issues: tuple[Issue, ...]
    flags: tuple[Issue, ...]

    @property
    def ok(self) -> bool:
        """True when the sheet is accepted (flags do not reject it)."""
        return not self.issues


class TimeFormatError(EngineError):
    """A ``time`` value that is neither whole seconds nor ``m:ss``."""


def parse_time(value: Any) -> int:
    """Seconds from ``261`` or ``"4:21"`` (RM-52); raises :class:`TimeFormatError` (RM-53.4)."""
    if isinstance(value, bool):
        raise TimeFormatError("Time must be whole seconds or an m:ss string.", "invalid_time")
    if isinstance(value, (int, float)):
        return _whole_seconds(value)
    if isinstance(value, str):
        return _mss_seconds(value)
    raise TimeFormatError("Time must be whole seconds or an m:ss string.", "invalid_time")


def _whole_seconds(value: float) -> int:
    """A time sent as a number: whole, not negative, at most a day."""
    if isinstance(value, float):
        if not value.is_integer():  # also infinities and NaN
            raise TimeFormatError("Time must be a whole number of seconds.", "not_whole_number")
        if value > MAX_EVENT_SECONDS:  # before int(): 1e308 would become 309 digits
            raise _too_long()
        value = int(value)
    if value < 0:
        raise TimeFormatError("Time may not be negative.", "negative")
    if value > MAX_EVENT_SECONDS:
        raise _too_long()
    return int(value)


def _mss_seconds(text: str) -> int:
    """A time typed as ``m:ss`` in ASCII digits."""
    match = _MSS.fullmatch(text.strip())
    if match is None:
        raise TimeFormatError("Time must be m:ss, such as 4:21.", "bad_time_format")
    minutes, seconds = parse_digits(match.group(1)), parse_digits(match.group(2))
    if seconds > 59:
        raise TimeFormatError("Seconds of an m:ss time run from 00 to 59.", "bad_time_format")
    if minutes * 60 + seconds > MAX_EVENT_SECONDS:
        raise _too_long()
    return minutes * 60 + seconds


def _too_long() -> TimeFormatError:
    return TimeFormatError(
        f"A stage time is at most {MAX_EVENT_SECONDS} s (24 hours).",
        "time_too_long",
        limit=MAX_EVENT_SECONDS,
    )


def format_time(seconds: int) -> str:
    """``m:ss`` display of a stage time (RM-42); ``h:mm:ss`` from an hour on."""
    return clock(seconds)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_stage_sheet(
    rows: Any,
    *,
    entry_list: Sequence[int],
    out_of_rally: Collection[int] = (),
    rules: RallyRules,
) -> CheckedSheet:
    """Check a stage sheet against RM-53 and read it; flags per RM-54.

    ``entry_list`` is the rally's drivers (ids); ``out_of_rally`` those already out (RM-46).
    Every expected driver (entry list minus the out ones) must have exactly one row.
    """
    issues: list[Issue] = []
    flags: list[Issue] = []
    entries: list[StageEntry] = []

    def add(index: int | None, fld: str | None, code: str, message: str, **params: Any) -> None:
        issues.append(Issue(code=code, message=message, index=index, field=fld, params=params))

    if not isinstance(rows, list):
        add(None, None, "not_a_list", "Results must be a list of entries.")
        return CheckedSheet((), tuple(issues), ())
    drivers = _SheetDrivers(known=set(entry_list), out=set(out_of_rally))
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            add(index, None, "not_object", "Each entry must be an object.")
            continue
        entry = _read_row(row, index, drivers, rules, add, flags)
        if entry is not None:
            entries.append(entry)
    for driver in entry_list:
        if driver not in drivers.out and driver not in drivers.seen:
            add(None, "driver", "missing_driver", f"Driver {driver} has no entry.", driver=driver)
    if issues:
        return CheckedSheet((), tuple(issues), tuple(flags))
    return CheckedSheet(tuple(entries), (), tuple(flags))


@dataclass(slots=True)
class _SheetDrivers:
    """The rally's drivers, those already out of it, and those the sheet has named so far."""

    known: set[int]
    out: set[int]
    seen: set[int] = field(default_factory=set)


def _read_row(
    row: dict[str, Any],
    index: int,
    drivers: _SheetDrivers,
    rules: RallyRules,
    add: Callable[..., None],
    flags: list[Issue],
) -> StageEntry | None:
    """One row's entry, or None when it has issues (every issue reported through ``add``)."""
    for key in row:
        if key not in _FIELDS:
            add(index, str(key), "unknown_field", f"Unknown field {key!r}.", field=key)
    driver = _check_driver(row, index, drivers, add)
    status = row.get("status", FINISHED)
    if status not in (FINISHED, RETIRED):
        add(index, "status", "invalid_status", "Status must be finished or retired.")
        return None
    entry = _read_entry(row, index, status, rules, add, flags)
    if entry is None or driver is None:
        return None
    return StageEntry(driver, status, *entry)


def _check_driver(
    row: dict[str, Any], index: int, drivers: _SheetDrivers, add: Callable[..., None]
) -> int | None:
    """The row's driver when it is one of the rally's, still in it, named once (then seen)."""
    driver = row.get("driver")
    if "driver" not in row:
        add(index, "driver", "required", "The driver is required.")
    elif not _is_int(driver):
        add(index, "driver", "invalid_driver", "The driver must be a driver id.")
    elif driver not in drivers.known:
        add(
            index,
            "driver",
            "unknown_driver",
            f"Driver {driver} is not entered in this rally.",
            driver=driver,
        )
    elif driver in drivers.out:
        add(
            index,
            "driver",
            "driver_out",
            f"Driver {driver} is already out of the rally.",
            driver=driver,
        )
    elif driver in drivers.seen:
        add(index, "driver", "duplicate_driver", f"Driver {driver} appears twice.", driver=driver)
    else:
        drivers.seen.add(driver)
        return int(driver)
    return None


def _read_entry(
    row: dict[str, Any],
    index: int,
    status: str,
    rules: RallyRules,
    add: Callable[..., None],
    flags: list[Issue],
) -> tuple[int | None, tuple[Penalty, ...], int | None, int | None] | None:
    """Time, penalties, cards and tokens of one row; None when it has issues."""
    penalties = _penalties(row.get("penalties", []), index, add)
    has_time, has_log = row.get("time") is not None, row.get("log") is not None
    if status == RETIRED:
        return _retired_entry(index, has_time, has_log, penalties, add)
    if not has_time and not has_log:
        add(index, "time", "time_required", "A finished driver needs a time or a log.")
        return None
    ok = penalties is not None
    time = _typed_time(row["time"], index, add) if has_time else None
    if has_time and time is None:
        ok = False
    cards = tokens = None
    if has_log:
        counted = _read_log(row["log"], index, time, rules, add, flags)
        if counted is None:
            return None
        time, cards, tokens = counted.net_time, counted.cards, counted.tokens
    if not ok or not _net_time_in_range(time, index, add):
        return None
    return time, penalties or (), cards, tokens


def _retired_entry(
    index: int,
    has_time: bool,
    has_log: bool,
    penalties: tuple[Penalty, ...] | None,
    add: Callable[..., None],
) -> tuple[None, tuple[Penalty, ...], None, None] | None:
    """A retired driver's entry: penalties only (no time, no log)."""
    if has_time:
        add(index, "time", "retired_with_time", "A retired driver has no time.")
    if has_log:
        add(index, "log", "retired_with_log", "A retired driver has no log.")
    if has_time or has_log or penalties is None:
        return None
    return None, penalties, None, None


def _typed_time(value: Any, index: int, add: Callable[..., None]) -> int | None:
    try:
        return parse_time(value)
    except TimeFormatError as exc:
        add(index, "time", exc.code, exc.message, value=value, **exc.params)
        return None


def _read_log(
    log: Any,
    index: int,
    typed_time: int | None,
    rules: RallyRules,
    add: Callable[..., None],
    flags: list[Issue],
) -> LogTime | None:
    """The log's count (RM-55), or None when it has issues or contradicts the typed time.

    RM-54's token flag is raised whenever the log reads, even when its time is refused.
    """
    if isinstance(log, str) and len(log) > MAX_LOG_LENGTH:
        add(
            index,
            "log",
            "log_too_long",
            f"A turn log has at most {MAX_LOG_LENGTH} characters.",
            limit=MAX_LOG_LENGTH,
        )
        return None
    problems = log_issues(log)
    for problem in problems:
        add(index, "log", problem.code, problem.message, **problem.params)
    if problems:
        return None
    counted = log_time(log, rules)
    agrees = typed_time is None or typed_time == counted.net_time
    if not agrees:
        add(
            index,
            "time",
            "time_log_mismatch",
            f"Time {typed_time} s differs from the log's net time {counted.net_time} s.",
            time=typed_time,
            log_time=counted.net_time,
        )
    # RM-54: more tokens than a whole turn of gear and coast dice could ever earn.
    ceiling = (rules.allowance.gear + rules.allowance.coast) * counted.turns
    if counted.tokens > ceiling:
        flags.append(
            Issue(
                code="too_many_tokens",
                message=f"{counted.tokens} unspent tokens is more than {ceiling}.",
                index=index,
                field="log",
                params={"tokens": counted.tokens, "limit": ceiling},
            )
        )
    return counted if agrees else None


def _net_time_in_range(time: int | None, index: int, add: Callable[..., None]) -> bool:
    if time is not None and time <= 0:
        add(index, "time", "non_positive_time", "The net time must be more than 0 s.", time=time)
        return False
    if time is not None and time > MAX_EVENT_SECONDS:  # a log of absurd turns
        error = _too_long()
        add(index, "time", error.code, error.message, **error.params)
        return False
    return True


def _penalties(value: Any, index: int, add: Callable[..., None]) -> tuple[Penalty, ...] | None:
    if value is None:
        return ()
    if not isinstance(value, list):
        add(index, "penalties", "invalid_penalties", "Penalties must be a list.")
        return None
    if len(value) > MAX_PENALTIES:
        add(
            index,
            "penalties",
            "too_many_penalties",
            f"At most {MAX_PENALTIES} penalties per entry.",
            limit=MAX_PENALTIES,
        )
        return None
    read = [_penalty(raw, index, f"penalties[{k}]", add) for k, raw in enumerate(value)]
    penalties = tuple(p for p in read if p is not None)
    return penalties if len(penalties) == len(read) else None


def _penalty(raw: Any, index: int, path: str, add: Callable[..., None]) -> Penalty | None:
    """One penalty, or None when it has issues (each reported on its own path)."""
    if not isinstance(raw, dict):
        add(index, path, "not_object", "Each penalty must be an object.")
        return None
    ok = True
    for key in raw:
        if key not in ("seconds", "reason"):
            add(index, f"{path}.{key}", "unknown_field", f"Unknown field {key!r}.", field=key)
            ok = False
    seconds_ok = _penalty_seconds_ok(raw.get("seconds"), index, path, add)
    reason = raw.get("reason")
    reason_ok = _penalty_reason_ok(reason, index, path, add)
    if not (ok and seconds_ok and reason_ok):
        return None
    return Penalty(raw["seconds"], str(reason).strip())


def _penalty_seconds_ok(seconds: Any, index: int, path: str, add: Callable[..., None]) -> bool:
    where = f"{path}.seconds"
    if not _is_int(seconds):
        add(index, where, "not_whole_number", "Penalty seconds must be a whole number.")
    elif seconds < 0:
        add(index, where, "negative", "Penalty seconds may not be negative.")
    elif seconds == 0:
        add(index, where, "penalty_zero", "A penalty must be at least 1 s.")
    elif seconds > MAX_PENALTY_SECONDS:
        add(
            index,
            where,
            "penalty_too_long",
            f"A penalty is at most {MAX_PENALTY_SECONDS} s.",
            limit=MAX_PENALTY_SECONDS,
        )
    else:
        return True
    return False


def _penalty_reason_ok(reason: Any, index: int, path: str, add: Callable[..., None]) -> bool:
    if not isinstance(reason, str) or not reason.strip():
        add(index, f"{path}.reason", "penalty_no_reason", "A penalty needs a reason.")
        return False
    if len(reason) > MAX_REASON_LENGTH:
        add(
            index,
            f"{path}.reason",
            "reason_too_long",
            f"A penalty's reason has at most {MAX_REASON_LENGTH} characters.",
            limit=MAX_REASON_LENGTH,
        )
        return False
    return True
