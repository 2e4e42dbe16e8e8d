"""Stage set-up: the input dataclasses of :func:`simulate_stage` and their validation (FR-15).

Dummy riders (FR-56..FR-60) get negative ids so they never clash with the tour's riders:
Peloton team -1 (riders -1, -2), Muscle team -2 (Sprinteur -3, Rouleur -4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.flamme_rouge.cards import ROULEUR, SPECIALISTS, SPRINTEUR
from games.flamme_rouge.errors import SetupError
from games.flamme_rouge.rules import StageRules
from games.flamme_rouge.track import Course

DUMMY_TEAMS = ("none", "peloton", "muscle", "both")
PELOTON_TEAM_ID, MUSCLE_TEAM_ID = -1, -2
STACK_TYPES = ("major", "minor")
STACK_SIDES = ("sprint", "mountain")


@dataclass(frozen=True)
class RiderEntry:
    """A player-team rider: id, role, specialist (FR-63 name) and exhaustion carried in (FR-5)."""

    id: int
    role: str  # rouleur | sprinteur
    specialist: str | None = None
    exhaustion: int = 0


@dataclass(frozen=True)
class TeamEntry:
    """A player team in entry order: two riders, a Rouleur and a Sprinteur (FR-1)."""

    id: int
    riders: tuple[RiderEntry, ...]


@dataclass(frozen=True)
class Stack:
    """A token stack (FR-52): id, ``major``/``minor``, ``sprint``/``mountain``, its square."""

    id: str
    type: str
    side: str
    square: int


@dataclass(frozen=True)
class StageSetup:
    """Everything a stage needs besides the RNG (FR-15).

    ``placement_order`` lists team ids (FR-18); None draws it with the stage RNG. ``course`` may be
    a string or a parsed :class:`Course`; either way it is resolved under ``rules`` (Tour mode).
    """

    course: str | Course
    teams: tuple[TeamEntry, ...]
    stacks: tuple[Stack, ...] = ()
    placement_order: tuple[int, ...] | None = None
    dummy_teams: str = "none"
    rules: StageRules = field(default_factory=StageRules)
    number: int = 1  # stage number, for the header and derive_rng(seed, "stage", number)


def validate_setup(setup: StageSetup, course: Course) -> None:
    """Raise :class:`SetupError` for anything the rules cannot play; decks are checked later."""
    if setup.dummy_teams not in DUMMY_TEAMS:
        raise SetupError(
            f"Unknown dummy_teams {setup.dummy_teams!r}.",
            "invalid_dummy_teams",
            value=setup.dummy_teams,
            choices=list(DUMMY_TEAMS),
        )
    if not setup.teams:
        raise SetupError("A stage needs at least one player team.", "no_teams")
    team_ids = _validate_teams(setup.teams)
    if setup.placement_order is not None and sorted(setup.placement_order) != sorted(team_ids):
        raise SetupError(
            "The placement order must list every team id exactly once.",
            "invalid_placement_order",
            order=list(setup.placement_order),
            teams=team_ids,
        )
    dummies = {"none": 0, "peloton": 2, "muscle": 2, "both": 4}[setup.dummy_teams]
    riders = 2 * len(setup.teams) + dummies
    if riders > course.start_capacity:
        raise SetupError(
            f"The start area holds {course.start_capacity} riders; this stage has {riders}.",
            "too_many_riders",
            riders=riders,
            capacity=course.start_capacity,
        )
    stack_ids: set[str] = set()
    for stack in setup.stacks:
        _validate_stack(stack, course, stack_ids)


def _validate_teams(teams: tuple[TeamEntry, ...]) -> list[int]:
    """FR-1: distinct non-negative team ids, a Rouleur and a Sprinteur each; returns the ids."""
    team_ids: list[int] = []
    rider_ids: set[int] = set()
    for team in teams:
        if not isinstance(team.id, int) or team.id < 0:
            raise SetupError(
                "Team ids must be non-negative integers.", "invalid_team_id", team=team.id
            )
        if team.id in team_ids:
            raise SetupError(f"Team id {team.id} appears twice.", "duplicate_team", team=team.id)
        team_ids.append(team.id)
        roles = sorted(r.role for r in team.riders)
        if roles != [ROULEUR, SPRINTEUR]:
            raise SetupError(
                f"Team {team.id} must have exactly one rouleur and one sprinteur (FR-1).",
                "team_riders",
                team=team.id,
                roles=[r.role for r in team.riders],
            )
        for rider in team.riders:
            _validate_rider(rider, rider_ids)
    return team_ids


def _validate_rider(rider: RiderEntry, seen: set[int]) -> None:
    if not isinstance(rider.id, int) or rider.id < 0:
        raise SetupError(
            "Rider ids must be non-negative integers.", "invalid_rider_id", rider=rider.id
        )
    if rider.id in seen:
        raise SetupError(f"Rider id {rider.id} appears twice.", "duplicate_rider", rider=rider.id)
    seen.add(rider.id)
    if not isinstance(rider.exhaustion, int) or rider.exhaustion < 0:
        raise SetupError(
            "Carried exhaustion must be a non-negative integer.",
            "invalid_exhaustion",
            rider=rider.id,
            value=rider.exhaustion,
        )
    if rider.specialist is not None:
        spec = SPECIALISTS.get(rider.specialist)
        if spec is None:
            raise SetupError(
                f"Unknown specialist {rider.specialist!r} for rider {rider.id}.",
                "unknown_specialist",
                rider=rider.id,
                specialist=rider.specialist,
                choices=sorted(SPECIALISTS),
            )
        if spec[0] != rider.role:
            raise SetupError(
                f"Specialist {rider.specialist!r} belongs on a {spec[0]}; rider {rider.id} is "
                f"a {rider.role}.",
                "specialist_wrong_role",
                rider=rider.id,
                specialist=rider.specialist,
                role=rider.role,
                expected=spec[0],
            )


def _validate_stack(stack: Stack, course: Course, seen: set[str]) -> None:
    if stack.id in seen:
        raise SetupError(f"Stack id {stack.id!r} appears twice.", "duplicate_stack", stack=stack.id)
    seen.add(stack.id)
    if stack.type not in STACK_TYPES:
        raise SetupError(
            f"Stack {stack.id!r}: type must be major or minor.",
            "invalid_stack_type",
            stack=stack.id,
            value=stack.type,
        )
    if stack.side not in STACK_SIDES:
        raise SetupError(
            f"Stack {stack.id!r}: side must be sprint or mountain.",
            "invalid_stack_side",
            stack=stack.id,
            value=stack.side,
        )
    if not isinstance(stack.square, int) or not 1 <= stack.square <= course.length:
        raise SetupError(
            f"Stack {stack.id!r}: square {stack.square} is not on the course (1..{course.length}).",
            "invalid_stack_square",
            stack=stack.id,
            square=stack.square,
            length=course.length,
        )


__all__ = ["RiderEntry", "Stack", "StageSetup", "TeamEntry", "validate_setup"]
