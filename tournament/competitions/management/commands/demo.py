"""``manage.py demo``: a demo club with users and competitions to look at straight away."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.championships import demo as championships_demo
from tournament.clubs.models import Club, Membership, Role
from tournament.rallies import demo as rallies_demo
from tournament.tours.demo import create_demo_tour
from tournament.tours.models import Tour

DEMO_PASSWORD = "podium-demo"
USERS = [("admin", None), ("olga", Role.ORGANISER), ("sam", Role.SCOREKEEPER)]


class Command(BaseCommand):
    help = "Create the demo club, users (password 'podium-demo') and competitions (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        with transaction.atomic():
            club, _ = Club.objects.get_or_create(slug="demo", defaults={"name": "Clube Demo"})
            users = {}
            for username, role in USERS:
                user, created = User.objects.get_or_create(username=username)
                if created:
                    user.set_password(DEMO_PASSWORD)
                    user.is_staff = role in (None, Role.ORGANISER)
                    user.is_superuser = role is None
                    user.save()
                users[username] = user
                if role is not None:
                    Membership.objects.get_or_create(club=club, user=user, defaults={"role": role})
        if not Tour.objects.filter(club=club).exists():
            tour = create_demo_tour(club=club, organiser=users["olga"], scorekeeper=users["sam"])
            self.stdout.write(f"Demo tour {tour.pk}: {tour.name}")
        for build in (championships_demo.build, rallies_demo.build):
            for line in build(club=club, organiser=users["olga"], scorekeeper=users["sam"]):
                self.stdout.write(line)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo ready. Users admin (superuser), olga (organiser), sam (scorekeeper); "
                f"password {DEMO_PASSWORD!r}."
            )
        )
