"""The one way Podium writes a time (issue #16): ``m:ss`` under an hour, ``h:mm:ss`` from an hour.

Pages, forms, error messages, CSV headers and chart ticks all call these two functions (the
template filters ``duration``/``gap`` in tournament/web/templatetags/podium.py wrap them), so a
stage time never reads ``0:04:43`` in one place and ``4:43`` or ``283 s`` in another.
"""

from __future__ import annotations

LEADER_GAP = "—"


def clock(seconds: int | None, *, sign: str = "") -> str:
    """Whole seconds as ``m:ss`` (``h:mm:ss`` from 3600 on); ``""`` for no time.

    A negative value keeps its ``-``; ``sign`` is written before a non-negative one (``+`` for
    gaps).
    """
    if seconds is None:
        return ""
    value = int(seconds)
    hours, rest = divmod(abs(value), 3600)
    minutes, secs = divmod(rest, 60)
    prefix = "-" if value < 0 else sign
    if hours:
        return f"{prefix}{hours}:{minutes:02d}:{secs:02d}"
    return f"{prefix}{minutes}:{secs:02d}"


def gap(seconds: int | None) -> str:
    """A gap to the leader: ``+m:ss`` / ``+h:mm:ss``; the leader's own (0) is ``—``."""
    if seconds is None:
        return ""
    if int(seconds) == 0:
        return LEADER_GAP
    return clock(seconds, sign="+")


__all__ = ["LEADER_GAP", "clock", "gap"]
