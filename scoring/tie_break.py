"""Why two standings rows level on the deciding figure are in the order they are (issue #17).

Every game's ranking already compares the entrants of a tie with its own rules (GT-5.5, FD-76,
FD-77, RM-42, RM-44, RM-51). Where a row is level with the row just above it on the deciding
figure (time, points, Tour Points), the ranking records *which* criterion separated them, or
that they share the rank, as a :class:`TieBreak`: a stable ``code``, the rule's number and the
figures in ``params``. The pure scoring code stores it in the snapshot (``to_json()``); the
service turns it into a translated sentence (``tournament/competitions/tie_break.py``) from the
same code and params, so :meth:`TieBreak.text` is only the English reference wording.

Params whose name ends in ``place`` or ``rank`` are finishing places (``None`` for "not
entered"), ``places`` lists of them, ``time`` whole seconds; the others are plain numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.clock import clock

#: code -> the English sentence (``str.format`` fields are the params, formatted by their name).
TEMPLATES: dict[str, str] = {
    # Grand Tour, GT-5.5: the most recent stage's finishing order.
    "gt_time_stage_place": (
        "Same time; better place on stage {stage}: {place} against {other_place}"
    ),
    "gt_points_stage_place": (
        "Same points; better place on stage {stage}: {place} against {other_place}"
    ),
    "gt_team_time_stage_place": (
        "Same time; better-placed rider on stage {stage}: {place} against {other_place}"
    ),
    "gt_tp_stage_place": (
        "Same Tour Points; better-placed rider on stage {stage}: {place} against {other_place}"
    ),
    # Points championships, FD-76 / FD-77 (and rally championships' countback, RM-51).
    "more_wins": "Same points; more wins: {count} against {other_count}",
    "more_places": "Same points; more {place} places: {count} against {other_count}",
    "recent_race_place": (
        "Same points and countback; better place in race {race}: {place} against {other_place}"
    ),
    "recent_race_places": (
        "Same points and countback; better-placed cars in race {race}: {places} against "
        "{other_places}"
    ),
    "entry_order": "Same points, countback and places in every race; earlier in the driver list",
    "team_name": "Same points, countback and places in every race; team name order",
    "shared_points": "Same points and countback: they share {rank}",
    # Rallies, RM-42 and RM-44.
    "rally_stage_time": (
        "Same rally time; better time on stage {stage}: {time} against {other_time}"
    ),
    "shared_rally_time": "Same rally time and the same time on every stage: they share {rank}",
    "shared_stage_time": "Same stage time: they share {rank}",
}


def ordinal(place: int | None) -> str:
    """1st, 2nd, 3rd, 4th, 11th (English); ``None`` is "not entered"."""
    if place is None:
        return "not entered"
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def param_kind(name: str) -> str:
    """How a param is shown: ``place`` (ordinal), ``places`` (a list of them), ``time``, or
    ``number``; the service formats them the same way in each language."""
    if name.endswith("places"):
        return "places"
    if name.endswith(("place", "rank")):
        return "place"
    if name.endswith("time"):
        return "time"
    return "number"


def format_params(params: Mapping[str, Any]) -> dict[str, str]:
    """The params as the English sentence shows them."""
    out: dict[str, str] = {}
    for name, value in params.items():
        kind = param_kind(name)
        if kind == "places":
            out[name] = ", ".join(ordinal(v) for v in value)
        elif kind == "place":
            out[name] = ordinal(value)
        elif kind == "time":
            out[name] = clock(value)
        else:
            out[name] = str(value)
    return out


@dataclass(frozen=True)
class TieBreak:
    """The rule that ordered a row after the level row above it, or that they share a rank."""

    code: str
    rule: str  # the rule's number: "GT-5.5", "FD-76", "RM-44"...
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The English sentence, with the rule: "Same points; more wins: 2 against 1 (FD-76)"."""
        return f"{TEMPLATES[self.code].format(**format_params(self.params))} ({self.rule})"

    def to_json(self) -> dict[str, Any]:
        """What a snapshot stores: code, rule, params (plain JSON) and the English text."""
        return {
            "code": self.code,
            "rule": self.rule,
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in self.params.items()},
            "text": self.text(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> TieBreak | None:
        """The tie-break of a stored row (``None`` when it has none)."""
        if not data:
            return None
        params = {k: tuple(v) if isinstance(v, list) else v for k, v in data["params"].items()}
        return cls(data["code"], data["rule"], params)


def countback_break(above: Sequence[int], below: Sequence[int], rule: str) -> TieBreak | None:
    """The first place whose count differs, from counts of 1sts, 2nds, ... (``above`` ahead).

    ``None`` when the counts are the same (the tie goes on to the next criterion).
    """
    for index, (a, b) in enumerate(zip(above, below, strict=False)):
        if a != b:
            if index == 0:
                return TieBreak("more_wins", rule, {"count": a, "other_count": b})
            return TieBreak("more_places", rule, {"place": index + 1, "count": a, "other_count": b})
    return None


def place_counts(places: Sequence[int | None], deepest: int) -> list[int]:
    """How many 1sts, 2nds, ... down to ``deepest`` among ``places`` (``None`` skipped)."""
    counts = [0] * deepest
    for p in places:
        if p is not None and 1 <= p <= deepest:
            counts[p - 1] += 1
    return counts


__all__ = [
    "TEMPLATES",
    "TieBreak",
    "countback_break",
    "format_params",
    "ordinal",
    "param_kind",
    "place_counts",
]
