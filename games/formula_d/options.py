"""What the path search returns: move options, their lazy list and the search's records.

:class:`MoveOption` is one way to end a move; :class:`OptionList` holds the search's records
(:data:`Record`) and builds a MoveOption only when one is used; :class:`MoveContext` and
:data:`Params` describe the car and race to the search (:mod:`games.formula_d.search`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, overload

from games.formula_d.circuit import Line, Pos
from games.formula_d.track import PIT, Track


@dataclass(frozen=True, init=False)
class MoveOption:
    """One way to end a move; ``steps`` spaces moved out of ``roll``."""

    end: Pos
    steps: int
    roll: int
    path: tuple[Pos, ...]
    overshoot_spaces: int = 0  # FD-22: WP-charged spaces beyond short corners' exit lines
    overshoot_out: bool = False  # FD-22: two or more stops short: eliminated
    short: bool = False  # an overshooting move (FD-23, FD-24)
    exited_corner: bool = False  # crossed some corner's exit line (FD-24 "always")
    corners_left: tuple[int, ...] = ()
    crossed_line: bool = False
    finished: bool = False
    into_box: bool = False
    danger: tuple[Pos, ...] = ()
    police: bool = False
    forced: int = 0  # FD-27: spaces the car could not move whatever the path
    nitro: bool = False
    debris: tuple[Pos, ...] = ()  # FD-64 (advanced): debris spaces passed over or stopped on
    slipstream: int = 0  # FD-65 (advanced): slipstream spaces added to the roll

    def __init__(
        self,
        end: Pos,
        steps: int,
        roll: int,
        path: tuple[Pos, ...],
        overshoot_spaces: int = 0,
        overshoot_out: bool = False,
        short: bool = False,
        exited_corner: bool = False,
        corners_left: tuple[int, ...] = (),
        crossed_line: bool = False,
        finished: bool = False,
        into_box: bool = False,
        danger: tuple[Pos, ...] = (),
        police: bool = False,
        forced: int = 0,
        nitro: bool = False,
        debris: tuple[Pos, ...] = (),
        slipstream: int = 0,
    ) -> None:
        # The option a driver picks is built on most moves: the instance dict is written
        # directly, 3 to 4 times faster than a frozen dataclass's generated __init__ (see
        # model.Event); tests/games/formula_d/test_model.py checks this against the fields.
        d = self.__dict__
        d["end"] = end
        d["steps"] = steps
        d["roll"] = roll
        d["path"] = path
        d["overshoot_spaces"] = overshoot_spaces
        d["overshoot_out"] = overshoot_out
        d["short"] = short
        d["exited_corner"] = exited_corner
        d["corners_left"] = corners_left
        d["crossed_line"] = crossed_line
        d["finished"] = finished
        d["into_box"] = into_box
        d["danger"] = danger
        d["police"] = police
        d["forced"] = forced
        d["nitro"] = nitro
        d["debris"] = debris
        d["slipstream"] = slipstream

    @property
    def braked(self) -> int:
        """Spaces not moved on the track (0 when finishing, boxing or in the pit lane)."""
        if self.finished or self.into_box or self.overshoot_out or self.end[0] == PIT:
            return 0
        return self.roll - self.steps

    @property
    def in_pit(self) -> bool:
        return self.end[0] == PIT


@dataclass(frozen=True, slots=True)
class MoveContext:
    """What the path search needs to know about the car and the race."""

    start: Pos
    corner: int  # the corner segment the car stands in, or -1
    stops: int
    final_crossing: bool  # the next crossing of the finish line finishes the race
    may_pit: bool
    box: int  # the car's own box (pit-lane space), or -1 when it has stopped there already
    max_lane_changes: int
    lock_always: bool  # FD-21 exit_lane_lock
    max_missing: int  # FD-22 overshoot_max_missing_stops
    danger: Collection[Pos] = ()
    tunnels: Mapping[Pos, Pos] | None = None
    police_line: Line | None = None
    corner_spaces: int = -1  # FD-20: spaces already moved through ``corner`` (-1: unknown)


class Params(NamedTuple):
    """The search parameters of one move, hashable (with the roll, the memo key of a search).

    ``corner_spaces`` counts the spaces the car has already moved through the corner it stands
    in (FD-20 caps a passage at the corner's ``longest``); -1 when the cap cannot bind any more
    (not in a corner, or no path from here can reach it), so that such starts share one search.
    """

    start: int  # space id (Track.node_id)
    corner: int  # the corner segment the car stands in, or -1
    stops: int  # stops made there
    final_crossing: bool
    may_pit: bool
    box: int  # the car's own box (pit-lane space index), or -1
    max_lane_changes: int
    lock_always: bool  # FD-21 exit_lane_lock
    max_missing: int  # FD-22 overshoot_max_missing_stops
    danger: frozenset[Pos]
    tunnels: tuple[tuple[Pos, Pos], ...]
    police_line: Line | None
    debris: frozenset[Pos]
    corner_spaces: int = -1


# State flags (bits of the ``flags`` field of a search state).
LOCKED, CROSSED, EXITED, POLICE = 1, 2, 4, 8
# A search state, plain tuples (the search makes millions; a NamedTuple costs 5 times more to
# build) always unpacked by name where read:
# (space id, lane changes, zig-zag key, flags, short corners, corner spaces)
# ``corner spaces``: spaces moved so far through the corner the state is in (FD-20), -1 when
# its ``longest`` cannot bind any more (see Params.corner_spaces).
StateKey = tuple[int, int, int, int, int, int]
# its costs: (overshoot WP, danger space ids, parent chain, corners left, debris space ids)
StateCost = tuple[int, tuple[int, ...], Any, tuple[int, ...], tuple[int, ...]]


class Record(NamedTuple):
    """One end of a move as the search found it (an option before it is built)."""

    steps: int  # spaces moved
    terminal: str  # "finish", "box", "out" or "" (an ordinary end)
    state: StateKey
    cost: StateCost


class OptionList(Sequence[MoveOption]):
    """The options of one move, in ``(steps, end)`` order, built into MoveOptions on access.

    ``raw[i]`` is the search's record of option ``i``: ``(steps, terminal, state, costs)``. The
    automatic driver scores the records directly and builds only the option it picks; other
    policies see an ordinary sequence. An option is built once, so identity is stable.
    """

    __slots__ = ("_built", "_last", "finish", "forced", "ranked", "raw", "roll", "track")

    def __init__(self, track: Track, roll: int, forced: int, raw: list[Record]) -> None:
        self.track = track
        self.roll = roll
        self.forced = forced
        self.raw = raw
        self._built: list[MoveOption | None] = [None] * len(raw)
        self._last: MoveOption | None = None  # the option built or read last
        # the automatic driver's ranking of these records (policy.AutoDriver), made once
        self.ranked: dict[bool, Any] = {}
        self.finish = -1  # index of the finishing option, if any
        for i, record in enumerate(raw):
            if record.terminal == "finish":
                self.finish = i

    def __len__(self) -> int:
        return len(self.raw)

    @overload
    def __getitem__(self, index: int) -> MoveOption: ...

    @overload
    def __getitem__(self, index: slice) -> list[MoveOption]: ...

    def __getitem__(self, index: int | slice) -> MoveOption | list[MoveOption]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.raw)))]
        option = self._built[index]
        if option is None:
            option = self._built[index] = self._build(self.raw[index])
        self._last = option
        return option

    def __iter__(self) -> Iterator[MoveOption]:
        for i in range(len(self.raw)):
            yield self[i]

    def within_braking(self, spaces: int) -> OptionList:
        """These options without those braking more than ``spaces`` beyond the forced ones."""
        is_pit = self.track.is_pit
        keep: list[Record] = []
        for record in self.raw:
            depth, terminal, key, _ = record
            if terminal or is_pit[key[0]]:
                keep.append(record)
                continue
            braked = self.roll - depth
            if braked - min(self.forced, braked) <= spaces:
                keep.append(record)
        if len(keep) == len(self.raw):
            return self
        return OptionList(self.track, self.roll, self.forced, keep)

    def offered(self, option: MoveOption) -> bool:
        """Whether ``option`` is one of these (by identity, then by value)."""
        if option is self._last:
            return True
        for built in self._built:
            if built is option:
                return True
        return option in list(self)

    def _build(self, record: Record) -> MoveOption:
        depth, terminal, key, val = record
        nodes = self.track.nodes
        over, dz, chain, corners, db = val
        path: list[Pos] = []
        link = chain
        while link is not None:
            path.append(nodes[link[0]])
            link = link[1]
        path.reverse()
        end, _, _, flags, short, _ = key
        return MoveOption(
            nodes[end],
            depth,
            self.roll,
            tuple(path),
            over,
            terminal == "out",
            short > 0,
            bool(flags & EXITED),
            corners,
            bool(flags & CROSSED),
            terminal == "finish",
            terminal == "box",
            tuple([nodes[n] for n in dz]) if dz else (),
            bool(flags & POLICE),
            self.forced,
            False,
            tuple([nodes[n] for n in db]) if db else (),
        )
