"""What the forecast engine returns: statuses with their reasons, scenarios, odds.

Everything here is plain data. A :class:`Reason` is a sentence kept as a code and its figures, so
that the service can translate it; :meth:`Reason.text` gives the English sentence.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["clinched", "eliminated", "open"]
EntrantId = Hashable


def _plural(count: int, noun: str) -> str:
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    return f"{words.get(count, str(count))} {noun}{'' if count == 1 else 's'}"


@dataclass(frozen=True)
class Reason:
    """Why an entrant is clinched or eliminated: a stable ``code`` and its figures.

    Codes: ``cannot_catch`` (a rival stays ahead even if the entrant takes everything and the
    rival nothing), ``loses_tie_break`` (at best level on points, beaten on the tie-break),
    ``cannot_beat_all`` (each rival alone can be passed, not all at once: the integer program
    has no solution), ``clinched`` (no rival can pass even if the rival takes everything and
    the holder nothing), ``decided`` (no event left), ``time_title`` (decided by time: never
    before the last event; only for ``open``), ``unbounded`` (bonus points without a limit).
    """

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def text(self) -> str:
        """The reason as an English sentence."""
        p = self.params
        noun = p.get("event_noun", "event")
        left = _plural(int(p.get("events_left", 0)), noun)
        if self.code == "cannot_catch":
            sentence = (
                f"{p['entrant']} cannot catch {p['rival']}: {p['behind']} points behind with "
                f"{left} left, at most {p['max_gain']} to win"
            )
            if p.get("rival_min_gain"):
                sentence += f", and {p['rival']} keeps at least {p['rival_min_gain']} more"
            return sentence
        if self.code == "loses_tie_break":
            return (
                f"{p['entrant']} can at best draw level with {p['rival']} on {p['points']} "
                f"points with {left} left, and would lose the tie-break"
            )
        if self.code == "cannot_beat_all":
            rivals = list(p["rivals"])
            names = rivals[0] if len(rivals) == 1 else ", ".join(rivals[:-1]) + " and " + rivals[-1]
            return (
                f"{p['entrant']} cannot finish ahead of {names} at once: whatever the {left} "
                f"left bring, one of them stays ahead"
            )
        if self.code == "clinched":
            return (
                f"{p['entrant']} has clinched the title: {p['lead']} points ahead of "
                f"{p['rival']} with {left} left, at most {p['rival_max_gain']} to lose"
            )
        if self.code == "only_entrant":
            return f"{p['entrant']} is the only entrant"
        if self.code == "decided":
            return f"{p['entrant']} finished {p['rank']} with no {noun} left"
        if self.code == "time_title":
            return f"Decided by time: open until the last {noun}"
        if self.code == "unbounded":
            return "Bonus points have no upper limit, so nothing is decided before the end"
        return self.code

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params), "text": self.text()}


@dataclass(frozen=True)
class ScenarioEvent:
    """One remaining event of a scenario: units in finishing order and what else it needs.

    ``details`` holds the game's extras (``eliminated`` units, ``pole``, tokens), JSON-friendly.
    """

    number: int
    order: tuple[EntrantId, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "order": list(self.order), **dict(self.details)}


@dataclass(frozen=True)
class Scenario:
    """Results of every remaining event; ``results`` are the scoring code's own input objects."""

    events: tuple[ScenarioEvent, ...]
    results: tuple[Any, ...] = ()

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.events]


@dataclass(frozen=True)
class EntrantStatus:
    """One entrant of one title: its exact status, the reason, and a winning scenario if open.

    ``needs_help`` is true for an open entrant whose own best results are not enough: some rival
    could still pass it; ``scenario`` then shows one way the title is won.
    """

    entrant: EntrantId
    name: str
    status: Status
    reason: Reason | None = None
    needs_help: bool = False
    scenario: Scenario | None = None
    exact: bool = True  # False only where a title's method leaves the case unproven (docs)

    def to_json(self) -> dict[str, Any]:
        return {
            "exact": self.exact,
            "entrant": self.entrant,
            "name": self.name,
            "status": self.status,
            "reason": None if self.reason is None else self.reason.to_json(),
            "needs_help": self.needs_help,
            "scenario": None if self.scenario is None else self.scenario.to_json(),
        }


@dataclass(frozen=True)
class TitleStatus:
    """Every entrant of one title (``drivers``, ``green``...) with its status."""

    title: str
    events_left: int
    entrants: tuple[EntrantStatus, ...]

    def by_entrant(self) -> dict[EntrantId, EntrantStatus]:
        return {e.entrant: e for e in self.entrants}

    def status_of(self, entrant: EntrantId) -> Status:
        return self.by_entrant()[entrant].status


@dataclass(frozen=True)
class TitleOdds:
    """One title's probabilities, entrants in the title's order (sum to 1)."""

    title: str
    entrants: tuple[EntrantId, ...]
    probabilities: tuple[float, ...]
    statuses: tuple[Status, ...]

    def ranked(self) -> list[tuple[EntrantId, float, Status]]:
        """Highest probability first (the API's order); equal ones keep the title's order."""
        rows = list(zip(self.entrants, self.probabilities, self.statuses, strict=True))
        order = sorted(range(len(rows)), key=lambda i: -rows[i][1])
        return [rows[i] for i in order]


@dataclass(frozen=True)
class Forecast:
    """Merged Monte Carlo result: title odds and the main classification's rank distribution."""

    simulations: int
    seed: int
    titles: Mapping[str, TitleOdds]
    main: str
    positions: Mapping[EntrantId, tuple[float, ...]]


def ordinal(rank: int) -> str:
    """1st, 2nd, 3rd, 4th... (English)."""
    if 10 <= rank % 100 <= 20:
        return f"{rank}th"
    return f"{rank}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(rank % 10, 'th') }"


def names_list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
