"""Who may do what: every API endpoint and page × five roles × public and private competitions.

The expected statuses follow API.md: visibility first (a private competition is a 404 to anyone
outside its club, whatever the method, even without credentials), then 401 without credentials,
then 403 without the role. Pages redirect to the login instead of a 401.

One row per endpoint in ``MATRIX``; championships and rallies add their rows (and one creator in
``CREATE``) when their endpoints land.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import PASSWORD, stage_rows, tour_payload

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "scorekeeper", "organiser", "superuser")
PUBLIC, PRIVATE = "public", "private"
Expect = dict[str, dict[str, int]]  # visibility → role → status


def _per_role(anonymous: int, outsider: int, scorekeeper: int, organiser: int) -> dict[str, int]:
    return {
        "anonymous": anonymous,
        "outsider": outsider,
        "scorekeeper": scorekeeper,
        "organiser": organiser,
        "superuser": organiser,  # superusers may do everything an organiser may
    }


def everyone(code: int) -> Expect:
    return {PUBLIC: _per_role(code, code, code, code), PRIVATE: _per_role(code, code, code, code)}


def read(ok: int = 200) -> Expect:
    return {PUBLIC: _per_role(ok, ok, ok, ok), PRIVATE: _per_role(404, 404, ok, ok)}


def write(ok: int) -> Expect:
    """Scorekeepers and organisers (API.md: submit results, start simulations)."""
    return {PUBLIC: _per_role(401, 403, ok, ok), PRIVATE: _per_role(404, 404, ok, ok)}


def organise(ok: int) -> Expect:
    """Organisers only (set-up, members, history)."""
    return {PUBLIC: _per_role(401, 403, 403, ok), PRIVATE: _per_role(404, 404, 403, ok)}


def create(ok: int) -> Expect:
    """Creating in the club: no existing object to hide, so no 404."""
    return {PUBLIC: _per_role(401, 403, 403, ok), PRIVATE: _per_role(401, 403, 403, ok)}


def form(ok: int = 200) -> Expect:
    """Scorekeeper pages: log in first (a redirect for every anonymous visitor), then 404, 403."""
    return {PUBLIC: _per_role(302, 403, ok, ok), PRIVATE: _per_role(302, 404, ok, ok)}


def page(ok: int = 200) -> Expect:
    return read(ok)


Body = Callable[[dict[str, Any], str], Any]


@dataclass(frozen=True)
class Row:
    """One endpoint: ``url`` is formatted with the context (``{id}``, ``{team}``, ``{club}``)."""

    method: str
    url: str
    expect: Expect
    body: Body | None = None
    kind: str = "tour"  # the competition the context creates
    web: bool = False  # a page (session, Django test client) rather than the API
    needs: frozenset[str] = field(default_factory=frozenset)  # "simulated": a replay exists

    @property
    def id(self) -> str:
        return f"{self.method} {self.url}"


def _tour_rows(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"results": stage_rows(ctx["detail"])}


MATRIX: list[Row] = [
    # --- clubs and the token endpoint (a club has no private variant: same in both columns) ---
    Row("GET", "/api/clubs/", everyone(200)),
    Row(
        "POST",
        "/api/clubs/",
        {v: _per_role(401, 201, 201, 201) for v in (PUBLIC, PRIVATE)},
        lambda ctx, role: {"name": f"Club of {role}", "slug": f"club-{role}"},
    ),
    Row("GET", "/api/clubs/{club}/", everyone(200)),
    Row(
        "POST",
        "/api/clubs/{club}/members/",
        create(201),
        lambda ctx, role: {"username": f"new-{role}", "role": "scorekeeper"},
    ),
    Row(
        "POST",
        "/api/auth/token/",
        {v: _per_role(400, 200, 200, 200) for v in (PUBLIC, PRIVATE)},
        lambda ctx, role: {"username": ctx["usernames"].get(role, ""), "password": PASSWORD},
    ),
    # --- tours ---
    Row("GET", "/api/tours/", everyone(200)),
    Row("POST", "/api/tours/", create(201), lambda ctx, role: tour_payload(public=ctx["public"])),
    Row("GET", "/api/tours/{id}/", read()),
    Row("PATCH", "/api/tours/{id}/", organise(200), lambda ctx, role: {"name": f"By {role}"}),
    Row("GET", "/api/tours/{id}/stages/1/", read()),
    Row("POST", "/api/tours/{id}/stages/1/results/", write(202), _tour_rows),
    Row("POST", "/api/tours/{id}/stages/1/simulate/", write(202), lambda ctx, role: {}),
    Row("GET", "/api/tours/{id}/stages/1/replay/", read(), needs=frozenset({"simulated"})),
    Row("GET", "/api/tours/{id}/standings/", read()),
    Row("GET", "/api/tours/{id}/history/", organise(200)),
    Row("GET", "/api/tours/{id}/export/", organise(200)),
    Row(
        "POST",
        "/api/tours/import/",
        create(201),
        lambda ctx, role: {"club": "velo-lisboa", "document": ctx["export"]},
        needs=frozenset({"export"}),
    ),
    Row("GET", "/api/tours/999999/", everyone(404)),
    Row("POST", "/api/tours/999999/stages/1/results/", everyone(404), _tour_rows),
    # --- pages ---
    Row("GET", "/", everyone(200), web=True),
    Row("GET", "/clubs/{club}/", everyone(200), web=True),
    Row("GET", "/tours/{id}/", page(), web=True),
    Row("GET", "/tours/{id}/stages/1/", page(), web=True),
    Row("GET", "/tours/{id}/stages/1/live/", page(), web=True),
    Row("GET", "/tours/{id}/teams/{team}/", page(), web=True),
    Row("GET", "/tours/{id}/standings/general.csv", page(), web=True),
    Row("GET", "/embed/tours/{id}/", page(), web=True),
    Row("GET", "/tours/{id}/stages/1/results/", form(), web=True),
    Row("POST", "/tours/{id}/stages/1/results/", form(200), lambda ctx, role: {}, web=True),
    Row("GET", "/tours/999999/", everyone(404), web=True),
]


def _create_tour(api: APIClient, public: bool) -> dict[str, Any]:
    response = api.post("/api/tours/", tour_payload(public=public), format="json")
    assert response.status_code == 201, response.content
    return response.json()


# A competition of each kind, created by the organiser through the API.
CREATE: dict[str, Callable[[APIClient, bool], dict[str, Any]]] = {"tour": _create_tour}


def _simulate_stage_one(kind: str, detail: dict[str, Any], user: Any) -> None:
    """Store a simulated result version with its replay, as the worker would."""
    from tournament.competitions.kinds import get_kind
    from tournament.competitions.simulation import simulate_event

    game = get_kind(kind)
    event = game.event_model.objects.get(competition_id=detail["id"], number=1)
    assert simulate_event(kind=game, event_id=event.pk, by=user) is not None


def _clients(users: dict[str, Any], web: bool, ip: str) -> dict[str, Any]:
    clients: dict[str, Any] = {}
    for role in ROLES:
        if web:
            client = Client(REMOTE_ADDR=ip)
            if role != "anonymous":
                client.force_login(users[role])
        else:
            client = APIClient(REMOTE_ADDR=ip)
            if role != "anonymous":
                client.force_authenticate(users[role])
        clients[role] = client
    return clients


def _call(client: Any, row: Row, url: str, body: Any) -> int:
    method = row.method.lower()
    if row.body is None:
        return int(getattr(client, method)(url).status_code)
    if row.web:
        return int(getattr(client, method)(url, body).status_code)
    return int(getattr(client, method)(url, body, format="json").status_code)


@pytest.fixture
def cast(users: dict[str, Any]) -> dict[str, Any]:
    """The five roles; organisers of the club may add these new members."""
    from django.contrib.auth import get_user_model

    for role in ROLES:
        get_user_model().objects.create_user(f"new-{role}", password=PASSWORD)
    return users


@pytest.mark.parametrize("visibility", [PUBLIC, PRIVATE])
@pytest.mark.parametrize("row", MATRIX, ids=lambda row: row.id)
def test_permission_matrix(row: Row, visibility: str, cast: dict[str, Any], client_ip: str):
    organiser = APIClient()
    organiser.force_authenticate(cast["organiser"])
    detail = CREATE[row.kind](organiser, visibility == PUBLIC)
    if "simulated" in row.needs:
        _simulate_stage_one(row.kind, detail, cast["organiser"])
    if "export" in row.needs:
        exported = organiser.get(f"/api/{row.kind}s/{detail['id']}/export/")
        assert exported.status_code == 200, exported.content
        detail["export"] = exported.json()
    ctx = {
        "id": detail["id"],
        "team": detail["teams"][0]["id"],
        "club": "velo-lisboa",
        "detail": detail,
        "export": detail.get("export"),
        "public": visibility == PUBLIC,
        "usernames": {role: cast[role].username for role in ROLES if role != "anonymous"},
    }
    url = row.url.format(**ctx)
    clients = _clients(cast, row.web, client_ip)
    got = {
        role: _call(clients[role], row, url, row.body(ctx, role) if row.body else None)
        for role in ROLES
    }
    assert got == row.expect[visibility]


def test_every_api_route_is_in_the_matrix():
    """A new endpoint without a row here fails this test (its permissions were never checked)."""
    from django.urls import get_resolver

    covered = {_shape(row.url) for row in MATRIX if not row.web}
    routes = [
        route
        for route in _api_routes(get_resolver())
        if route.startswith(("/api/clubs", "/api/tours", "/api/auth"))
    ]
    assert routes, "no API routes found"
    assert [r for r in routes if _shape(r) not in covered] == []


def _shape(url: str) -> str:
    """``/api/tours/{pk}/stages/{number}/`` and ``/api/tours/7/stages/1/`` → one shape."""
    return re.sub(r"/(\{\w+\}|\d+)(?=/)", "/*", url)


def _api_routes(resolver: Any, prefix: str = "") -> list[str]:
    found: list[str] = []
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern).lstrip("^")
        if hasattr(entry, "url_patterns"):
            found += _api_routes(entry, pattern)
        elif pattern.startswith("api/") and "<format>" not in pattern:
            text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", pattern).rstrip("$")
            text = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text)
            found.append("/" + text)
    return sorted(set(found))


@pytest.mark.parametrize(
    ("role", "sees_private"),
    [
        ("anonymous", False),
        ("outsider", False),
        ("scorekeeper", True),
        ("organiser", True),
        ("superuser", True),
    ],
)
def test_private_tours_are_listed_only_to_their_club(cast, client_ip, role, sees_private):
    organiser = APIClient()
    organiser.force_authenticate(cast["organiser"])
    hidden = _create_tour(organiser, public=False)
    shown = _create_tour(organiser, public=True)
    api = _clients(cast, web=False, ip=client_ip)[role]
    listed = {t["id"] for t in api.get("/api/tours/").json()["results"]}
    assert shown["id"] in listed
    assert (hidden["id"] in listed) is sees_private
    web = _clients(cast, web=True, ip=client_ip)[role]
    for url in ("/", "/clubs/velo-lisboa/"):
        html = web.get(url).content.decode()
        assert (f"/tours/{hidden['id']}/" in html) is sees_private, url
    # Members of the club see who its members are; nobody else does.
    club = api.get("/api/clubs/velo-lisboa/").json()
    assert ("members" in club and bool(club["members"])) is sees_private
