"""``manage.py demo``: a demo club with users and competitions to look at straight away."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from importlib import import_module
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.module_loading import module_has_submodule

from tournament.clubs.models import Club, Membership, Role

DEMO_PASSWORD = "podium-demo"
USERS = [("admin", None), ("olga", Role.ORGANISER), ("sam", Role.SCOREKEEPER)]


def demo_builders() -> Iterator[Callable[..., list[str]]]:
    """Each installed app's ``demo.build`` (in INSTALLED_APPS order).

    Found by name, not imported here: the shared workflow knows no game (an import-linter
    contract), and a new game's demo joins by shipping a ``demo`` module with a ``build``.
    """
    for config in apps.get_app_configs():
        if config.name.startswith("tournament.") and module_has_submodule(config.module, "demo"):
            module = import_module(f"{config.name}.demo")
            build = getattr(module, "build", None)
            if callable(build):
                yield build


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
        for build in demo_builders():
            for line in build(club=club, organiser=users["olga"], scorekeeper=users["sam"]):
                self.stdout.write(line)
        self.stdout.write(
            self.style.SUCCESS(
                "Demo ready. Users admin (superuser), olga (organiser), sam (scorekeeper); "
                f"password {DEMO_PASSWORD!r}."
            )
        )
