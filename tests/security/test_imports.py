"""Malformed import documents are a 400 naming the bad element, and store nothing (issue #13).

Item 2: a valid export whose ``events`` was ``[1]``, ``[null]``, ``["x"]`` or
``[{"number": 1, "versions": [5]}]`` answered 500 (``transfer.py`` called ``.get`` on whatever it
found), for all three games. The document is now checked whole against its format version's
schema before anything is stored. Item 10: ``manage.py import_competition`` without ``--user``
crashed on ``None.is_authenticated`` for a rally.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.championships.helpers import payload as championship_payload
from tests.championships.helpers import race_rows
from tests.conftest import stage_rows, tour_payload
from tests.rallies.helpers import rally_payload, sheet
from tournament.competitions.kinds import get_kind
from tournament.competitions.models import AuditAction, AuditEntry

pytestmark = pytest.mark.django_db


@dataclass(frozen=True)
class Game:
    label: str
    collection: str
    events: str
    payload: Callable[[], dict[str, Any]]
    rows: Callable[[dict[str, Any], int], list[dict[str, Any]]]


def _tour_rows(detail: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return stage_rows(detail, order=[5, 4, 3, 2, 1, 0] if number == 2 else None)


def _race_rows(detail: dict[str, Any], number: int) -> list[dict[str, Any]]:
    names = ["Ana", "Rui", "Eva"] if number == 1 else ["Eva", "Ana"]
    return race_rows(detail, number, names)


def _rally_rows(detail: dict[str, Any], number: int) -> list[dict[str, Any]]:
    return sheet(detail, 300 + number, "5:10", 320)


GAMES = {
    "tour": Game("tour", "tours", "stages", tour_payload, _tour_rows),
    "championship": Game(
        "championship", "championships", "races", championship_payload, _race_rows
    ),
    "rally": Game("rally", "rallies", "stages", rally_payload, _rally_rows),
}


def _competitions(game: Game) -> int:
    return int(get_kind(game.label).competition_model.objects.count())


def _export(clients: dict[str, Any], game: Game) -> dict[str, Any]:
    """A valid export: two events with results, the first corrected once."""
    organiser = clients["organiser"]
    detail = organiser.post(f"/api/{game.collection}/", game.payload(), format="json").json()
    for number in (1, 2, 1):
        url = f"/api/{game.collection}/{detail['id']}/{game.events}/{number}/results/"
        response = clients["scorekeeper"].post(
            url, {"results": game.rows(detail, number)}, format="json"
        )
        assert response.status_code == 202, response.content
    document = organiser.get(f"/api/{game.collection}/{detail['id']}/export/").json()
    assert [len(e["versions"]) for e in document["events"]] == [2, 1]
    return document  # type: ignore[no-any-return]


def _import(clients: dict[str, Any], game: Game, document: Any) -> Any:
    return clients["organiser"].post(
        f"/api/{game.collection}/import/",
        {"club": "velo-lisboa", "document": document},
        format="json",
    )


def _at(body: Any, *path: Any) -> Any:
    """The error at ``path`` in a 400's body (keys and list indexes)."""
    for step in path:
        assert isinstance(body, (dict, list)), (path, body)
        body = body[step]
    return body


def _entrant(game: Game) -> str:
    return get_kind(game.label).entrant_field


