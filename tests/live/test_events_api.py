"""``GET /api/<collection>/{id}/events/``: visibility, content types, the state, catch-up.

Requests here go through the WSGI test client, so the stream is the short WSGI answer (it
ends at once, tests/live/test_stream.py follows the never-ending ones): ``retry``, a comment
and, for a client behind, the catch-up ``standings``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.championships.helpers import create as create_championship
from tests.championships.helpers import race_rows
from tests.championships.helpers import submit as submit_race
from tests.conftest import stage_rows, tour_payload
from tests.leagues.helpers import create as create_league
from tests.rallies.helpers import create_rally, sheet
from tests.rallies.helpers import submit as submit_rally

pytestmark = pytest.mark.django_db

STREAM = "text/event-stream"


def body(response: Any) -> str:
    return b"".join(response.streaming_content).decode()


def events_url(collection: str, pk: int, query: str = "") -> str:
    return f"/api/{collection}/{pk}/events/{query}"


def test_a_public_tour_streams_to_anyone_and_catches_up(clients, tour):
    url = f"/api/tours/{tour['id']}"
    clients["scorekeeper"].post(
        f"{url}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    response = clients["anonymous"].get(
        events_url("tours", tour["id"], "?since=0"), HTTP_ACCEPT=STREAM
    )
    assert response.status_code == 200
    assert response["Content-Type"] == STREAM
    assert response["Cache-Control"] == "no-cache"
    assert response["X-Accel-Buffering"] == "no"
    text = body(response)
    assert text.startswith("retry: 10000\n:")  # the reconnection delay, then a comment line
    assert 'event: standings\nid: 1\ndata: {"after_stage":1,"version":1}\n\n' in text
    # A client that already shows version 1 gets no event, only the comment.
    current = body(clients["anonymous"].get(events_url("tours", tour["id"], "?since=1")))
    assert "event:" not in current and current.startswith("retry:")
    # Last-Event-ID (a reconnecting EventSource) wins over ?since=.
    resumed = clients["anonymous"].get(
        events_url("tours", tour["id"], "?since=0"), HTTP_LAST_EVENT_ID="1"
    )
    assert "event:" not in body(resumed)


def test_json_is_the_current_state(clients, tour):
    url = events_url("tours", tour["id"])
    assert clients["anonymous"].get(url, HTTP_ACCEPT="application/json").json() == {
        "after_stage": None,
        "version": 0,
    }
    clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/", {"results": stage_rows(tour)}, format="json"
    )
    state = clients["anonymous"].get(url, HTTP_ACCEPT="application/json")
    assert state["Content-Type"] == "application/json"
    assert state.json() == {"after_stage": 1, "version": 1}


def test_a_private_tour_is_a_404_outside_its_club(clients):
    tour = (
        clients["organiser"].post("/api/tours/", tour_payload(public=False), format="json").json()
    )
    url = events_url("tours", tour["id"])
    for role in ("anonymous", "outsider"):
        response = clients[role].get(url, HTTP_ACCEPT=STREAM)
        assert response.status_code == 404, role
        # An error is JSON even to a client that asked for the stream, as every API error.
        assert response["Content-Type"] == "application/json"
        assert response.json() == {"detail": "Not found."}
    for role in ("scorekeeper", "organiser", "superuser"):
        response = clients[role].get(url, HTTP_ACCEPT=STREAM)
        assert response.status_code == 200, role
        assert response["Content-Type"] == STREAM


def test_an_unknown_format_is_a_json_404(clients, tour):
    response = clients["anonymous"].get(events_url("tours", tour["id"], "?format=AAA"))
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    streamed = clients["anonymous"].get(events_url("tours", tour["id"], "?format=event-stream"))
    assert streamed["Content-Type"] == STREAM


@pytest.mark.parametrize("pk", ["999999", "abc", "٣", "0"])
def test_unknown_ids_are_404(clients, pk):
    assert clients["anonymous"].get(f"/api/tours/{pk}/events/").status_code == 404


@pytest.mark.parametrize("since", ["-1", "x", "2147483648", ""])
def test_a_bad_since_is_a_400(clients, tour, since):
    response = clients["anonymous"].get(events_url("tours", tour["id"], f"?since={since}"))
    assert response.status_code == 400
    assert "since" in response.json()


def test_a_foreign_last_event_id_is_ignored(clients, tour):
    response = clients["anonymous"].get(events_url("tours", tour["id"]), HTTP_LAST_EVENT_ID="x:1")
    assert response.status_code == 200


def test_only_safe_methods(clients, tour):
    response = clients["organiser"].post(events_url("tours", tour["id"]), {}, format="json")
    assert response.status_code == 405


def test_every_kind_has_its_stream_with_its_own_after_key(clients):
    organiser, scorekeeper = clients["organiser"], clients["scorekeeper"]
    championship = create_championship(organiser)
    submit_race(scorekeeper, championship, 1, race_rows(championship, 1, ["Ana", "Rui", "Eva"]))
    league = create_league(organiser)
    rally = create_rally(organiser)
    submit_rally(scorekeeper, rally["id"], 1, sheet(rally, 300, 312, "5:20"))
    cup = organiser.post(
        "/api/rally-championships/",
        {"club": "velo-lisboa", "name": "Taça", "rallies": [rally["id"]]},
        format="json",
    ).json()
    expected = {
        ("championships", championship["id"]): {"after_race": 1, "version": 1},
        ("leagues", league["id"]): {"after_race": None, "version": 0},
        ("rallies", rally["id"]): {"after_stage": 1, "version": 1},
        # Derived: the sum of its rallies' versions; no rally is complete yet.
        ("rally-championships", cup["id"]): {"after_rally": None, "version": 1},
    }
    for (collection, pk), state in expected.items():
        answer = clients["anonymous"].get(
            events_url(collection, pk), HTTP_ACCEPT="application/json"
        )
        assert answer.json() == state, collection
        stream = clients["anonymous"].get(events_url(collection, pk, "?since=0"))
        assert stream["Content-Type"] == STREAM
        assert ("event: standings" in body(stream)) == (state["version"] > 0), collection
