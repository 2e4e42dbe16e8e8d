"""Share cards: a 1200×630 PNG per resolved event that follows corrections, cached per version
and language; 404 for unresolved events and private competitions; Open Graph tags on pages."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from PIL import Image, ImageChops

from tournament.competitions.kinds import get_kind
from tournament.competitions.services import resolve_event, submit_results
from tournament.printouts import cards
from tournament.tours.models import Stage


def _image(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def _correct_stage(tour: Any, number: int, by: Any) -> None:
    """A correction: stage ``number``'s finishing order reversed (times kept in order)."""
    stage = Stage.objects.get(competition=tour, number=number)
    rows = sorted(stage.results, key=lambda r: r["position"])
    riders = [row["rider"] for row in rows][::-1]
    corrected = [{**row, "rider": rider} for row, rider in zip(rows, riders, strict=True)]
    kind = get_kind("tour")
    submit_results(kind=kind, competition_id=tour.pk, number=number, rows=corrected, by=by)
    resolve_event(kind=kind, event_id=stage.pk)


def test_card_is_a_png_that_follows_the_podium(
    small_tour: Any, users: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn: list[cards.Card] = []
    real = cards.draw_card

    def counting(card: cards.Card) -> bytes:
        drawn.append(card)
        return real(card)

    monkeypatch.setattr(cards, "draw_card", counting)
    url = f"/tours/{small_tour.pk}/stages/2/card.png"
    response = Client().get(url)
    assert response.status_code == 200 and response["Content-Type"] == "image/png"
    before = _image(response.content)
    assert before.format == "PNG" and before.size == (1200, 630)
    card = drawn[0]
    assert card.competition == small_tour.name and card.club == "Velo Club Lisboa"
    assert len(card.podium) == 3 and [line.place for line in card.podium] == [1, 2, 3]
    assert {line.jersey for line in card.leaders} == {"yellow", "green", "polka_dot"}
    assert Client().get(url).content == response.content and len(drawn) == 1  # kept
    portuguese = Client().get(url + "?lang=pt")
    assert len(drawn) == 2 and portuguese.content != response.content
    assert drawn[1].event.startswith("Etapa 2")

    _correct_stage(small_tour, 2, users["organiser"])
    after = _image(Client().get(url).content)
    assert len(drawn) == 3
    assert [line.name for line in drawn[2].podium] != [line.name for line in card.podium]
    assert after.size == (1200, 630)
    assert ImageChops.difference(before.convert("RGB"), after.convert("RGB")).getbbox() is not None


def test_no_card_for_unresolved_events_or_private_competitions(
    small_tour: Any, secret_tour: Any, users: dict[str, Any]
) -> None:
    anonymous = Client()
    assert anonymous.get(f"/tours/{small_tour.pk}/stages/3/card.png").status_code == 404
    assert anonymous.get(f"/tours/{small_tour.pk}/stages/99/card.png").status_code == 404
    assert anonymous.get(f"/tours/{secret_tour.pk}/stages/1/card.png").status_code == 404
    member = Client()
    member.force_login(users["scorekeeper"])
    assert member.get(f"/tours/{secret_tour.pk}/stages/1/card.png").status_code == 200


def _meta(html: str) -> dict[str, str]:
    found = re.findall(r'<meta (?:property|name)="([^"]+)" content="([^"]*)">', html)
    return dict(found)


def test_pages_carry_open_graph_tags_to_the_latest_card(small_tour: Any) -> None:
    client = Client()
    page = _meta(client.get(f"/tours/{small_tour.pk}/").content.decode())
    assert page["og:title"] == small_tour.name
    assert page["twitter:card"] == "summary_large_image"
    image = page["og:image"]
    assert image.startswith(f"http://testserver/tours/{small_tour.pk}/stages/2/card.png?lang=en")
    assert client.get(image.removeprefix("http://testserver")).status_code == 200
    stage = _meta(client.get(f"/tours/{small_tour.pk}/stages/1/").content.decode())
    assert f"/tours/{small_tour.pk}/stages/1/card.png" in stage["og:image"]
    home = _meta(client.get("/").content.decode())
    assert home["og:title"] == "Podium" and home["twitter:card"] == "summary"
    assert (
        f'href="/tours/{small_tour.pk}/sheet.pdf"'
        in client.get(f"/tours/{small_tour.pk}/").content.decode()
    )
