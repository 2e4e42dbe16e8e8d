"""``manage.py demo`` adds a demo rally pair and a rally championship with standings."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournament.competitions.models import Status
from tournament.rallies.models import Rally, RallyChampionship, RallyStage

pytestmark = pytest.mark.django_db


def test_demo_adds_rallies_and_a_championship_with_standings(
    client, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    rallies = list(Rally.objects.filter(club__slug="demo").order_by("pk"))
    assert len(rallies) == 2
    statuses = [
        list(
            RallyStage.objects.filter(competition=r)
            .order_by("number")
            .values_list("status", flat=True)
        )
        for r in rallies
    ]
    assert statuses == [[Status.RESOLVED] * 3, [Status.RESOLVED] * 2 + [Status.PLANNED]]
    championship = RallyChampionship.objects.get(club__slug="demo")
    body = client.get(f"/api/rally-championships/{championship.pk}/standings/").json()
    assert body["after_rally"] == 1 and len(body["drivers"]) == 4
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Rally.objects.filter(club__slug="demo").count() == 2  # idempotent
