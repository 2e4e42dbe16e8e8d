"""Four languages: chosen from Accept-Language, switchable, remembered; complete catalogues."""

from __future__ import annotations

import ast
import gettext
import inspect
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from scoring.grand_tour import validation
from scoring.issues import Issue
from tests.conftest import stage_rows
from tests.web.test_results_form import form_data
from tournament.tours.messages import TEMPLATES, issues_to_errors
from tournament.web.templatetags.podium import num

LOCALE = Path(settings.BASE_DIR) / "locale"
# A key string per language on the tour page, the form's errors and the home page.
TOUR_PAGE = {
    "en": "General classification",
    "pt": "Classificação geral",
    "es": "Clasificación general",
    "fr": "Classement général",
}
FORM_ERROR = {
    "en": "Positions must be exactly 1 to 6; missing: 2.",
    "pt": "As posições têm de ser exatamente de 1 a 6; faltam: 2.",
    "es": "Las posiciones deben ser exactamente de 1 a 6; faltan: 2.",
    "fr": "Les positions doivent aller exactement de 1 à 6 ; manquantes : 2.",
}
HOME = {
    "en": "Clubs and competitions",
    "pt": "Clubes e competições",
    "es": "Clubes y competiciones",
    "fr": "Clubs et compétitions",
}


@pytest.mark.parametrize("lang", TOUR_PAGE)
def test_pages_follow_accept_language(web, resolved_tour, lang):
    header = {"pt": "pt-PT,pt;q=0.9", "es": "es-ES", "fr": "fr-FR,fr;q=0.8"}.get(lang, "en-GB")
    response = web["anonymous"].get(f"/tours/{resolved_tour['id']}/", HTTP_ACCEPT_LANGUAGE=header)
    html = response.content.decode()
    assert TOUR_PAGE[lang] in html
    assert f'<html lang="{lang}">' in html
    assert response["Content-Language"] == lang
    home = web["anonymous"].get("/", HTTP_ACCEPT_LANGUAGE=header).content.decode()
    assert HOME[lang] in home


@pytest.mark.parametrize("lang", FORM_ERROR)
def test_form_errors_in_the_readers_language(web, tour, lang):
    rows = stage_rows(tour)
    rows[1]["position"] = 1
    response = web["scorekeeper"].post(
        f"/tours/{tour['id']}/stages/1/results/", form_data(rows), HTTP_ACCEPT_LANGUAGE=lang
    )
    assert FORM_ERROR[lang] in response.content.decode()


@pytest.mark.parametrize("lang", FORM_ERROR)
def test_api_errors_in_the_callers_language(clients, tour, lang):
    rows = stage_rows(tour)
    rows[1]["position"] = 1
    response = clients["scorekeeper"].post(
        f"/api/tours/{tour['id']}/stages/1/results/",
        {"results": rows},
        format="json",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    assert FORM_ERROR[lang] in str(response.json())


def test_language_switch_is_remembered(web):
    client = web["anonymous"]
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/clubs/velo-lisboa/"})
    assert response.status_code == 302
    assert response["Location"] == "/clubs/velo-lisboa/"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    # The choice wins over the browser's header on later pages.
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert HOME["fr"] in html
    assert 'value="fr" lang="fr" aria-current="true"' in html


def test_every_page_offers_the_switch(web, resolved_tour):
    for path in ("/", f"/tours/{resolved_tour['id']}/", "/login/"):
        html = web["anonymous"].get(path).content.decode()
        assert 'action="/i18n/setlang/"' in html
        for name in ("English", "Português", "español", "français"):
            assert name in html


def test_admin_labels_of_our_models_are_translated(web):
    html = web["superuser"].get("/admin/", HTTP_ACCEPT_LANGUAGE="pt").content.decode()
    assert "Grandes Voltas" in html
    html = web["superuser"].get("/admin/tours/stage/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "étape" in html


def test_numbers_are_grouped_per_locale():
    expected = {"en": "12,345", "pt": "12.345", "es": "12\xa0345", "fr": "12\xa0345"}
    for lang, text in expected.items():
        with translation.override(lang):
            assert num(12345) == text, lang


def test_every_validation_issue_code_has_a_translatable_template():
    codes = set(re.findall(r'code="(\w+)"', inspect.getsource(validation)))
    assert codes and codes == set(TEMPLATES)


def test_issue_params_are_shown_as_a_reader_reads_them():
    issues = [
        Issue(
            code="seconds_not_on_timing_tile",
            message="",
            index=0,
            field="seconds",
            params={
                "rider": 1,
                "name": "Ana",
                "value": 15,
                "finish": "flat",
                "allowed": [50, 40, 30, 20, 10, 0],
            },
        ),
        Issue(
            code="time_decreases",
            message="",
            index=1,
            field="minutes",
            params={
                "rider": 2,
                "name": "Rui",
                "position": 2,
                "time": 10,
                "previous_rider": 1,
                "previous_position": 1,
                "previous_time": 70,
            },
        ),
        Issue(code="unknown_rider", message="", index=2, field="rider", params={"rider": 99}),
        Issue(
            code="position_out_of_range",
            message="",
            index=2,
            field="position",
            params={"rider": 99, "name": None, "position": 9, "count": 3},
        ),
    ]
    with translation.override("pt"):
        errors = issues_to_errors(issues, 3)
    assert errors["results"][0]["seconds"] == [
        "Ana tem 15 segundos, valor que não está no mosaico de cronometragem plano "
        "(50, 40, 30, 20, 10, 0)."
    ]
    assert "tem o tempo 0:10, inferior a 1:10 da posição 1" in errors["results"][1]["minutes"][0]
    assert errors["results"][2]["rider"] == ["O ciclista 99 não corre nesta volta."]
    assert errors["results"][2]["position"][0].startswith("Ciclista 99 tem a posição 9;")


def _po_entries(path: Path) -> list[tuple[str, list[str], bool]]:
    """(msgid with context, msgstrs, fuzzy) of every entry but the header."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n")[1:]:
        fields: dict[str, str] = {}
        current = None
        for line in block.splitlines():
            match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d\])?) (\".*\")$", line)
            if match:
                current = match.group(1)
                fields[current] = ast.literal_eval(match.group(2))
            elif line.startswith('"') and current:
                fields[current] += ast.literal_eval(line)
        if "msgid" not in fields:
            continue
        key = fields["msgid"]
        if "msgctxt" in fields:
            key = f"{fields['msgctxt']}\x04{key}"
        strs = [v for k, v in fields.items() if k.startswith("msgstr")]
        entries.append((key, strs, "#, fuzzy" in block))
    return entries


@pytest.mark.parametrize("lang", ["pt", "es", "fr"])
def test_catalogue_is_complete_and_compiled(lang):
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    mo = LOCALE / lang / "LC_MESSAGES" / "django.mo"
    entries = _po_entries(po)
    assert len(entries) > 200
    untranslated = [key for key, strs, fuzzy in entries if fuzzy or not all(strs)]
    assert untranslated == []
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    # The committed .mo is the compiled .po (compilemessages was run after the last edit).
    for key, strs, _fuzzy in entries:
        if "\x04" in key:
            context, msgid = key.split("\x04")
            assert compiled.pgettext(context, msgid) == strs[0], key
        elif len(strs) == 1:
            assert compiled.gettext(key) == strs[0], key
