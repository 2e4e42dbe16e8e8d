"""Championships, leagues and rallies: a sheet with every event's results and the standings,
a card of each resolved event, the page's link and tags (one small competition of each)."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Any

from PIL import Image

from tests.championships.helpers import create as create_championship
from tests.championships.helpers import race_rows
from tests.championships.helpers import submit as submit_race
from tests.leagues.helpers import create as create_league
from tests.leagues.helpers import rows as league_rows
from tests.leagues.helpers import submit as submit_league
from tests.rallies.helpers import create_rally, sheet
from tests.rallies.helpers import submit as submit_rally


def _text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def _check(client: Any, collection: str, pk: int, events: str, tmp_path: Path) -> str:
    response = client.get(f"/{collection}/{pk}/sheet.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    card = client.get(f"/{collection}/{pk}/{events}/1/card.png")
    assert card.status_code == 200, (collection, card.status_code)
    assert Image.open(io.BytesIO(card.content)).size == (1200, 630)
    assert client.get(f"/{collection}/{pk}/{events}/2/card.png").status_code == 404
    page = client.get(f"/{collection}/{pk}/").content.decode()
    assert f'href="/{collection}/{pk}/sheet.pdf"' in page
    assert f"/{collection}/{pk}/{events}/1/card.png?lang=en" in page
    return _text(response.content, tmp_path)


def test_every_kind_prints_its_sheet_and_cards(clients: dict[str, Any], tmp_path: Path) -> None:
    organiser, scorekeeper, anonymous = (
        clients["organiser"],
        clients["scorekeeper"],
        clients["anonymous"],
    )
    championship = create_championship(organiser)
    submit_race(scorekeeper, championship, 1, race_rows(championship, 1, ["Ana", "Rui", "Eva"]))
    text = _check(anonymous, "championships", championship["id"], "races", tmp_path)
    for heading in ("Drivers", "Race by race", "Race results", "Race 1"):
        assert heading in text
    for name in ("Ana", "Rui", "Eva"):
        assert name in text

    league = create_league(organiser)
    submit_league(scorekeeper, league, 1, league_rows(league, ["Ana", "Rui", "Eva"]))
    text = _check(anonymous, "leagues", league["id"], "races", tmp_path)
    assert "Race results" in text and "Ana" in text and "Eva" in text

    rally = create_rally(organiser)
    submit_rally(scorekeeper, rally["id"], 1, sheet(rally, 301, 312, "5:20"))
    text = _check(anonymous, "rallies", rally["id"], "stages", tmp_path)
    assert "Overall classification" in text and "Stage results" in text
    assert "5:01" in text  # stage 1's fastest time (301 s)
