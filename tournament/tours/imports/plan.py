"""What an import creates, whatever the file it came from, and where its errors point.

A reader (:mod:`.companion`, :mod:`.csv_format`) checks its own format and answers an
:class:`ImportPlan`; the service then creates the tour through the create request's checks and
submits every stage through the submission checks. An error those later checks find is reported
at the place in the *file* it came from (``Locate``), so a 400 always names what to fix in what
the organiser uploaded, never Podium's internal request.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

#: A path inside the uploaded document: keys and list indexes, outermost first.
Path = tuple[str | int, ...]
#: Where an error of Podium's set-up (``("teams", 1, "riders", 0, "specialist")``) points.
Locate = Callable[[Path], Path]


@dataclass(frozen=True)
class RiderLine:
    """One rider's result in one stage, with the place in the file it was read from."""

    team: int  # the team's index in ``ImportPlan.setup["teams"]``
    role: str  # "rouleur" or "sprinteur"
    position: int
    seconds_total: int
    sprint_points: int = 0
    mountain_points: int = 0
    exhaustion: int | None = None
    where: Path = ()
    #: The file's name of each row field (``{"minutes": "time", ...}``) for errors.
    fields: dict[str, str] = field(default_factory=dict)

    def row(self, rider_id: int) -> dict[str, Any]:
        """The submission row (``POST …/results/``) for the rider's database id."""
        minutes, seconds = divmod(self.seconds_total, 60)
        return {
            "rider": rider_id,
            "position": self.position,
            "minutes": minutes,
            "seconds": seconds,
            "sprint_points": self.sprint_points,
            "mountain_points": self.mountain_points,
            "exhaustion": self.exhaustion,
        }


@dataclass(frozen=True)
class StagePlan:
    number: int
    riders: tuple[RiderLine, ...]  # in finishing order
    where: Path = ()


@dataclass(frozen=True)
class ImportPlan:
    """A tour to create: ``setup`` as ``POST /api/tours/`` takes it, and the stages played."""

    source: str  # "companion" or "csv": the audit entry says which
    name: str
    setup: dict[str, Any]
    stages: tuple[StagePlan, ...]
    locate: Locate
    #: Tour Points the file itself claims, per ("stage" | "rest_day", stage number) and team
    #: index (the Companion's own figures; none for a CSV): compared with Podium's.
    claimed_tp: dict[tuple[str, int], dict[int, int]] = field(default_factory=dict)
    #: Where each claimed figure was read (same keys), for the report.
    claimed_where: dict[tuple[str, int], Path] = field(default_factory=dict)
    exported_at: str = ""
    #: The key every error of this file nests under (``document``, ``csv``).
    root: str = "document"


class FileErrors:
    """Field errors collected at paths of the uploaded file, as DRF nests them."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.errors: dict[str | int, Any] = {}

    def add(self, where: Path, message: str) -> None:
        node: dict[str | int, Any] = self.errors
        steps = list(where) or ["non_field_errors"]
        for step in steps[:-1]:
            child = node.get(step)
            if not isinstance(child, dict):
                child = {} if child is None else {"non_field_errors": child}
                node[step] = child
            node = child
        last = steps[-1]
        existing = node.get(last)
        if isinstance(existing, dict):
            existing.setdefault("non_field_errors", []).append(message)
        else:
            node.setdefault(last, []).append(message)

    def __bool__(self) -> bool:
        return bool(self.errors)

    def detail(self) -> dict[str, Any]:
        """``{root: {...}}``: the shape of every import's 400 (lists of items become lists)."""
        return {self.root: self.errors}


def flatten(detail: Any, prefix: Path = ()) -> Iterator[tuple[Path, str]]:
    """Every message of nested DRF errors with its path (list items by index)."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            inner = prefix if key == "non_field_errors" else (*prefix, key)
            yield from flatten(value, inner)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            for item in detail:
                yield prefix, str(item)
        else:
            for index, item in enumerate(detail):
                yield from flatten(item, (*prefix, index))
    elif detail not in (None, ""):
        yield prefix, str(detail)


def relocated(root: str, detail: Any, locate: Locate) -> dict[str, Any]:
    """Podium's own errors (set-up or results) moved to the paths of the file."""
    errors = FileErrors(root)
    for where, message in flatten(detail):
        errors.add(locate(where), message)
    return errors.detail()


def to_path_text(where: Sequence[str | int]) -> str:
    """``("game", "entries", 3, "time")`` → ``game.entries[3].time`` (for messages and docs)."""
    text = ""
    for step in where:
        text += f"[{step}]" if isinstance(step, int) else (f".{step}" if text else step)
    return text