# (name, change to the document, path of the error under "document")
def _cases(game: Game) -> list[tuple[str, Callable[[dict[str, Any]], None], tuple[Any, ...]]]:
    field = _entrant(game)

    def events(value: Any) -> Callable[[dict[str, Any]], None]:
        return lambda d: d.__setitem__("events", value)

    def version(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        return lambda d: change(d["events"][1]["versions"][0])

    def row(change: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
        return lambda d: change(d["events"][1]["versions"][0]["rows"][1])

    return [
        # the four shapes the attack run found
        ("event-int", events([1]), ("events", 0)),
        ("event-null", events([None]), ("events", 0)),
        ("event-text", events(["x"]), ("events", 0)),
        ("version-int", events([{"number": 1, "versions": [5]}]), ("events", 0, "versions", 0)),
        # and more
        ("events-object", events({"0": {}}), ("events",)),
        ("events-text", events("x"), ("events",)),
        ("event-list", events([[]]), ("events", 0)),
        ("number-text", lambda d: d["events"][0].__setitem__("number", "one"), ("events", 0)),
        ("number-zero", lambda d: d["events"][1].__setitem__("number", 0), ("events", 1)),
        ("number-float", lambda d: d["events"][1].__setitem__("number", 1.5), ("events", 1)),
        ("number-huge", lambda d: d["events"][1].__setitem__("number", 10**30), ("events", 1)),
        ("number-missing", lambda d: d["events"][1].pop("number"), ("events", 1)),
        ("no-such-event", lambda d: d["events"][1].__setitem__("number", 99), ("events", 1)),
        ("event-twice", lambda d: d["events"][1].__setitem__("number", 1), ("events", 1)),
        ("versions-missing", lambda d: d["events"][0].pop("versions"), ("events", 0)),
        ("versions-null", lambda d: d["events"][0].__setitem__("versions", None), ("events", 0)),
        ("version-null", lambda d: d["events"][0]["versions"].append(None), ("events", 0)),
        ("version-twice", version(lambda v: v.__setitem__("number", 0)), ("events", 1)),
        ("rows-int", version(lambda v: v.__setitem__("rows", 5)), ("events", 1)),
        ("rows-missing", version(lambda v: v.pop("rows")), ("events", 1)),
        ("row-int", version(lambda v: v["rows"].append(1)), ("events", 1)),
        ("row-null", version(lambda v: v["rows"].insert(0, None)), ("events", 1)),
        ("source-bogus", version(lambda v: v.__setitem__("source", "bogus")), ("events", 1)),
        ("source-list", version(lambda v: v.__setitem__("source", [])), ("events", 1)),
        ("entrant-missing", row(lambda r: r.pop(field)), ("events", 1)),
        ("entrant-list", row(lambda r: r.__setitem__(field, [1])), ("events", 1)),
        ("entrant-unknown", row(lambda r: r.__setitem__(field, "nobody")), ("events", 1)),
        ("entrant-bool", row(lambda r: r.__setitem__(field, True)), ("events", 1)),
        ("too-many-events", events([{"number": 1, "versions": []}] * 101), ("events",)),
        ("competition-text", lambda d: d.__setitem__("competition", "x"), ("competition",)),
        ("competition-bad", lambda d: d["competition"].__setitem__("name", ""), ("competition",)),
        (
            "format-version-text",
            lambda d: d.__setitem__("format_version", "1"),
            ("format_version",),
        ),
        (
            "format-version-bool",
            lambda d: d.__setitem__("format_version", True),
            ("format_version",),
        ),
        ("format", lambda d: d.__setitem__("format", None), ("format",)),
        ("kind", lambda d: d.__setitem__("kind", "league"), ("kind",)),
        ("exported-at-list", lambda d: d.__setitem__("exported_at", []), ("exported_at",)),
    ]


ALL_CASES = [
    pytest.param(label, name, id=f"{label}-{name}")
    for label, game in GAMES.items()
    for name, _change, _path in _cases(game)
]


@pytest.mark.parametrize(("label", "case"), ALL_CASES)
def test_a_malformed_document_is_a_400_at_the_bad_element_and_stores_nothing(clients, label, case):
    game = GAMES[label]
    document = _export(clients, game)
    change, path = next((c, p) for n, c, p in _cases(game) if n == case)
    change(document)
    before = _competitions(game)
    response = _import(clients, game, document)
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/json")
    assert _at(response.json(), "document", *path), response.json()
    assert _competitions(game) == before


@pytest.mark.parametrize("label", list(GAMES))
def test_an_error_in_a_row_names_the_row(clients, label):
    """The path goes down to the row: events[1].versions[0].rows[1].<entrant>."""
    game = GAMES[label]
    field = _entrant(game)
    document = _export(clients, game)
    document["events"][1]["versions"][0]["rows"][1][field] = "nobody"
    body = _import(clients, game, document).json()
    assert _at(body, "document", "events", 1, "versions", 0, "rows", 1, field)


@pytest.mark.parametrize("label", list(GAMES))
def test_the_export_itself_still_imports(clients, label):
    game = GAMES[label]
    document = _export(clients, game)
    before = _competitions(game)
    response = _import(clients, game, document)
    assert response.status_code == 201, response.content
    assert _competitions(game) == before + 1


def _json_values() -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=6,
    )


def _places(document: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path in the document's events part (where a value may be replaced)."""
    found = [prefix] if prefix else []
    if isinstance(document, dict):
        for key, value in document.items():
            found += _places(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            found += _places(value, (*prefix, index))
    return found


def _replace(document: Any, path: tuple[Any, ...], value: Any) -> Any:
    changed = copy.deepcopy(document)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return changed


@pytest.mark.parametrize("label", list(GAMES))
def test_any_value_anywhere_in_the_events_is_a_400_or_an_import(clients, label):
    """Property: replace any element of ``events`` by any JSON value; never a 500, and a 400
    stores nothing."""
    game = GAMES[label]
    document = _export(clients, game)
    places = [("events", *p) for p in _places(document["events"])]

    @settings(
        max_examples=60,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(place=st.sampled_from(places), value=_json_values())
    def check(place: tuple[Any, ...], value: Any) -> None:
        try:
            json.dumps(value, allow_nan=False)
        except ValueError:
            value = None  # NaN and infinities are not JSON
        broken = _replace(document, place, value)
        before = _competitions(game)
        response = _import(clients, game, broken)
        assert response.status_code in (201, 400), (place, value, response.content)
        if response.status_code == 400:
            assert _competitions(game) == before, (place, value)
            assert "document" in response.json()

    check()


@pytest.mark.parametrize("label", list(GAMES))
def test_the_command_imports_without_a_user(clients, label, tmp_path):
    """Item 10: no ``--user`` means no creator and an audit entry without a user."""
    game = GAMES[label]
    path = tmp_path / "export.json"
    path.write_text(json.dumps(_export(clients, game)))
    out = StringIO()
    call_command("import_competition", "porto", str(path), stdout=out)
    assert f"Imported {game.label}" in out.getvalue()
    model = get_kind(game.label).competition_model
    imported = model.objects.filter(club__slug="porto").get()
    assert imported.created_by is None
    entry = AuditEntry.objects.get(
        competition_kind=game.label, competition_id=imported.pk, action=AuditAction.IMPORTED
    )
    assert entry.user is None
