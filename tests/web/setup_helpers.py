"""Checks every set-up page's tests make alike (tests/web/test_setup_*.py): who may open a page,
a page create equal to an API create, a refused post's message on its box, results that lock.

Each asserts real figures (status codes, stored rows, the page's own text); the test modules
keep what is their kind's own.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model
from django.test import Client

#: Roles a set-up page refuses, and how: a scorekeeper and another club's member get 403, an
#: anonymous visitor the login redirect.
REFUSED = (("scorekeeper", 403), ("outsider", 403), ("anonymous", 302))


def assert_refused(web: dict[str, Client], url: str) -> None:
    """Everyone but the club's organisers is refused ``url``."""
    for role, code in REFUSED:
        assert web[role].get(url).status_code == code, role


def assert_organisers_only(
    web: dict[str, Client], url: str, data: dict[str, str], model: type[Model]
) -> None:
    """The organiser opens the new page ``url``; the others are refused it, and their posts of
    ``data`` store no ``model``."""
    assert web["organiser"].get(url).status_code == 200
    assert_refused(web, url)
    for role, _code in REFUSED:
        web[role].post(url, data)
    assert not model.objects.exists()


def comparable(detail: dict[str, Any]) -> dict[str, Any]:
    """An API detail without what two creates of one request differ in: the ids, the time of
    creation, the races' driver ids (``detail`` itself, changed)."""
    detail.pop("id"), detail.pop("created_at")
    for driver in detail.get("drivers", ()):
        driver.pop("id")
    for race in detail.get("races", ()):
        race.pop("driver_ids")
    return detail


def assert_page_create_equals_api_create(
    clients: dict[str, Any], collection: str, pk: int, api: Any
) -> dict[str, Any]:
    """The competition ``pk`` the page made reads as the API's own create (``api``, its
    response) of the same request; answers the page's (comparable) detail."""
    assert api.status_code == 201, api.content
    by_page = comparable(clients["organiser"].get(f"/api/{collection}/{pk}/").json())
    assert by_page == comparable(api.json())
    return by_page


def assert_refused_on_box(
    response: Any, box: str, fragment: str, *, before: int = 0, after: int = 1500
) -> str:
    """The post stored nothing and says so, and ``fragment`` stands by the box named ``box``
    (from ``before`` characters ahead of its input to ``after`` past it); answers the page."""
    page = response.content.decode()
    assert response.status_code == 200 and "Nothing was stored" in page
    at = page.index(f'name="{box}"')
    near = page[max(0, at - before) : at + after]
    assert fragment in near, near
    return page


def submit_results(clients: dict[str, Any], url: str, rows: list[dict[str, Any]]) -> None:
    """The scorekeeper's results through the API (``url``: ``…/races/1/results/``): 202."""
    response = clients["scorekeeper"].post(url, {"results": rows}, format="json")
    assert response.status_code == 202, response.content


def driver_ids(clients: dict[str, Any], collection: str, pk: int) -> list[int]:
    """The competition's drivers' ids, in their order."""
    detail = clients["organiser"].get(f"/api/{collection}/{pk}/").json()
    return [driver["id"] for driver in detail["drivers"]]


def admin_client(users: dict[str, Any]) -> Client:
    """The organiser as staff, logged in: the admin's add pages run the same set-up checks."""
    users["organiser"].is_staff = True
    users["organiser"].save()
    client = Client()
    client.force_login(users["organiser"])
    return client
