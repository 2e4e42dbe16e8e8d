"""Bad ``rules`` values answer in the caller's language, for every game (competitions.messages)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from scoring.params import ParamError
from tests.championships.helpers import payload as championship_payload
from tests.conftest import tour_payload
from tests.rallies.helpers import rally_payload
from tournament.competitions.messages import PARAM_TEMPLATES, param_message

pytestmark = pytest.mark.django_db

HEADERS = {"en": "en-GB", "pt": "pt-PT,pt;q=0.9", "es": "es-ES", "fr": "fr-FR,fr;q=0.8"}
# podium_tp (GT-4) is a list of whole numbers.
NOT_INT_LIST = {
    "en": "A list of whole numbers is required.",
    "pt": "É necessária uma lista de números inteiros.",
    "es": "Se necesita una lista de números enteros.",
    "fr": "Une liste de nombres entiers est requise.",
}
AT_MOST_10 = {
    "en": "Must be at most 10.",
    "pt": "Tem de ser no máximo 10.",
    "es": "Debe ser como máximo 10.",
    "fr": "Doit valoir au plus 10.",
}
UNKNOWN_KEYS = {
    "en": "Unknown keys: zz.",
    "pt": "Chaves desconhecidas: zz.",
    "es": "Claves desconocidas: zz.",
    "fr": "Clés inconnues : zz.",
}


@pytest.mark.parametrize("lang", HEADERS)
def test_a_bad_tour_rule_answers_in_the_callers_language(clients, lang):
    response = clients["organiser"].post(
        "/api/tours/",
        tour_payload(rules={"podium_tp": "x"}),
        format="json",
        HTTP_ACCEPT_LANGUAGE=HEADERS[lang],
    )
    assert response.status_code == 400, response.content
    assert response.json()["rules"] == {"podium_tp": [NOT_INT_LIST[lang]]}


@pytest.mark.parametrize("lang", HEADERS)
def test_a_bad_championship_rule_answers_in_the_callers_language(clients, lang):
    response = clients["organiser"].post(
        "/api/championships/",
        championship_payload(rules={"max_cars": 11}),
        format="json",
        HTTP_ACCEPT_LANGUAGE=HEADERS[lang],
    )
    assert response.status_code == 400, response.content
    assert response.json()["rules"] == {"max_cars": [AT_MOST_10[lang]]}


@pytest.mark.parametrize("lang", HEADERS)
def test_a_bad_rally_rule_answers_in_the_callers_language(clients, lang):
    response = clients["organiser"].post(
        "/api/rallies/",
        rally_payload(rules={"allowance": {"gear": 1, "coast": 1, "brake": 1, "zz": 1}}),
        format="json",
        HTTP_ACCEPT_LANGUAGE=HEADERS[lang],
    )
    assert response.status_code == 400, response.content
    assert response.json()["rules"] == {"allowance": [UNKNOWN_KEYS[lang]]}


def test_a_bad_rally_championship_setting_is_translated(clients):
    response = clients["organiser"].post(
        "/api/rally-championships/",
        {"club": "velo-lisboa", "name": "Taça", "drop_worst": 101},
        format="json",
        HTTP_ACCEPT_LANGUAGE="pt",
    )
    assert response.status_code == 400, response.content
    assert response.json()["drop_worst"] == ["Tem de ser no máximo 100."]


def _engine_codes() -> set[str]:
    """The ``code`` of every ``ParamError(...)`` raised in scoring/ and games/."""
    codes = set()
    root = Path(settings.BASE_DIR)
    for path in [*root.glob("scoring/**/*.py"), *root.glob("games/**/*.py")]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ParamError"):
                continue
            args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "code")]
            codes.update(a.value for a in args if isinstance(a, ast.Constant))
    return codes


def test_every_engine_param_code_has_a_translatable_template():
    codes = _engine_codes()
    assert {"not_int", "unknown_param", "loc_card_too_low", "wide_finish_keys"} <= codes
    assert codes - set(PARAM_TEMPLATES) == set()


@pytest.mark.parametrize(
    ("error", "english", "portuguese"),
    [
        (
            ParamError("Every value must be at least 1.", "min_value", limit=1),
            "Every value must be at least 1.",
            "Todos os valores têm de ser pelo menos 1.",
        ),
        (
            ParamError("Missing keys: past.", "wide_finish_keys", keys=["past"]),
            "Missing keys: past.",
            "Chaves em falta: past.",
        ),
        (
            ParamError("Unknown keys: a, b.", "wide_finish_keys", keys=["a", "b"]),
            "Unknown keys: a, b.",
            "Chaves desconhecidas: a, b.",
        ),
        (
            ParamError("Expected an object for hazard_faces.gear.", "not_object"),
            "hazard_faces.gear must be an object.",
            "hazard_faces.gear tem de ser um objeto.",
        ),
        (
            ParamError("Expected an object for the default mix.", "not_object"),
            "Must be an object.",
            "Tem de ser um objeto.",
        ),
        (
            ParamError("Must be one of: a, b.", "invalid_choice", choices=("a", "b")),
            "Must be one of: a, b.",
            "Tem de ser um de: a, b.",
        ),
    ],
)
def test_one_code_with_several_messages_picks_its_template(error, english, portuguese):
    with translation.override("en"):
        assert param_message(error) == english
    with translation.override("pt"):
        assert param_message(error) == portuguese


def test_unknown_codes_and_missing_params_fall_back_to_the_engine_english():
    with translation.override("fr"):
        assert param_message(ParamError("Something new.", "brand_new")) == "Something new."
        assert param_message(ParamError("Must be at least 3.", "min_value")) == (
            "Must be at least 3."
        )
