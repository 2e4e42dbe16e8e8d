"""Validation of a submitted rally stage sheet (RM-52 to RM-54).

:func:`check_stage_sheet` reads the raw JSON rows, lists every problem at once (row index, field,
code, message, params: the service maps them to a 400) and returns the accepted entries with their
times. ``time`` is whole seconds (``261``) or ``"m:ss"`` (``"4:21"``, ASCII digits only: see
``scoring.digits``); a ``log`` is RM-55.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.bounds import (
    MAX_EVENT_SECONDS,
    MAX_LOG_LENGTH,
    MAX_PENALTIES,
    MAX_PENALTY_SECONDS,
    MAX_REASON_LENGTH,
)
from scoring.digits import DIGIT, parse_digits
from scoring.issues import EngineError, Issue
from scoring.rally.notation import log_issues, log_time
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
    if isinstance(value, float):
        if not value.is_integer():  # also infinities and NaN
            raise TimeFormatError("Time must be a whole number of seconds.", "not_whole_number")
        if value > MAX_EVENT_SECONDS:  # before int(): 1e308 would become 309 digits
            raise _too_long()
        value = int(value)
    if isinstance(value, int):
        if value < 0:
            raise TimeFormatError("Time may not be negative.", "negative")
        if value > MAX_EVENT_SECONDS:
            raise _too_long()
        return value
    if isinstance(value, str):
        match = _MSS.fullmatch(value.strip())
        if match is None:
            raise TimeFormatError("Time must be m:ss, such as 4:21.", "bad_time_format")
        minutes, seconds = parse_digits(match.group(1)), parse_digits(match.group(2))
        if seconds > 59:
            raise TimeFormatError("Seconds of an m:ss time run from 00 to 59.", "bad_time_format")
        if minutes * 60 + seconds > MAX_EVENT_SECONDS:
            raise _too_long()
        return minutes * 60 + seconds
    raise TimeFormatError("Time must be whole seconds or an m:ss string.", "invalid_time")


def _too_long() -> TimeFormatError:
    return TimeFormatError(
        f"A stage time is at most {MAX_EVENT_SECONDS} s (24 hours).",
        "time_too_long",
        limit=MAX_EVENT_SECONDS,
    )


def format_time(seconds: int) -> str:
    """``m:ss`` display of a stage time (RM-42); ``h:mm:ss`` from an hour on."""
    sign = "-" if seconds < 0 else ""
    seconds = abs(seconds)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{sign}{hours}:{minutes:02d}:{secs:02d}"
    return f"{sign}{minutes}:{secs:02d}"


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
    known = set(entry_list)
    out = set(out_of_rally)
    seen: set[int] = set()
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            add(index, None, "not_object", "Each entry must be an object.")
            continue
        for key in row:
            if key not in _FIELDS:
                add(index, str(key), "unknown_field", f"Unknown field {key!r}.", field=key)
        driver = row.get("driver")
        driver_ok = False
        driver_id = driver if isinstance(driver, int) else 0
        if "driver" not in row:
            add(index, "driver", "required", "The driver is required.")
        elif not _is_int(driver):
            add(index, "driver", "invalid_driver", "The driver must be a driver id.")
        elif driver not in known:
            add(
                index,
                "driver",
                "unknown_driver",
                f"Driver {driver} is not entered in this rally.",
                driver=driver,
            )
        elif driver in out:
            add(
                index,
                "driver",
                "driver_out",
                f"Driver {driver} is already out of the rally.",
                driver=driver,
            )
        elif driver in seen:
            add(
                index,
                "driver",
                "duplicate_driver",
                f"Driver {driver} appears twice.",
                driver=driver,
            )
        else:
            driver_ok = True
            seen.add(driver)
        status = row.get("status", FINISHED)
        if status not in (FINISHED, RETIRED):
            add(index, "status", "invalid_status", "Status must be finished or retired.")
            continue
        entry = _read_entry(row, index, status, rules, add, flags)
        if entry is not None and driver_ok:
            entries.append(StageEntry(driver_id, status, entry[0], entry[1], entry[2], entry[3]))
    for driver in entry_list:
        if driver not in out and driver not in seen:
            add(None, "driver", "missing_driver", f"Driver {driver} has no entry.", driver=driver)
    if issues:
        return CheckedSheet((), tuple(issues), tuple(flags))
    return CheckedSheet(tuple(entries), (), tuple(flags))


def _read_entry(
    row: dict[str, Any],
    index: int,
    status: str,
    rules: RallyRules,
    add: Callable[..., None],
    flags: list[Issue],
) -> tuple[int | None, tuple[Penalty, ...], int | None, int | None] | None:
    """Time, penalties, cards and tokens of one row; None when it has issues."""
    ok = True
    penalties = _penalties(row.get("penalties", []), index, add)
    if penalties is None:
        ok = False
    has_time, has_log = row.get("time") is not None, row.get("log") is not None
    if status == RETIRED:
        if has_time:
            add(index, "time", "retired_with_time", "A retired driver has no time.")
        if has_log:
            add(index, "log", "retired_with_log", "A retired driver has no log.")
        if has_time or has_log or not ok:
            return None
        return None, penalties or (), None, None
    if not has_time and not has_log:
        add(index, "time", "time_required", "A finished driver needs a time or a log.")
        return None
    time: int | None = None
    if has_time:
        try:
            time = parse_time(row["time"])
        except TimeFormatError as exc:
            add(index, "time", exc.code, exc.message, value=row["time"], **exc.params)
            ok = False
    cards = tokens = None
    if has_log and isinstance(row["log"], str) and len(row["log"]) > MAX_LOG_LENGTH:
        add(
            index,
            "log",
            "log_too_long",
            f"A turn log has at most {MAX_LOG_LENGTH} characters.",
            limit=MAX_LOG_LENGTH,
        )
        return None
    if has_log:
        problems = log_issues(row["log"])
        for problem in problems:
            add(index, "log", problem.code, problem.message, **problem.params)
        if problems:
            ok = False
        else:
            counted = log_time(row["log"], rules)
            cards, tokens = counted.cards, counted.tokens
            if time is not None and time != counted.net_time:
                add(
                    index,
                    "time",
                    "time_log_mismatch",
                    f"Time {time} s differs from the log's net time {counted.net_time} s.",
                    time=time,
                    log_time=counted.net_time,
                )
                ok = False
            time = counted.net_time
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
    if ok and time is not None and time <= 0:
        add(index, "time", "non_positive_time", "The net time must be more than 0 s.", time=time)
        ok = False
    if ok and time is not None and time > MAX_EVENT_SECONDS:  # a log of absurd turns
        error = _too_long()
        add(index, "time", error.code, error.message, **error.params)
        ok = False
    if not ok:
        return None
    return time, penalties or (), cards, tokens


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
    out: list[Penalty] = []
    ok = True
    for k, raw in enumerate(value):
        path = f"penalties[{k}]"
        if not isinstance(raw, dict):
            add(index, path, "not_object", "Each penalty must be an object.")
            ok = False
            continue
        for key in raw:
            if key not in ("seconds", "reason"):
                add(index, f"{path}.{key}", "unknown_field", f"Unknown field {key!r}.", field=key)
                ok = False
        raw_seconds = raw.get("seconds")
        reason = raw.get("reason")
        seconds = raw_seconds if isinstance(raw_seconds, int) else 0
        if not _is_int(raw_seconds):
            add(
                index,
                f"{path}.seconds",
                "not_whole_number",
                "Penalty seconds must be a whole number.",
            )
            ok = False
        elif seconds < 0:
            add(index, f"{path}.seconds", "negative", "Penalty seconds may not be negative.")
            ok = False
        elif seconds == 0:
            add(index, f"{path}.seconds", "penalty_zero", "A penalty must be at least 1 s.")
            ok = False
        elif seconds > MAX_PENALTY_SECONDS:
            add(
                index,
                f"{path}.seconds",
                "penalty_too_long",
                f"A penalty is at most {MAX_PENALTY_SECONDS} s.",
                limit=MAX_PENALTY_SECONDS,
            )
            ok = False
        if not isinstance(reason, str) or not reason.strip():
            add(index, f"{path}.reason", "penalty_no_reason", "A penalty needs a reason.")
            ok = False
        elif len(reason) > MAX_REASON_LENGTH:
            add(
                index,
                f"{path}.reason",
                "reason_too_long",
                f"A penalty's reason has at most {MAX_REASON_LENGTH} characters.",
                limit=MAX_REASON_LENGTH,
            )
            ok = False
        if ok:
            out.append(Penalty(seconds, str(reason).strip()))
    return tuple(out) if ok else None
