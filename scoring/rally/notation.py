"""The turn-log notation of RM-55: parse, format, and compute a stage time from a log.

One log line per driver and stage, one item per turn in play order, then ``tK`` (unspent tokens):
``1 2 3 4 5 5 4 3 4 5 6 t4``. ``N`` is the card of gear N, ``0`` a LoC card, ``Ns`` a LoC resolved
as SISU in gear N (gear N's card). The parser reports every bad item with its 1-based position.
Numbers are ASCII digits only (``scoring.digits``): ``1 ٣`` is not a log.

The notation is the rally scoring's input (a scorekeeper types a log) as much as the engine's
output, so it lives in scoring, which the engine may import.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from scoring.digits import DIGIT, parse_digits
from scoring.issues import EngineError
from scoring.rally.rules import RallyRules

_TURN = re.compile(rf"({DIGIT}+)(s?)")
_TOKENS = re.compile(rf"t({DIGIT}+)")


class LogError(EngineError):
    """A log that breaks RM-55; ``params`` holds ``position`` (1-based item) and ``item``."""


@dataclass(frozen=True, slots=True)
class LogTurn:
    """One turn's card: ``gear`` 0..6; ``sisu`` marks a LoC resolved as SISU (RM-36)."""

    gear: int
    sisu: bool = False

    @property
    def item(self) -> str:
        """The turn's item in the notation."""
        return f"{self.gear}s" if self.sisu else str(self.gear)

    @property
    def loc(self) -> bool:
        """True for a LoC turn (spin, crash, a gear-0 turn, or SISU)."""
        return self.sisu or self.gear == 0


@dataclass(frozen=True, slots=True)
class TurnLog:
    """A parsed log: the turns in play order and the unspent tokens at the finish."""

    turns: tuple[LogTurn, ...]
    tokens: int = 0

    def format(self) -> str:
        """The canonical text (lower case, single spaces, ``tK`` omitted when 0)."""
        items = [t.item for t in self.turns]
        if self.tokens:
            items.append(f"t{self.tokens}")
        return " ".join(items)

    def cards(self, rules: RallyRules) -> int:
        """Sum of the card values (RM-34; a ``0`` is the LoC card, ``Ns`` gear N's card)."""
        return sum(rules.card_seconds(t.gear) for t in self.turns)


@dataclass(frozen=True, slots=True)
class LogTime:
    """The time a log stands for (RM-42 without penalties)."""

    turns: int
    cards: int
    tokens: int
    net_time: int


def log_issues(text: str) -> list[LogError]:
    """Every RM-55 problem of ``text`` (empty when the log is valid)."""
    if not isinstance(text, str):
        return [LogError("The log must be text.", "log_not_text")]
    items = text.split()
    if not items:
        return [LogError("The log has no turns.", "log_empty")]
    errors: list[LogError] = []
    token_at: int | None = None
    tokens_seen = False
    turns = 0
    for position, raw in enumerate(items, start=1):
        item = raw.lower()
        if _TOKENS.fullmatch(item):
            if tokens_seen:
                errors.append(
                    LogError(
                        f"Item {position} ({raw}): unspent tokens may be given only once.",
                        "log_tokens_repeated",
                        position=position,
                        item=raw,
                    )
                )
            token_at = position if token_at is None else token_at
            tokens_seen = True
            continue
        turn = _TURN.fullmatch(item)
        if turn is None:
            errors.append(
                LogError(
                    f"Item {position} ({raw}) is not a turn (0-6, 1s-6s) or tokens (tK).",
                    "log_unknown_item",
                    position=position,
                    item=raw,
                )
            )
        else:
            gear = parse_digits(turn.group(1))
            sisu = bool(turn.group(2))
            if gear > 6 or (sisu and gear == 0) or len(turn.group(1)) > 1:
                errors.append(
                    LogError(
                        f"Item {position} ({raw}): no time card for this gear "
                        f"({'1-6' if sisu else '0-6'}).",
                        "log_gear_out_of_range",
                        position=position,
                        item=raw,
                    )
                )
        turns += 1
        if token_at is not None:
            errors.append(
                LogError(
                    f"Item {token_at} (tokens) must be the last item.",
                    "log_tokens_not_last",
                    position=token_at,
                    item=items[token_at - 1],
                )
            )
            token_at = None  # report a misplaced tK once, not after every later turn
    if turns == 0:
        errors.append(LogError("The log has no turns, only tokens.", "log_no_turns"))
    return errors


def parse_log(text: str) -> TurnLog:
    """Parse an RM-55 log; raises :class:`LogError` (the first problem) when it is invalid."""
    errors = log_issues(text)
    if errors:
        raise errors[0]
    turns: list[LogTurn] = []
    tokens = 0
    for raw in text.split():
        item = raw.lower()
        if item.startswith("t"):
            tokens = parse_digits(item[1:])
        elif item.endswith("s"):
            turns.append(LogTurn(parse_digits(item[:-1]), sisu=True))
        else:
            turns.append(LogTurn(parse_digits(item)))
    return TurnLog(tuple(turns), tokens)


def log_time(log: str | TurnLog, rules: RallyRules) -> LogTime:
    """The time a log stands for: net time = cards - tokens x token_seconds (RM-55, RM-42).

    This is the pure function the service uses for a submitted ``log``; penalties are added by
    the rally scoring. Raises :class:`LogError` for an invalid log.
    """
    parsed = parse_log(log) if isinstance(log, str) else log
    cards = parsed.cards(rules)
    return LogTime(
        turns=len(parsed.turns),
        cards=cards,
        tokens=parsed.tokens,
        net_time=cards - parsed.tokens * rules.token_seconds,
    )
