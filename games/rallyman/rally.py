"""Between two stages of a rally: who starts, in which order (RM-6), and what each car brings
from the previous stage: tokens (RM-31 ``tokens_carry_over``) and damage (RM-40
``repair_between_stages``).

Pure functions for the service, which loads the classification and the previous stage's replay::

    order = start_order(number, classification, entry_list, rules,
                        rng=derive_rng(seed, "rally_start_order", number))
    entries = stage_entries(order, rules, previous=previous_replay)   # None for stage 1
    run = simulate_stage(track, entries, rules, derive_rng(seed, "rally_stage", number), ...)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.rallyman.errors import RallymanError
from games.rallyman.simulate import CarEntry, StageRun
from scoring.rally.rules import RallyRules


def start_order(
    stage_number: int,
    previous_results: Sequence[int],
    entry_list: Sequence[int],
    rules: RallyRules,
    *,
    rng: random.Random | None = None,
) -> list[int]:
    """RM-6: the drivers starting stage ``stage_number`` (1-based), in start order.

    ``entry_list`` is the rally's entry list; ``previous_results`` the overall classification
    after the previous stage, leader first, of the drivers still in the rally (RM-44, RM-46;
    ignored for stage 1). Drivers missing from it are out of the rally and do not start.
    ``first_stage_order`` / ``later_stage_order``: ``"entry"`` keeps the entry-list order,
    ``"standings"`` the classification, ``"random"`` shuffles the entry-list order with ``rng``
    (required then).
    """
    if stage_number < 1:
        raise RallymanError("Stages are numbered from 1.", "bad_stage_number", number=stage_number)
    entry = list(entry_list)
    if len(set(entry)) != len(entry):
        raise RallymanError("A driver is entered twice.", "duplicate_car")
    if stage_number == 1:
        how, running = rules.first_stage_order, entry
    else:
        unknown = [d for d in previous_results if d not in entry]
        if unknown or len(set(previous_results)) != len(previous_results):
            raise RallymanError(
                "The classification must list entered drivers once each.",
                "bad_classification",
                drivers=unknown,
            )
        how, running = rules.later_stage_order, list(previous_results)
    if how != "standings":
        still = set(running)
        running = [d for d in entry if d in still]
    if how == "random":
        if rng is None:
            raise RallymanError("A random start order needs a random generator.", "rng_needed")
        rng.shuffle(running)
    return running


def stage_entries(
    order: Sequence[int],
    rules: RallyRules,
    previous: StageRun | Mapping[str, Any] | None = None,
) -> list[CarEntry]:
    """The :class:`CarEntry` list of a stage: ``order`` from :func:`start_order`, with what each
    car brings from ``previous`` (the previous stage's :class:`StageRun` or its stored
    ``replay_json()``; ``None`` for stage 1 or a stage entered from a score sheet).

    - RM-31: with ``tokens_carry_over``, the tokens the previous stage carried.
    - RM-40: without ``repair_between_stages``, the damage of a car that finished it. A car that
      retired (and restarts under RM-46 Super Rally) starts repaired (project ruling): the damage
      that stopped it would otherwise stop it again at once.
    """
    carried: dict[int, tuple[int, tuple[int, int, int]]] = {}
    if previous is not None:
        for car, status, tokens, damage in _previous_cars(previous):
            keep = not rules.repair_between_stages and status == "finished"
            carried[car] = (
                tokens if rules.tokens_carry_over else 0,
                damage if keep else (0, 0, 0),
            )
    out = []
    for car in order:
        tokens, damage = carried.get(car, (0, (0, 0, 0)))
        out.append(CarEntry(car, tokens, damage))
    return out


def _previous_cars(
    previous: StageRun | Mapping[str, Any],
) -> list[tuple[int, str, int, tuple[int, int, int]]]:
    """(car, status, carried tokens, damage) from a run or its replay JSON."""
    if isinstance(previous, StageRun):
        return [(c.car, c.status, c.carried_tokens, c.damage) for c in previous.cars]
    # Replays stored before damage was recorded lack it (no damage then); the service also keeps
    # a top-level ``carried_tokens`` map, used when a result has no ``carried_tokens``.
    top = previous.get("carried_tokens") or {}
    out = []
    for row in previous.get("results") or []:
        car = int(row["car"])
        tokens = row.get("carried_tokens", top.get(str(car), 0))
        gear, brake, coast = (int(v) for v in (row.get("damage") or (0, 0, 0)))
        out.append((car, str(row["status"]), int(tokens or 0), (gear, brake, coast)))
    return out
