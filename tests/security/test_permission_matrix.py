"""Who may do what: every API endpoint and page × five roles × public and private competitions.

The expected statuses follow API.md: visibility first (a private competition is a 404 to anyone
outside its club, whatever the method, even without credentials), then 401 without credentials,
then 403 without the role. Pages redirect to the login instead of a 401.

One row per endpoint (method and route) in ``MATRIX``, for clubs, rally championships and every
registered game kind (tours, Formula D championships, rallies, leagues: their rows come from the
registry, so a new game is in the matrix once it has a ``GAMES`` entry, and the test of the
registry fails until it has one); one creator per kind of competition in ``CREATE``. A route of
the API or a page without a row fails ``test_every_api_route_is_in_the_matrix`` or
``test_every_page_is_in_the_matrix``, and an API action without a declared access fails
``test_every_api_route_declares_its_access``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.championships.helpers import payload as championship_payload
from tests.championships.helpers import race_rows
from tests.conftest import PASSWORD, stage_rows, tour_payload
from tests.leagues.helpers import payload as league_payload
from tests.leagues.helpers import rows as league_rows
from tests.rallies.helpers import rally_payload, sheet
from tournament.competitions.kinds import AnyKind, GameKind, all_kinds

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
    kind: str = "tour"  # the competition the context creates (a key of ``CREATE``)
    web: bool = False  # a page (session, Django test client) rather than the API
    needs: frozenset[str] = field(default_factory=frozenset)  # "simulated": a replay exists

    @property
    def id(self) -> str:
        return f"{self.method} {self.url}"


def _tour_rows(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"results": stage_rows(ctx["detail"])}


def _race_rows(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"results": race_rows(ctx["detail"], 1, ["Ana", "Rui", "Eva"])}


def _sheet(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"results": sheet(ctx["detail"], 300, 312, "5:20")}


def _league_rows(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"results": league_rows(ctx["detail"], ["Ana", "Rui", "Eva"])}


@dataclass(frozen=True)
class Game:
    """What the matrix needs of a registered game kind: a create body and a results body."""

    create: Callable[[bool], dict[str, Any]]  # public → a valid create request
    results: Body  # a valid results body for event 1


# One entry per registered game kind (its ``label``); ``test_every_game_kind_is_in_the_matrix``
# fails for a kind registered without one.
GAMES: dict[str, Game] = {
    "tour": Game(lambda public: tour_payload(public=public), _tour_rows),
    "championship": Game(lambda public: championship_payload(public=public), _race_rows),
    "rally": Game(lambda public: rally_payload(public=public), _sheet),
    "league": Game(lambda public: league_payload(public=public), _league_rows),
}


def has_simulator(kind: AnyKind) -> bool:
    """Whether the game plays events itself (a kind without one answers 400 to simulate/)."""
    return type(kind).check_simulable is not GameKind.check_simulable


def matrix_kinds() -> list[AnyKind]:
    return [kind for kind in all_kinds() if kind.label in GAMES]


def _import(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"club": "velo-lisboa", "document": ctx["export"]}


def _companion_import(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    from tests.imports.helpers import complete_tour

    return {"club": "velo-lisboa", "document": complete_tour(), "public": ctx["public"]}


def _csv_import(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    from tournament.tours.imports.csv_format import template_lines, write_csv

    text = write_csv(template_lines())
    return {"club": "velo-lisboa", "name": f"Sheet of {role}", "csv": text}


def _rally_championship(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    return {"club": "velo-lisboa", "name": f"Taça of {role}", "public": ctx["public"]}


def _add_rally(ctx: dict[str, Any], role: str) -> dict[str, Any]:
    # A rally of the club not yet in the championship, one per role that may add it.
    return {"rally": ctx["detail"]["spare_rallies"][role]}


def _competition_rows(game: AnyKind) -> list[Row]:
    """The endpoints every competition shares (API.md: set-up changes, versions, history...)."""
    kind, collection, results = game.label, game.collection, GAMES[game.label].results
    base, event = f"/api/{collection}", f"/api/{collection}/{{id}}/{game.event_word}/1"
    simulates = has_simulator(game)
    # Without a simulator, simulate/ is a 400 for those who may write, and nothing has a replay.
    simulated = frozenset({"simulated"}) if simulates else frozenset()
    return [
        Row("POST", f"{base}/", create(201), lambda c, r: GAMES[kind].create(c["public"]), kind),
        Row("GET", f"{base}/", everyone(200), kind=kind),
        Row("GET", f"{base}/{{id}}/", read(), kind=kind),
        Row("PATCH", f"{base}/{{id}}/", organise(200), lambda c, r: {"name": f"By {r}"}, kind),
        Row("GET", f"{event}/", read(), kind=kind),
        Row("POST", f"{event}/results/", write(202), results, kind=kind),
        Row("POST", f"{event}/simulate/", write(202 if simulates else 400), lambda c, r: {}, kind),
        Row("GET", f"{event}/replay/", read(200 if simulates else 404), kind=kind, needs=simulated),
        Row("GET", f"{base}/{{id}}/standings/", read(), kind=kind),
        Row("GET", f"{base}/{{id}}/events/", read(), kind=kind),  # live updates (WSGI: ends)
        Row("GET", f"{base}/{{id}}/forecast/", read(), kind=kind),
        Row("GET", f"{base}/{{id}}/history/", organise(200), kind=kind),
        Row("GET", f"{base}/{{id}}/export/", organise(200), kind=kind),
        Row("POST", f"{base}/import/", create(201), _import, kind, needs=frozenset({"export"})),
        Row("GET", f"{base}/999999/", everyone(404), kind=kind),
        Row(
            "POST",
            f"/api/{collection}/999999/{game.event_word}/1/results/",
            everyone(404),
            results,
            kind,
        ),
    ]


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
    # webhooks (tournament/webhooks): the club's organisers only, whatever the action
    Row(
        "GET",
        "/api/clubs/{club}/webhooks/",
        {v: _per_role(401, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
    ),
    Row(
        "POST",
        "/api/clubs/{club}/webhooks/",
        create(201),
        lambda ctx, role: {
            "url": "https://93.184.216.34/h",
            "secret": "s",
            "events": ["event.resolved"],
        },
    ),
    Row(
        "DELETE",
        "/api/clubs/{club}/webhooks/999999/",
        {v: _per_role(401, 403, 403, 404) for v in (PUBLIC, PRIVATE)},
    ),
    Row(
        "GET",
        "/api/clubs/{club}/webhooks/999999/deliveries/",
        {v: _per_role(401, 403, 403, 404) for v in (PUBLIC, PRIVATE)},
    ),
    # club players (tournament/players): read by anyone, written by the club's organisers
    Row("GET", "/api/clubs/{club}/players/", everyone(200)),
    Row("POST", "/api/clubs/{club}/players/", create(201), lambda ctx, role: {"name": role}),
    Row("GET", "/api/clubs/{club}/players/999999/", everyone(404)),
    Row(
        "PATCH",
        "/api/clubs/{club}/players/999999/",
        {v: _per_role(401, 403, 403, 404) for v in (PUBLIC, PRIVATE)},
        lambda ctx, role: {"name": "X"},
    ),
    Row(
        "POST",
        "/api/clubs/{club}/players/999999/merge/",
        {v: _per_role(401, 403, 403, 404) for v in (PUBLIC, PRIVATE)},
        lambda ctx, role: {"into": 1},
    ),
    # player pages (tournament/players/pages.py): anyone; the record is filtered per reader
    Row("GET", "/clubs/{club}/players/", everyone(200), web=True),
    Row("GET", "/clubs/{club}/players/999999/", everyone(404), web=True),
    # tour imports (tournament/tours/imports): organisers import; the CSVs are read like tours
    Row("POST", "/api/tours/import-companion/", create(201), _companion_import),
    Row("POST", "/api/tours/import-csv/", create(201), _csv_import),
    Row("GET", "/api/tours/import-csv/template.csv", everyone(200)),
    Row("GET", "/api/tours/{id}/results.csv", read()),
    Row(
        "GET",
        "/clubs/{club}/import/",
        {v: _per_role(302, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
        web=True,
    ),
    # club seasons (tournament/seasons): read by anyone (standings count what the reader may
    # see), created and changed by the club's organisers; the form is theirs too
    Row("GET", "/api/clubs/{club}/seasons/", everyone(200)),
    Row(
        "POST",
        "/api/clubs/{club}/seasons/",
        create(201),
        lambda ctx, role: {
            "name": f"Season of {role}",
            "points": [3, 2, 1],
            "competitions": [{"kind": "tour", "id": ctx["id"]}],
        },
    ),
    Row("GET", "/api/clubs/{club}/seasons/999999/", everyone(404)),
    Row(
        "PATCH",
        "/api/clubs/{club}/seasons/999999/",
        {v: _per_role(401, 403, 403, 404) for v in (PUBLIC, PRIVATE)},
        lambda ctx, role: {"name": "X"},
    ),
    Row("GET", "/api/clubs/{club}/seasons/999999/standings/", everyone(404)),
    Row("GET", "/clubs/{club}/seasons/999999/", everyone(404), web=True),
    Row(
        "GET",
        "/clubs/{club}/seasons/new/",
        {v: _per_role(302, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
        web=True,
    ),
    # player head-to-head and hall of fame (issue #19 items 2-3): anyone, filtered per reader
    Row("GET", "/api/clubs/{club}/players/999999/head-to-head/999998/", everyone(404)),
    Row("GET", "/api/clubs/{club}/hall-of-fame/", everyone(200)),
    Row("GET", "/clubs/{club}/hall-of-fame/", everyone(200), web=True),
    Row(
        "POST",
        "/api/auth/token/",
        {v: _per_role(400, 200, 200, 200) for v in (PUBLIC, PRIVATE)},
        lambda ctx, role: {"username": ctx["usernames"].get(role, ""), "password": PASSWORD},
    ),
    # --- every registered game kind (tours, Formula D championships, rallies, leagues) ---
    *(row for game in matrix_kinds() for row in _competition_rows(game)),
    # --- rally championships (no PATCH, no events of their own) ---
    Row("GET", "/api/rally-championships/", everyone(200), kind="rally-championship"),
    Row(
        "POST",
        "/api/rally-championships/",
        create(201),
        _rally_championship,
        kind="rally-championship",
    ),
    Row("GET", "/api/rally-championships/{id}/", read(), kind="rally-championship"),
    Row(
        "POST",
        "/api/rally-championships/{id}/rallies/",
        organise(201),
        _add_rally,
        kind="rally-championship",
    ),
    Row("GET", "/api/rally-championships/{id}/standings/", read(), kind="rally-championship"),
    Row("GET", "/api/rally-championships/{id}/events/", read(), kind="rally-championship"),
    Row("GET", "/api/rally-championships/{id}/forecast/", read(), kind="rally-championship"),
    Row("GET", "/api/rally-championships/999999/", everyone(404), kind="rally-championship"),
    # --- the catalogue: public, read-only (the preview stores nothing) ---
    Row("GET", "/api/catalogue/", everyone(200)),
    Row(
        "POST",
        "/api/catalogue/courses/preview/",
        everyone(200),
        lambda ctx, role: {"course": "abcdefghijklmnopqrstu"},
    ),
    # --- the schema, its docs and the API root: public, whoever asks ---
    Row("GET", "/api/", everyone(200)),
    Row("GET", "/api/schema/", everyone(200)),
    Row("GET", "/api/docs/", everyone(200)),
    # --- pages ---
    Row("GET", "/", everyone(200), web=True),
    Row("GET", "/clubs/{club}/", everyone(200), web=True),
    # Start a club: anyone signed in. Members: the club's organisers. A closed link: 404.
    Row(
        "GET",
        "/clubs/new/",
        {v: _per_role(302, 200, 200, 200) for v in (PUBLIC, PRIVATE)},
        web=True,
    ),
    Row(
        "GET",
        "/clubs/{club}/members/",
        {v: _per_role(302, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
        web=True,
    ),
    Row(
        "GET",
        "/clubs/{club}/webhooks/",
        {v: _per_role(302, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
        web=True,
    ),
    Row("GET", "/invite/not-a-token/", everyone(404), web=True),
    Row("GET", "/tours/{id}/", page(), web=True),
    Row("GET", "/tours/{id}/stages/1/", page(), web=True),
    Row("GET", "/tours/{id}/stages/1/live/", page(), web=True),
    Row("GET", "/tours/{id}/teams/{team}/", page(), web=True),
    Row("GET", "/tours/{id}/standings/general.csv", page(), web=True),
    Row("GET", "/embed/tours/{id}/", page(), web=True),
    Row("GET", "/tours/{id}/stages/1/results/", form(), web=True),
    Row("POST", "/tours/{id}/stages/1/results/", form(200), lambda ctx, role: {}, web=True),
    Row("GET", "/tours/999999/", everyone(404), web=True),
    Row("GET", "/championships/{id}/", page(), kind="championship", web=True),
    Row("GET", "/championships/{id}/races/1/", page(), kind="championship", web=True),
    Row("GET", "/championships/{id}/races/1/results/", form(), kind="championship", web=True),
    Row(
        "POST",
        "/championships/{id}/races/1/results/",
        form(200),
        lambda ctx, role: {},
        kind="championship",
        web=True,
    ),
    Row("GET", "/championships/999999/", everyone(404), kind="championship", web=True),
    Row("GET", "/leagues/{id}/", page(), kind="league", web=True),
    Row("GET", "/leagues/{id}/races/1/", page(), kind="league", web=True),
    Row("GET", "/leagues/{id}/races/1/results/", form(), kind="league", web=True),
    Row(
        "POST",
        "/leagues/{id}/races/1/results/",
        form(200),
        lambda ctx, role: {},
        kind="league",
        web=True,
    ),
    Row("GET", "/leagues/999999/", everyone(404), kind="league", web=True),
    Row("GET", "/rallies/{id}/", page(), kind="rally", web=True),
    Row("GET", "/rallies/{id}/stages/1/", page(), kind="rally", web=True),
    Row("GET", "/rallies/{id}/stages/99/", everyone(404), kind="rally", web=True),
    Row("GET", "/rallies/{id}/stages/1/results/", form(), kind="rally", web=True),
    Row(
        "POST",
        "/rallies/{id}/stages/1/results/",
        form(200),
        lambda ctx, role: {},
        kind="rally",
        web=True,
    ),
    Row("GET", "/rallies/{id}/stages/1/preview/?log=1+2+3", form(), kind="rally", web=True),
    Row("GET", "/rallies/999999/", everyone(404), kind="rally", web=True),
    Row("GET", "/rally-championships/{id}/", page(), kind="rally-championship", web=True),
    Row("GET", "/rally-championships/999999/", everyone(404), kind="rally-championship", web=True),
    # The full forecast page of every kind (issue #16): read as the competition's own page.
    Row("GET", "/tours/{id}/forecast/", page(), web=True),
    Row("GET", "/championships/{id}/forecast/", page(), kind="championship", web=True),
    Row("GET", "/leagues/{id}/forecast/", page(), kind="league", web=True),
    Row("GET", "/rallies/{id}/forecast/", page(), kind="rally", web=True),
    Row("GET", "/rally-championships/{id}/forecast/", page(), kind="rally-championship", web=True),
    # --- the organisers' set-up pages of championships, rallies and leagues (issue #15) ---
    *(
        Row(
            "GET",
            f"/clubs/{{club}}/{collection}/new/",
            {v: _per_role(302, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
            web=True,
        )
        for collection in ("championships", "rallies", "rally-championships", "leagues")
    ),
    *(
        Row(
            "GET",
            f"/{collection}/{{id}}/edit/",
            {PUBLIC: _per_role(302, 403, 403, 200), PRIVATE: _per_role(302, 404, 403, 200)},
            kind=kind,
            web=True,
        )
        for collection, kind in (
            ("championships", "championship"),
            ("rallies", "rally"),
            ("rally-championships", "rally-championship"),
            ("leagues", "league"),
        )
    ),
    # --- the Grand Tour set-up pages (issue #15) ---
    Row(
        "GET",
        "/clubs/{club}/tours/new/",
        {v: _per_role(302, 403, 403, 200) for v in (PUBLIC, PRIVATE)},
        web=True,
    ),
    Row(
        "GET",
        "/tours/{id}/edit/",
        {PUBLIC: _per_role(302, 403, 403, 200), PRIVATE: _per_role(302, 404, 403, 200)},
        web=True,
    ),
    # --- entering a Grand Tour stage from the board: the scorekeepers' form ---
    Row("GET", "/tours/{id}/stages/1/board/", form(), web=True),
    # --- the club calendar: public events for everyone (private ones need a token) ---
    Row("GET", "/clubs/{club}/calendar.ics", everyone(200), web=True),
    # --- share cards: only for resolved events (none here), so 404 for everyone ---
    Row("GET", "/tours/{id}/stages/1/card.png", everyone(404), web=True),
    Row(
        "GET", "/championships/{id}/races/1/card.png", everyone(404), kind="championship", web=True
    ),
    Row("GET", "/leagues/{id}/races/1/card.png", everyone(404), kind="league", web=True),
    Row("GET", "/rallies/{id}/stages/1/card.png", everyone(404), kind="rally", web=True),
    # --- the big screens (tournament/live) ---
    Row("GET", "/tours/{id}/screen/", page(), web=True),
    Row("GET", "/championships/{id}/screen/", page(), kind="championship", web=True),
    Row("GET", "/leagues/{id}/screen/", page(), kind="league", web=True),
    Row("GET", "/rallies/{id}/screen/", page(), kind="rally", web=True),
    Row("GET", "/rally-championships/{id}/screen/", page(), kind="rally-championship", web=True),
]


def _post_201(api: APIClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post(url, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()  # type: ignore[no-any-return]


def _creator(kind: AnyKind) -> Callable[[APIClient, bool], dict[str, Any]]:
    def create_one(api: APIClient, public: bool) -> dict[str, Any]:
        return _post_201(api, f"/api/{kind.collection}/", GAMES[kind.label].create(public))

    return create_one


def _create_rally(api: APIClient, public: bool) -> dict[str, Any]:
    return _post_201(api, "/api/rallies/", rally_payload(public=public))


def _create_rally_championship(api: APIClient, public: bool) -> dict[str, Any]:
    """A championship of one rally, and rallies of the club that may still be added to it."""
    rally = _create_rally(api, public)
    body = {"club": "velo-lisboa", "name": "Taça", "public": public, "rallies": [rally["id"]]}
    detail = _post_201(api, "/api/rally-championships/", body)
    spare = {role: _create_rally(api, public)["id"] for role in ("organiser", "superuser")}
    # The others are refused before the body is read: any rally will do.
    detail["spare_rallies"] = {role: spare.get(role, rally["id"]) for role in ROLES}
    return detail


# A competition of each kind, created by the organiser through the API.
CREATE: dict[str, Callable[[APIClient, bool], dict[str, Any]]] = {
    **{kind.label: _creator(kind) for kind in matrix_kinds()},
    "rally-championship": _create_rally_championship,
}
COLLECTION = {
    **{kind.label: kind.collection for kind in matrix_kinds()},
    "rally-championship": "rally-championships",
}


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
        exported = organiser.get(f"/api/{COLLECTION[row.kind]}/{detail['id']}/export/")
        assert exported.status_code == 200, exported.content
        detail["export"] = exported.json()
    ctx = {
        "id": detail["id"],
        "team": detail["teams"][0]["id"] if "teams" in detail else None,
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


# Routes that are not Podium's own pages: the admin (Django's permissions), the language switch,
# signing in and out (tests/security/test_sessions_and_passwords.py).
NOT_PAGES = ("admin/", "i18n/", "login/", "logout/")
#: Pages whose access is checked per role by their own tests rather than here: POST actions that
#: queue work (a matrix row would simulate for real) and the PDF sheets (each one is rendered).
ACCESS_TESTED_IN = {
    "tours/<int:pk>/simulate-remaining/": "tests/web/test_run_actions.py",
    "championships/<int:pk>/simulate-remaining/": "tests/web/test_run_actions.py",
    "rallies/<int:pk>/simulate-remaining/": "tests/web/test_run_actions.py",
    **{
        f"{collection}/<int:pk>/{events}/<int:number>/{action}/": "tests/web/test_run_actions.py"
        for collection, events in (
            ("tours", "stages"),
            ("championships", "races"),
            ("rallies", "stages"),
        )
        for action in ("simulate", "resolve")
    },
    "leagues/<int:pk>/races/<int:number>/resolve/": "tests/web/test_run_actions.py",
    **{
        f"{collection}/<int:pk>/sheet.pdf": "tests/printouts/test_kinds.py"
        for collection in ("championships", "leagues", "rallies")
    },
    "tours/<int:pk>/sheet.pdf": "tests/printouts/test_sheet.py",
}


def _routes(resolver: Any, prefix: str = "") -> list[str]:
    """Every URL pattern as ``ResolverMatch.route`` spells it (format-suffix variants left out)."""
    found: list[str] = []
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern).lstrip("^")
        if hasattr(entry, "url_patterns"):
            found += _routes(entry, pattern)
        elif "format>" not in pattern:  # (?P<format>…), <drf_format_suffix:format>
            found.append(pattern)
    return sorted(set(found))


def _covered(web: bool) -> set[str]:
    """The routes the matrix's rows reach (their URLs resolved with sample ids)."""
    from django.urls import resolve

    sample = {"id": 7, "team": 7, "club": "velo-lisboa"}
    return {
        resolve(row.url.format(**sample).split("?")[0]).route for row in MATRIX if row.web is web
    }


