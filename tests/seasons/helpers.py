"""Builders for the season tests: leagues and championships of one or two races, played
through the API, so every final rank is the finishing order given."""

from __future__ import annotations

from typing import Any

from tests.championships import helpers as fd
from tests.leagues import helpers as leagues


def league(
    clients: dict[str, Any],
    name: str,
    order: list[str],
    *,
    races: int = 1,
    played: int = 1,
    public: bool = True,
    club: str = "velo-lisboa",
    by: str = "organiser",
) -> dict[str, Any]:
    """A league of the drivers ``order``, ``races`` races, the first ``played`` finished in
    that order (so its final ranks are ``order`` when every race is played)."""
    detail = leagues.create(
        clients[by],
        club=club,
        name=name,
        public=public,
        drivers=[{"name": n} for n in order],
        races=[{"name": f"Race {n}"} for n in range(1, races + 1)],
    )
    for number in range(1, played + 1):
        response = leagues.submit(
            clients[by if by != "organiser" else "scorekeeper"],
            detail,
            number,
            leagues.rows(detail, order),
        )
        assert response.status_code == 202, response.content
    return detail


def championship(clients: dict[str, Any], name: str, order: list[str]) -> dict[str, Any]:
    """A one-race Formula D championship finished in ``order``."""
    detail = fd.create(
        clients["organiser"],
        name=name,
        drivers=[{"name": n, "team": f"Team {n}"} for n in order],
        races=[{"circuit": "monaco", "laps": 1}],
    )
    response = fd.submit(clients["scorekeeper"], detail, 1, fd.race_rows(detail, 1, order))
    assert response.status_code == 202, response.content
    return detail


def item(kind: str, detail: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "id": detail["id"]}


def create_season(client: Any, **body: Any) -> Any:
    return client.post("/api/clubs/velo-lisboa/seasons/", body, format="json")
