"""``manage.py demo`` gives a newcomer real standings at once."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournament.competitions.models import Status
from tournament.tours.models import Stage, Tour

pytestmark = pytest.mark.django_db


def test_demo_creates_a_six_stage_tour_with_four_resolved(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    tour = Tour.objects.get(club__slug="demo")
    stages = list(Stage.objects.filter(competition=tour).order_by("number"))
    assert len(stages) == 6
    assert [s.status for s in stages] == [Status.RESOLVED] * 4 + [Status.PLANNED] * 2
    assert sum(s.rest_day_after for s in stages) == 1
    assert tour.teams.count() == 4
    tour.refresh_from_db()
    assert tour.standings_through == 4
    with django_capture_on_commit_callbacks(execute=True):
        call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Tour.objects.filter(club__slug="demo").count() == 1  # idempotent