def test_every_api_route_is_in_the_matrix():
    """A new endpoint without a row here fails this test (its permissions were never checked)."""
    from django.urls import get_resolver

    routes = [r for r in _routes(get_resolver()) if r.startswith("api/")]
    assert len(routes) > 30, routes
    assert [r for r in routes if r not in _covered(web=False)] == []


def _api_views(resolver: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """``(route, view callback)`` of every API URL pattern (format-suffix variants left out)."""
    found: list[tuple[str, Any]] = []
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern).lstrip("^")
        if hasattr(entry, "url_patterns"):
            found += _api_views(entry, pattern)
        elif "format>" not in pattern and pattern.startswith("api/"):
            found.append((pattern, entry.callback))
    return found


def test_every_api_route_declares_its_access():
    """Each viewset action names the access it needs (read, write_results, organise, signed_in)
    in ``permission_for_action``, read by ``DeclaredAccess``; any other API view sets its own
    ``permission_classes``. The default is to deny: an undeclared view answers 403 to all."""
    from django.conf import settings
    from django.urls import get_resolver
    from rest_framework.views import APIView

    from tournament.competitions.access import ACCESS_LEVELS, DeclaredAccess, DenyUndeclared

    assert settings.REST_FRAMEWORK["DEFAULT_PERMISSION_CLASSES"] == [
        f"{DenyUndeclared.__module__}.{DenyUndeclared.__name__}"
    ]
    views = _api_views(get_resolver())
    assert len(views) > 30, views
    undeclared: list[str] = []
    for route, callback in views:
        cls = callback.cls
        actions = getattr(callback, "actions", None)
        if actions is None:  # a plain APIView: the token, the schema, the API root
            declares = any("permission_classes" in vars(k) for k in cls.__mro__ if k is not APIView)
            if not declares:
                undeclared.append(f"{route}: {cls.__name__} has no permission_classes")
            continue
        if DeclaredAccess not in cls.permission_classes:
            undeclared.append(f"{route}: {cls.__name__} does not read its declarations")
        declared = getattr(cls, "permission_for_action", {})
        for method, name in actions.items():
            if declared.get(name) not in ACCESS_LEVELS:
                undeclared.append(f"{method.upper()} {route}: {cls.__name__}.{name}")
    assert undeclared == []


