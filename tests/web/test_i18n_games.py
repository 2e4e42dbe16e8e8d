"""The championship and rally pages speak the reader's language (a key string per language)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client as PageClient

from tests.championships.helpers import create as create_championship
from tests.championships.helpers import race_rows
from tests.championships.helpers import submit as submit_race
from tests.rallies.helpers import create_rally, sheet
from tests.rallies.helpers import submit as submit_stage

pytestmark = pytest.mark.django_db

HEADERS = {"en": "en-GB", "pt": "pt-PT,pt;q=0.9", "es": "es-ES", "fr": "fr-FR,fr;q=0.8"}
CHAMPIONSHIP_PAGE = {
    "en": ("Race by race", "Standings after race 1 of 3"),
    "pt": ("Corrida a corrida", "Classificação após a corrida 1 de 3"),
    "es": ("Carrera a carrera", "Clasificación tras la carrera 1 de 3"),
    "fr": ("Course par course", "Classement après la course 1 sur 3"),
}
RALLY_PAGE = {
    "en": ("Stage times", "Stage wins"),
    "pt": ("Tempos das especiais", "Especiais ganhas"),
    "es": ("Tiempos de los tramos", "Tramos ganados"),
    "fr": ("Temps des spéciales", "Spéciales gagnées"),
}


@pytest.fixture
def championship(clients: dict[str, Any]) -> dict[str, Any]:
    """The Formula D championship of tests/championships with race 1 resolved."""
    detail = create_championship(clients["organiser"])
    response = submit_race(
        clients["scorekeeper"], detail, 1, race_rows(detail, 1, ["Eva", "Ana", "Rui"])
    )
    assert response.status_code == 202, response.content
    return detail


@pytest.fixture
def rally(clients: dict[str, Any]) -> dict[str, Any]:
    """The rally of tests/rallies with stage 1 resolved."""
    detail = create_rally(clients["organiser"])
    response = submit_stage(clients["scorekeeper"], detail["id"], 1, sheet(detail, 300, 310, 290))
    assert response.status_code == 202, response.content
    return detail


def _page(path: str, lang: str) -> str:
    response = PageClient().get(path, HTTP_ACCEPT_LANGUAGE=HEADERS[lang])
    assert response.status_code == 200
    assert response["Content-Language"] == lang
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    return html


@pytest.mark.parametrize("lang", HEADERS)
def test_the_championship_page_follows_accept_language(championship, lang):
    html = _page(f"/championships/{championship['id']}/", lang)
    for text in CHAMPIONSHIP_PAGE[lang]:
        assert text in html, text


@pytest.mark.parametrize("lang", HEADERS)
def test_the_rally_page_follows_accept_language(rally, lang):
    html = _page(f"/rallies/{rally['id']}/", lang)
    for text in RALLY_PAGE[lang]:
        assert text in html, text
