"""Club pages (issue #15 item 1): start a club, manage members, invitation links."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from tournament.clubs import services
from tournament.clubs.models import Club, ClubInvitation, Membership, Role

pytestmark = pytest.mark.django_db

MEMBERS_URL = "/clubs/velo-lisboa/members/"


def _roles(slug: str = "velo-lisboa") -> dict[str, str]:
    return dict(Membership.objects.filter(club__slug=slug).values_list("user__username", "role"))


# --- who may open which page ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "status"),
    [
        ("anonymous", 302),
        ("outsider", 403),  # organiser of another club
        ("bystander", 403),
        ("scorekeeper", 403),
        ("organiser", 200),
        ("superuser", 200),
    ],
)
def test_members_page_is_for_the_club_organisers(web: dict[str, Client], role: str, status: int):
    response = web[role].get(MEMBERS_URL)
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/login/?next=")
    if status == 200:
        html = response.content.decode()
        assert "scorekeeper" in html and 'name="csrfmiddlewaretoken"' in html


@pytest.mark.parametrize("role", ["outsider", "scorekeeper", "anonymous"])
def test_others_cannot_change_members(web: dict[str, Client], role: str) -> None:
    before = _roles()
    response = web[role].post(
        MEMBERS_URL, {"action": "add", "username": "bystander", "role": "organiser"}
    )
    assert response.status_code in {302, 403}
    web[role].post(MEMBERS_URL, {"action": "remove", "username": "organiser"})
    assert _roles() == before
    assert not ClubInvitation.objects.exists()


def test_unknown_club_is_a_404(web: dict[str, Client]) -> None:
    assert web["organiser"].get("/clubs/nope/members/").status_code == 404


@pytest.mark.parametrize(
    ("role", "status"),
    [("anonymous", 302), ("outsider", 200), ("scorekeeper", 200), ("organiser", 200)],
)
def test_start_a_club_page_needs_a_sign_in(web: dict[str, Client], role: str, status: int):
    assert web[role].get("/clubs/new/").status_code == status


def test_home_links_to_start_a_club_only_when_signed_in(web: dict[str, Client]) -> None:
    assert 'href="/clubs/new/"' in web["bystander"].get("/").content.decode()
    assert 'href="/clubs/new/"' not in web["anonymous"].get("/").content.decode()


@pytest.mark.parametrize(("role", "shown"), [("organiser", True), ("scorekeeper", False)])
def test_club_page_links_to_members_for_organisers(web: dict[str, Client], role: str, shown):
    html = web[role].get("/clubs/velo-lisboa/").content.decode()
    assert (f'href="{MEMBERS_URL}"' in html) is shown


# --- start a club ----------------------------------------------------------------------------


def test_starting_a_club_makes_its_organiser(web: dict[str, Client], users: dict[str, Any]):
    response = web["bystander"].post("/clubs/new/", {"name": "Clube de Braga", "slug": "braga"})
    assert response.status_code == 302
    assert response["Location"] == "/clubs/braga/"
    assert _roles("braga") == {"bystander": Role.ORGANISER}
    assert web["bystander"].get("/clubs/braga/members/").status_code == 200


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"name": "", "slug": "x"}, "name"),
        ({"name": "Club", "slug": "not a slug"}, "slug"),
        ({"name": "Club", "slug": "velo-lisboa"}, "slug"),  # taken
        ({"name": "Club", "slug": "new"}, "slug"),  # would shadow /clubs/new/
        ({"name": "x" * 121, "slug": "long"}, "name"),
    ],
)
def test_bad_club_input_shows_on_its_field(web: dict[str, Client], data: dict[str, str], field):
    count = Club.objects.count()
    response = web["bystander"].post("/clubs/new/", data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert 'class="field-error"' in response.content.decode()
    assert Club.objects.count() == count


# --- members ---------------------------------------------------------------------------------


def test_add_change_and_remove_a_member(web: dict[str, Client]) -> None:
    client = web["organiser"]
    response = client.post(
        MEMBERS_URL, {"action": "add", "username": "bystander", "role": "scorekeeper"}
    )
    assert response.status_code == 302
    assert _roles()["bystander"] == Role.SCOREKEEPER
    client.post(MEMBERS_URL, {"action": "role", "username": "bystander", "role": "organiser"})
    assert _roles()["bystander"] == Role.ORGANISER
    client.post(MEMBERS_URL, {"action": "remove", "username": "bystander"})
    assert "bystander" not in _roles()
    page = client.get(MEMBERS_URL).content.decode()
    assert "bystander is no longer a member." in page


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"action": "add", "username": "ghost", "role": "scorekeeper"}, "username"),
        ({"action": "add", "username": "scorekeeper", "role": "scorekeeper"}, "username"),
        ({"action": "add", "username": "bystander", "role": "boss"}, "role"),
        ({"action": "add", "username": "", "role": "scorekeeper"}, "username"),
        ({"action": "role", "username": "scorekeeper", "role": "boss"}, "role"),
        ({"action": "role", "username": "ghost", "role": "organiser"}, "username"),
        ({"action": "remove", "username": "ghost"}, "username"),
        ({"action": "invite", "role": "superuser"}, "role"),
    ],
)
def test_bad_member_input_shows_on_its_field_and_stores_nothing(
    web: dict[str, Client], data: dict[str, str], field: str
) -> None:
    before = _roles()
    response = web["organiser"].post(MEMBERS_URL, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="field-error"' in html
    context = response.context
    if data["action"] in {"add", "invite"}:
        assert context[f"{data['action']}_form"].errors[field]
    else:  # a row's form: on that member's row, or above the list for someone not in it
        rows = [r for r in context["rows"] if r["username"] == data["username"]]
        key = "role_form" if data["action"] == "role" else "remove_form"
        assert (rows and rows[0][key].errors[field]) or context["stray_errors"]
    assert _roles() == before
    assert not ClubInvitation.objects.exists()


def test_an_unknown_action_changes_nothing(web: dict[str, Client]) -> None:
    before = _roles()
    assert web["organiser"].post(MEMBERS_URL, {"action": "drop"}).status_code == 200
    assert _roles() == before


def test_the_last_organiser_cannot_be_removed_or_demoted(web: dict[str, Client]) -> None:
    client = web["organiser"]
    response = client.post(MEMBERS_URL, {"action": "remove", "username": "organiser"})
    assert response.status_code == 200
    assert "last organiser cannot be removed" in response.content.decode()
    response = client.post(
        MEMBERS_URL, {"action": "role", "username": "organiser", "role": "scorekeeper"}
    )
    assert "last organiser cannot stop being one" in response.content.decode()
    assert _roles()["organiser"] == Role.ORGANISER
    # With a second organiser, the first may step down.
    client.post(MEMBERS_URL, {"action": "role", "username": "scorekeeper", "role": "organiser"})
    client.post(MEMBERS_URL, {"action": "role", "username": "organiser", "role": "scorekeeper"})
    assert _roles() == {"organiser": Role.SCOREKEEPER, "scorekeeper": Role.ORGANISER}


def test_the_services_keep_the_last_organiser(users: dict[str, Any]) -> None:
    from tournament.competitions.errors import InvalidInput

    club = Club.objects.get(slug="velo-lisboa")
    with pytest.raises(InvalidInput):
        services.remove_member(club=club, username="organiser", by=users["organiser"])
    with pytest.raises(InvalidInput):
        services.change_role(
            club=club, username="organiser", role="scorekeeper", by=users["organiser"]
        )
    services.remove_member(club=club, username="scorekeeper", by=users["organiser"])
    assert _roles() == {"organiser": Role.ORGANISER}


# --- invitations -----------------------------------------------------------------------------


def _invite(web: dict[str, Client], role: str = "scorekeeper") -> ClubInvitation:
    response = web["organiser"].post(MEMBERS_URL, {"action": "invite", "role": role})
    assert response.status_code == 302
    invitation = ClubInvitation.objects.get()
    page = web["organiser"].get(MEMBERS_URL).content.decode()
    assert f"/invite/{invitation.token}/" in page  # the link to send
    return invitation


def test_an_invitation_signs_a_new_person_up_once(web: dict[str, Client]) -> None:
    invitation = _invite(web)
    assert len(invitation.token) >= 40
    assert invitation.expires_at - invitation.created_at == timedelta(days=7)
    newcomer = Client()
    url = f"/invite/{invitation.token}/"
    assert newcomer.get(url).status_code == 200
    response = newcomer.post(
        url, {"username": "rita", "password1": "a-long-pass-9x", "password2": "a-long-pass-9x"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/clubs/velo-lisboa/"
    assert _roles()["rita"] == Role.SCOREKEEPER
    assert newcomer.get("/clubs/velo-lisboa/").context["role"] == Role.SCOREKEEPER  # signed in
    invitation.refresh_from_db()
    assert invitation.used_at is not None and invitation.used_by.username == "rita"
    # Single use: the next person finds it closed, and nothing is created.
    late = Client()
    assert late.get(url).status_code == 404
    response = late.post(
        url, {"username": "zed", "password1": "a-long-pass-9x", "password2": "a-long-pass-9x"}
    )
    assert response.status_code == 404
    assert not get_user_model().objects.filter(username="zed").exists()


def test_a_signed_in_person_joins_with_the_link(web: dict[str, Client]) -> None:
    invitation = _invite(web, role="organiser")
    url = f"/invite/{invitation.token}/"
    assert "Join as bystander" in web["bystander"].get(url).content.decode()
    assert web["bystander"].post(url).status_code == 302
    assert _roles()["bystander"] == Role.ORGANISER
    assert web["outsider"].get(url).status_code == 404


def test_a_member_cannot_spend_the_link(web: dict[str, Client]) -> None:
    invitation = _invite(web)
    url = f"/invite/{invitation.token}/"
    page = web["scorekeeper"].get(url).content.decode()
    assert "already a member" in page
    response = web["scorekeeper"].post(url)
    assert response.status_code == 200
    invitation.refresh_from_db()
    assert invitation.used_at is None  # still open for the person it was meant for


@pytest.mark.parametrize(
    ("data", "field"),
    [
        (
            {"username": "rita", "password1": "a-long-pass-9x", "password2": "other-pass-9x"},
            "password2",
        ),
        (
            {"username": "organiser", "password1": "a-long-pass-9x", "password2": "a-long-pass-9x"},
            "username",
        ),
        (
            {"username": "", "password1": "a-long-pass-9x", "password2": "a-long-pass-9x"},
            "username",
        ),
        (
            {"username": "bad name!", "password1": "a-long-pass-9x", "password2": "a-long-pass-9x"},
            "username",
        ),
    ],
)
def test_bad_sign_up_shows_on_its_field_and_stores_nothing(
    web: dict[str, Client], data: dict[str, str], field: str
) -> None:
    invitation = _invite(web)
    users = get_user_model().objects.count()
    response = Client().post(f"/invite/{invitation.token}/", data)
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert 'class="field-error"' in response.content.decode()
    assert get_user_model().objects.count() == users
    invitation.refresh_from_db()
    assert invitation.used_at is None


def test_an_invitation_expires(users: dict[str, Any]) -> None:
    from tournament.competitions.errors import InvalidInput

    club = Club.objects.get(slug="velo-lisboa")
    made = timezone.now() - timedelta(days=30)
    invitation = services.invite(club=club, role="scorekeeper", by=users["organiser"], now=made)
    just_before = made + timedelta(days=7) - timedelta(seconds=1)
    assert services.open_invitation(token=invitation.token, now=just_before) is not None
    assert services.open_invitation(token=invitation.token, now=made + timedelta(days=7)) is None
    with pytest.raises(InvalidInput):
        services.accept_invitation(token=invitation.token, user=users["bystander"])
    assert "bystander" not in _roles()
    assert Client().get(f"/invite/{invitation.token}/").status_code == 404  # now: expired


def test_an_unknown_token_is_a_404() -> None:
    assert Client().get("/invite/not-a-token/").status_code == 404


@pytest.mark.parametrize(
    ("language", "heading"),
    [("pt", "Membros de Velo Club Lisboa"), ("es", "Miembros de"), ("fr", "Membres de")],
)
def test_members_page_speaks_the_reader_language(
    web: dict[str, Client], language: str, heading: str
) -> None:
    client = web["organiser"]
    client.cookies["django_language"] = language
    html = client.get(MEMBERS_URL).content.decode()
    assert heading in html
    assert "Invitation links" not in html


def test_the_forms_need_their_csrf_token(users: dict[str, Any]) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(users["organiser"])
    before = _roles()
    response = client.post(MEMBERS_URL, {"action": "remove", "username": "scorekeeper"})
    assert response.status_code == 403
    assert client.post("/clubs/new/", {"name": "X", "slug": "x"}).status_code == 403
    assert _roles() == before
    assert not Club.objects.filter(slug="x").exists()
