"""The printable sheet: text, pages, visibility, language, the cache and the worker's path."""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext as _

from scoring.clock import clock
from tournament.competitions.kinds import get_kind
from tournament.competitions.services import resolve_event, submit_results
from tournament.printouts import sheets, store, views
from tournament.tours.demo import demo_results
from tournament.tours.models import Rider, Stage


def _text(pdf: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def counted_renders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int, str]]:
    """The sheets rendered from here on (label, pk, language)."""
    made: list[tuple[str, int, str]] = []
    real = sheets.render_pdf

    def counting(label: str, pk: int, language: str) -> tuple[bytes, int]:
        made.append((label, pk, language))
        return real(label, pk, language)

    monkeypatch.setattr(sheets, "render_pdf", counting)
    return made


def test_sheet_holds_every_rider_and_time_and_its_pages_render(
    small_tour: Any,
    secret_tour: Any,
    users: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = counted_renders(monkeypatch)
    url = f"/tours/{small_tour.pk}/sheet.pdf"
    response = Client().get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    pdf = response.content
    assert Client().get(url).content == pdf and len(made) == 1  # kept: made once
    assert pdf.startswith(b"%PDF")
    text = _text(pdf, tmp_path)
    assert small_tour.name in text and "Velo Club Lisboa" in text
    riders = list(Rider.objects.filter(team__tour=small_tour))
    assert len(riders) == 4
    for rider in riders:
        assert rider.name in text
    for stage in Stage.objects.filter(competition=small_tour, number__lte=2):
        assert f"Stage {stage.number}" in text
        for row in stage.results:
            assert clock(60 * row["minutes"] + row["seconds"]) in text
    for heading in ("General classification", "Tour Points", "Jersey timeline"):
        assert heading in text
    # A4 pages, each rendered to an image without error; the charts are vector (no images).
    info = subprocess.run(["pdfinfo", str(tmp_path / "sheet.pdf")], capture_output=True, text=True)
    assert "A4" in info.stdout
    pages = int(next(x for x in info.stdout.splitlines() if x.startswith("Pages:")).split()[1])
    run = subprocess.run(
        ["pdftoppm", "-r", "40", "-png", str(tmp_path / "sheet.pdf"), str(tmp_path / "page")],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0 and not run.stderr, run.stderr
    assert len(list(tmp_path.glob("page*.png"))) == pages >= 1
    images = subprocess.run(
        ["pdfimages", "-list", str(tmp_path / "sheet.pdf")], capture_output=True, text=True
    ).stdout.splitlines()
    assert len(images) == 2  # the header lines only: no raster image in the sheet
    _private_is_a_404_to_outsiders(secret_tour, users)


def _private_is_a_404_to_outsiders(secret_tour: Any, users: dict[str, Any]) -> None:
    url = f"/tours/{secret_tour.pk}/sheet.pdf"
    assert Client().get(url).status_code == 404
    outsider = Client()
    outsider.force_login(users["outsider"])
    assert outsider.get(url).status_code == 404
    member = Client()
    member.force_login(users["scorekeeper"])
    assert member.get(url).status_code == 200
    assert Client().get("/tours/999999/sheet.pdf").status_code == 404


def test_sheet_is_made_once_per_version_and_language(
    small_tour: Any, users: dict[str, Any], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    made = counted_renders(monkeypatch)
    url = f"/tours/{small_tour.pk}/sheet.pdf"
    # The request's language: the cookie (or ?lang=); each language is a sheet of its own.
    # (The English sheet is made and kept in the test above.)
    client = Client()
    client.cookies["django_language"] = "pt"
    first = client.get(url).content
    text = _text(first, tmp_path)
    with translation.override("pt"):
        heading = _("General classification")
    assert heading != "General classification" and heading in text
    assert "General classification" not in text
    assert made == [("tour", small_tour.pk, "pt")]
    assert client.get(url).content == first and len(made) == 1
    # Stage 3 resolved: a new standings version, a new sheet.
    riders = list(Rider.objects.filter(team__tour=small_tour).order_by("team__order", "role"))
    kind = get_kind("tour")
    submit_results(
        kind=kind,
        competition_id=small_tour.pk,
        number=3,
        rows=demo_results(riders, random.Random(3), "flat"),
        by=users["organiser"],
    )
    resolve_event(kind=kind, event_id=Stage.objects.get(competition=small_tour, number=3).pk)
    third = client.get(url).content
    assert len(made) == 2 and third != first


def test_a_busy_worker_gets_a_page_that_retries(
    small_tour: Any, monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    """With a broker the request queues the sheet and waits; past the wait it answers 202."""
    queued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(views, "_eager", lambda: False)
    monkeypatch.setattr(views.make_sheet_task, "delay", lambda *args: queued.append(args))
    settings.PODIUM_SHEET_WAIT_SECONDS = 0  # no worker will make it: answer at once
    url = f"/tours/{small_tour.pk}/sheet.pdf"
    response = Client().get(url)
    assert response.status_code == 202
    assert response["Retry-After"] == "5"
    assert b'http-equiv="refresh"' in response.content
    assert queued == [("tour", small_tour.pk, "en")]
    assert Client().get(url).status_code == 202
    assert len(queued) == 1  # already being made: not queued twice
    store.make_sheet(*queued[0])  # what the worker does
    done = Client().get(url)
    assert done.status_code == 200 and done.content.startswith(b"%PDF")