def test_an_undeclared_action_is_denied(rf):
    """``DeclaredAccess`` grants nothing an action does not declare, whoever asks."""
    from django.contrib.auth.models import AnonymousUser
    from rest_framework.request import Request

    from tournament.competitions.access import READ, DeclaredAccess, DenyUndeclared

    class View:
        action = "surprise"
        detail = False
        permission_for_action = {"list": READ}

    request = Request(rf.get("/api/x/"))
    request.user = AnonymousUser()
    assert DeclaredAccess().has_permission(request, View()) is False  # type: ignore[arg-type]
    View.action = "list"
    assert DeclaredAccess().has_permission(request, View()) is True  # type: ignore[arg-type]
    assert DenyUndeclared().has_permission(request, View()) is False  # type: ignore[arg-type]


def test_every_game_kind_is_in_the_matrix():
    """The registry drives the matrix: a game registered without a ``GAMES`` entry fails here."""
    assert all_kinds(), "no game kind registered"
    assert [kind.label for kind in all_kinds() if kind.label not in GAMES] == []


def test_every_page_is_in_the_matrix():
    """Likewise for the pages: tours, championships, rallies, rally championships, clubs."""
    from django.urls import get_resolver

    routes = [r for r in _routes(get_resolver()) if not r.startswith(("api/", *NOT_PAGES))]
    assert any(r.startswith("rally-championships/") for r in routes), routes
    missing = [r for r in routes if r not in _covered(web=True) and r not in ACCESS_TESTED_IN]
    assert missing == []
    # Every exemption is a real route whose test file exists (a stale entry fails here).
    root = Path(__file__).resolve().parents[2]
    assert set(ACCESS_TESTED_IN) <= set(routes)
    assert all((root / test).is_file() for test in ACCESS_TESTED_IN.values())


