"""Issue #17 part 3 through the API and the pages: ``tie_break`` in the reader's language."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.utils import translation

from scoring.tie_break import TEMPLATES, TieBreak
from tests.championships.helpers import create, race_rows, standings, submit
from tournament.competitions.tie_break import SENTENCES, localize, localize_text, tie_break_text

pytestmark = pytest.mark.django_db

PARAMS: dict[str, dict[str, Any]] = {
    "gt_time_stage_place": {"stage": 4, "place": 2, "other_place": 5},
    "more_places": {"place": 3, "count": 2, "other_count": 1},
    "recent_race_places": {"race": 2, "places": (1, 4), "other_places": (2, None)},
    "rally_stage_time": {"stage": 1, "time": 65, "other_time": 3700},
    "shared_points": {"rank": 2},
}


def _example(code: str) -> TieBreak:
    names = re.findall(r"\{(\w+)\}", TEMPLATES[code])
    given = PARAMS.get(code, {})
    return TieBreak(code, "X-1", {n: given.get(n, 3) for n in names})


def test_english_msgids_are_the_scoring_sentences() -> None:
    assert set(SENTENCES) == set(TEMPLATES)
    with translation.override("en"):
        for code in TEMPLATES:
            tb = _example(code)
            assert tie_break_text(tb.to_json()) == tb.text(), code


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Same points; more 3rd places: 2 against 1 (X-1)"),
        ("pt", "3.º"),
        ("es", "3.º"),
        ("fr", "3e"),
    ],
)
def test_every_language_has_every_sentence(language: str, expected: str) -> None:
    with translation.override(language):
        assert expected in tie_break_text(_example("more_places").to_json())
        for code in TEMPLATES:
            text = tie_break_text(_example(code).to_json())
            assert "%(" not in text and text.endswith("(X-1)")
            if language != "en":
                assert text != _example(code).text(), (language, code)  # translated


def test_localize_leaves_rows_without_tie_breaks_and_unknown_codes() -> None:
    document = {"drivers": [{"rank": 1}, {"rank": 2, "tie_break": {"code": "new", "text": "Kept"}}]}
    with translation.override("fr"):
        assert localize(document)["drivers"][1]["tie_break"]["text"] == "Kept"
        assert localize_text('{"drivers": []}') == '{"drivers": []}'


def test_championship_standings_say_why_in_the_readers_language(clients: Any) -> None:
    champ = create(
        clients["organiser"],
        races=[{"circuit": "monaco", "laps": 1}] * 2,
        points=[3, 2, 1],
    )
    sk = clients["scorekeeper"]
    # Ana 1st then 2nd (5), Eva 2nd then 1st (5): Eva won the latest race (FD-76 (2)).
    assert submit(sk, champ, 1, race_rows(champ, 1, ["Ana", "Eva", "Rui"])).status_code == 202
    assert submit(sk, champ, 2, race_rows(champ, 2, ["Eva", "Ana", "Rui"])).status_code == 202
    anonymous = clients["anonymous"]
    body = standings(anonymous, champ).json()
    first, second, third = body["drivers"]
    assert (first["name"], second["name"]) == ("Eva", "Ana")
    assert "tie_break" not in first and "tie_break" not in third
    assert second["tie_break"] == {
        "code": "recent_race_place",
        "rule": "FD-76",
        "params": {"race": 2, "place": 1, "other_place": 2},
        "text": "Same points and countback; better place in race 2: 1st against 2nd (FD-76)",
    }
    teams = body["teams"]  # Tejo 5 + 1 per race = 7... Sado 5: not level
    assert all("tie_break" not in t for t in teams if t["points"] != teams[0]["points"])
    french = anonymous.get(
        f"/api/championships/{champ['id']}/standings/", HTTP_ACCEPT_LANGUAGE="fr"
    ).json()
    assert french["drivers"][1]["tie_break"]["text"].endswith("1er contre 2e (FD-76)")
    portuguese = anonymous.get(
        f"/api/championships/{champ['id']}/standings/?after_race=2", HTTP_ACCEPT_LANGUAGE="pt"
    ).json()
    assert "1.º" in portuguese["drivers"][1]["tie_break"]["text"]
    # The page shows the mark on Ana's row: hover, tap and screen readers.
    page = anonymous.get(f"/championships/{champ['id']}/", HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200
    assert html.count('class="tie-break"') == 1
    sentence = "Same points and countback; better place in race 2: 1st against 2nd (FD-76)"
    assert f'title="{sentence}"' in html
    assert f'aria-label="Tie-break: {sentence}"' in html
    assert f'role="note">{sentence}</span>' in html


def test_refresh_standings_adds_tie_breaks_to_snapshots_stored_before_them(clients: Any) -> None:
    from django.core.management import call_command

    from tournament.championships.models import RaceStandings as Snapshot

    champ = create(clients["organiser"], races=[{"circuit": "monaco", "laps": 1}] * 2)
    sk = clients["scorekeeper"]
    assert submit(sk, champ, 1, race_rows(champ, 1, ["Ana", "Eva", "Rui"])).status_code == 202
    assert submit(sk, champ, 2, race_rows(champ, 2, ["Eva", "Ana", "Rui"])).status_code == 202
    stored = Snapshot.objects.get(competition_id=champ["id"], number=2)
    fresh = stored.data
    old = {
        **fresh,
        "drivers": [{k: v for k, v in d.items() if k != "tie_break"} for d in fresh["drivers"]],
    }
    Snapshot.objects.filter(pk=stored.pk).update(data=old)  # as stored before issue #17
    out = io.StringIO()
    call_command("refresh_standings", "championship", "--id", str(champ["id"]), stdout=out)
    assert "1 snapshot(s) rewritten" in out.getvalue()
    assert Snapshot.objects.get(pk=stored.pk).data == fresh
    out = io.StringIO()
    call_command("refresh_standings", stdout=out)  # every kind; nothing left to change
    assert out.getvalue().strip().endswith("0 snapshot(s) rewritten")


def test_tour_standings_and_page_explain_a_tie_on_time(clients: Any, tour: Any) -> None:
    from tests.api.helpers import submit as submit_stage
    from tests.conftest import stage_rows as tour_rows

    # The default rows put riders 1 and 2 on the same time (0:00): GT-5.5 by stage 1's line.
    assert submit_stage(clients["scorekeeper"], tour["id"], 1, tour_rows(tour)).status_code == 202
    url = f"/api/tours/{tour['id']}/standings/"
    general = clients["anonymous"].get(url).json()["general"]
    second = general[1]
    assert second["time"] == general[0]["time"]
    assert second["tie_break"]["code"] == "gt_time_stage_place"
    assert second["tie_break"]["params"] == {"stage": 1, "place": 1, "other_place": 2}
    assert "tie_break" not in general[0]
    spanish = clients["anonymous"].get(url, HTTP_ACCEPT_LANGUAGE="es").json()["general"][1]
    assert spanish["tie_break"]["text"] == (
        "Mismo tiempo; mejor puesto en la etapa 1: 1.º contra 2.º (GT-5.5)"
    )
    html = clients["anonymous"].get(f"/tours/{tour['id']}/", HTTP_ACCEPT_LANGUAGE="en")
    assert "Same time; better place on stage 1: 1st against 2nd (GT-5.5)" in html.content.decode()
