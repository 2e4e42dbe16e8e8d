"""Clubs and roles (API.md): create, list, detail, members."""

from __future__ import annotations

import pytest

from tournament.clubs.models import Club, Membership


def test_create_makes_the_creator_an_organiser(clients, users):
    response = clients["outsider"].post(
        "/api/clubs/", {"name": "Braga CC", "slug": "braga"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["slug"] == "braga"
    membership = Membership.objects.get(club__slug="braga")
    assert (membership.user, membership.role) == (users["outsider"], "organiser")
    detail = clients["outsider"].get("/api/clubs/braga/").json()
    assert detail["members"] == [{"username": "outsider", "role": "organiser"}]


def test_create_needs_credentials(clients):
    response = clients["anonymous"].post("/api/clubs/", {"name": "X", "slug": "x"}, format="json")
    assert response.status_code == 401
    assert not Club.objects.filter(slug="x").exists()


@pytest.mark.parametrize("slug", ["velo-lisboa", "porto"])
def test_duplicate_slug_is_a_400(clients, slug):
    response = clients["organiser"].post(
        "/api/clubs/", {"name": "Again", "slug": slug}, format="json"
    )
    assert response.status_code == 400
    assert "slug" in response.json()
    assert Club.objects.count() == 2


def test_list_is_paginated_and_public(clients):
    response = clients["anonymous"].get("/api/clubs/")
    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert body["count"] == 2
    assert sorted(c["slug"] for c in body["results"]) == ["porto", "velo-lisboa"]
    assert all("members" not in c for c in body["results"])


@pytest.mark.parametrize(
    ("role", "sees_members"),
    [
        ("organiser", True),
        ("scorekeeper", True),
        ("superuser", True),
        ("outsider", False),
        ("anonymous", False),
    ],
)
def test_detail_shows_members_only_to_the_clubs_members(clients, role, sees_members):
    response = clients[role].get("/api/clubs/velo-lisboa/")
    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["slug"]) == ("Velo Club Lisboa", "velo-lisboa")
    if sees_members:
        assert sorted(body["members"], key=lambda m: m["username"]) == [
            {"username": "organiser", "role": "organiser"},
            {"username": "scorekeeper", "role": "scorekeeper"},
        ]
    else:
        assert "members" not in body


def test_unknown_club_is_a_404(clients):
    assert clients["organiser"].get("/api/clubs/nowhere/").status_code == 404
    response = clients["organiser"].post(
        "/api/clubs/nowhere/members/",
        {"username": "bystander", "role": "scorekeeper"},
        format="json",
    )
    assert response.status_code == 404


MEMBERS = "/api/clubs/velo-lisboa/members/"


@pytest.mark.parametrize("role", ["organiser", "superuser"])
def test_organisers_add_members(clients, role):
    response = clients[role].post(
        MEMBERS, {"username": "bystander", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == 201, response.content
    assert {"username": "bystander", "role": "scorekeeper"} in response.json()["members"]
    assert Membership.objects.filter(
        club__slug="velo-lisboa", user__username="bystander", role="scorekeeper"
    ).exists()


def test_an_added_organiser_may_add_members(clients, users):
    clients["organiser"].post(
        MEMBERS, {"username": "bystander", "role": "organiser"}, format="json"
    )
    from tests.conftest import make_client

    bystander = make_client(None, users["bystander"])
    response = bystander.post(
        MEMBERS, {"username": "outsider", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == 201


@pytest.mark.parametrize(
    ("role", "code"), [("scorekeeper", 403), ("outsider", 403), ("anonymous", 401)]
)
def test_only_organisers_add_members(clients, role, code):
    response = clients[role].post(
        MEMBERS, {"username": "bystander", "role": "scorekeeper"}, format="json"
    )
    assert response.status_code == code
    assert not Membership.objects.filter(user__username="bystander").exists()


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"username": "scorekeeper", "role": "organiser"}, "username"),  # already a member
        ({"username": "ghost", "role": "scorekeeper"}, "username"),
        ({"username": "bystander", "role": "captain"}, "role"),
        ({"role": "scorekeeper"}, "username"),
    ],
    ids=["duplicate", "unknown-username", "unknown-role", "no-username"],
)
def test_bad_member_is_a_400_and_changes_nothing(clients, body, field):
    before = list(Membership.objects.values_list("club_id", "user_id", "role").order_by("pk"))
    response = clients["organiser"].post(MEMBERS, body, format="json")
    assert response.status_code == 400
    assert field in response.json()
    after = list(Membership.objects.values_list("club_id", "user_id", "role").order_by("pk"))
    assert after == before