@pytest.mark.parametrize("kind", list(CREATE))
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
def test_private_competitions_are_listed_only_to_their_club(
    cast, client_ip, kind, role, sees_private
):
    organiser = APIClient()
    organiser.force_authenticate(cast["organiser"])
    hidden = CREATE[kind](organiser, False)
    shown = CREATE[kind](organiser, True)
    collection = COLLECTION[kind]
    api = _clients(cast, web=False, ip=client_ip)[role]
    listed = {c["id"] for c in api.get(f"/api/{collection}/").json()["results"]}
    assert shown["id"] in listed
    assert (hidden["id"] in listed) is sees_private
    web = _clients(cast, web=True, ip=client_ip)[role]
    for url in ("/", "/clubs/velo-lisboa/"):
        html = web.get(url).content.decode()
        assert f"/{collection}/{hidden['id']}/" not in html or sees_private, url
        if kind != "rally-championship":  # the home and club pages list the other kinds
            assert (f"/{collection}/{hidden['id']}/" in html) is sees_private, url
    # Members of the club see who its members are; nobody else does.
    club = api.get("/api/clubs/velo-lisboa/").json()
    assert ("members" in club and bool(club["members"])) is sees_private


@pytest.mark.parametrize("kind", matrix_kinds(), ids=lambda kind: kind.label)
def test_the_fast_standings_read_sees_what_visible_to_sees(cast, clients, kind):
    """Visibility has one definition, ``CompetitionQuerySet.visible_to``; the standings' hand
    SQL (``services.standings_text``, the hot path) must agree with it for every reader, and
    answer only a stored snapshot of the resolved run."""
    from django.contrib.auth.models import AnonymousUser

    from tournament.competitions import services

    readers = {"anonymous": AnonymousUser(), **{r: cast[r] for r in ROLES if r != "anonymous"}}
    readers["bystander"] = cast["bystander"]  # signed in, in no club
    for public in (True, False):
        created = clients["organiser"].post(
            f"/api/{kind.collection}/", GAMES[kind.label].create(public), format="json"
        )
        assert created.status_code == 201, created.content
        detail = created.json()
        body = GAMES[kind.label].results({"detail": detail}, "scorekeeper")
        url = f"/api/{kind.collection}/{detail['id']}/{kind.event_word}/1/results/"
        assert clients["scorekeeper"].post(url, body, format="json").status_code == 202
        assert kind.competition_model.objects.get(pk=detail["id"]).standings_through == 1
        for name, user in readers.items():
            visible = kind.competition_model.objects.visible_to(user).filter(pk=detail["id"])
            for after in (None, 1, 2):
                text = services.standings_text(
                    kind=kind, competition_id=detail["id"], user=user, after=after
                )
                expected = visible.exists() and after in (None, 1)
                assert (text is not None) is expected, (name, public, after)
