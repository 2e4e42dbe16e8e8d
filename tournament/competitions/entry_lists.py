"""A competition's driver entry list, shared by Formula D championships and leagues.

Both kinds enter named drivers (``{name, team}``, names unique by casefold) and races entering
some of them (by default everyone, FD-78). The checks, the set-up payload and the rows written
from a checked set-up live here once; each kind adds its own rules (builds, ``max_cars``) and
passes its own wording, so the messages keep naming "championship" or "league".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from django.db import models
from django.utils.translation import gettext as _

Errors = dict[str, list[str]]


class NamedDriver(Protocol):
    pk: Any
    name: str
    team: str


def check_driver_names(drivers: list[dict[str, Any]], unique_message: str) -> list[Errors]:
    """Strip each driver's name and team in place; one error dict per driver (empty if fine)."""
    counts = Counter(d["name"].strip().casefold() for d in drivers)
    errors: list[Errors] = []
    for driver in drivers:
        driver["name"], driver["team"] = driver["name"].strip(), (driver.get("team") or "").strip()
        if not driver["name"]:
            errors.append({"name": [_("This field may not be blank.")]})
        elif counts[driver["name"].casefold()] > 1:
            errors.append({"name": [unique_message]})
        else:
            errors.append({})
    return errors


def known_names(drivers: list[dict[str, Any]]) -> dict[str, str]:
    """Each driver's name by its casefold: how a race's entry list finds them."""
    return {d["name"].casefold(): d["name"] for d in drivers}


def entered_names(
    entered: list[str], known: dict[str, str], unknown_message: str
) -> tuple[list[str], list[str]]:
    """A race's entry list as the drivers' own names, and what is wrong with it.

    ``unknown_message`` is formatted with the ``name`` as sent.
    """
    problems: list[str] = []
    names: list[str] = []
    for name in entered:
        found = known.get(name.strip().casefold())
        if found is None:
            problems.append(unknown_message % {"name": name})
        elif found in names:
            problems.append(_("%(name)s is entered twice.") % {"name": found})
        else:
            names.append(found)
    if not entered:
        problems.append(_("A race needs at least one driver."))
    return names, problems


def add_list_errors(
    errors: dict[str, Any],
    key: str,
    items: Sequence[Any],
    item_errors: list[Errors],
    limit: int,
    size_message: str,
) -> None:
    """Report a list of 1 to ``limit`` items: its size first, else each item's errors."""
    if not 1 <= len(items) <= limit:
        errors[key] = [size_message % {"max": limit}]
    elif any(item_errors):
        errors[key] = item_errors


def driver_names(drivers: Iterable[NamedDriver]) -> dict[Any, str]:
    """The drivers' names by id, in entry order."""
    return {d.pk: d.name for d in drivers}


def race_entry_payload(entered: list[int], names: dict[Any, str]) -> dict[str, Any]:
    """A race's ``drivers`` for the set-up payload; none when everyone is entered.

    Races entered by everyone stay "default": a driver added later is entered too.
    """
    if entered == list(names):
        return {}
    return {"drivers": [names[pk] for pk in entered if pk in names]}


def driver_payload(driver: NamedDriver) -> dict[str, Any]:
    """A driver as the set-up sends it (API.md: no team is ``null``)."""
    return {"name": driver.name, "team": driver.team or None}


def save_drivers(
    model: type[models.Model], link: str, competition: models.Model, drivers: Iterable[Any]
) -> dict[str, int]:
    """Insert the unsaved ``drivers`` of ``competition`` (FK field ``link``); their ids by name."""
    saved = model._default_manager.bulk_create(drivers)
    if any(d.pk is None for d in saved):  # backends without RETURNING on bulk inserts
        saved = list(model._default_manager.filter(**{link: competition}).order_by("order"))
    return {d.name: d.pk for d in saved}  # type: ignore[attr-defined]


def entrant_names(competition: Any) -> dict[int, str]:
    """``GameKind.entrant_keys`` of a kind whose entrants are its ``drivers`` (names unique)."""
    return dict(competition.drivers.values_list("pk", "name"))
