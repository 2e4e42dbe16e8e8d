"""Forms of the club pages: start a club, add a member, change a role, invite."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from tournament.clubs.models import Club, Role

# Page addresses under /clubs/ that a slug must not shadow (/clubs/new/ is the start-a-club page).
RESERVED_SLUGS = frozenset({"new"})


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=60,
        help_text=_("Letters, digits and hyphens: the club's page is /clubs/<address>/."),
    )

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"].lower()
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("This address is reserved; choose another."))
        if Club.objects.filter(slug=slug).exists():
            raise forms.ValidationError(_("A club with this address already exists."))
        return slug


ROLE_CHOICES = [
    (Role.SCOREKEEPER.value, Role.SCOREKEEPER.label),
    (Role.ORGANISER.value, Role.ORGANISER.label),
]


class RoleField(forms.ChoiceField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=ROLE_CHOICES, label=_("Role"), **kwargs)


class AddMemberForm(forms.Form):
    username = forms.CharField(label=_("Username"), max_length=150)
    role = RoleField()

    def clean_username(self) -> Any:
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("No user has this username."))
        return user


class ChangeRoleForm(forms.Form):
    username = forms.CharField(widget=forms.HiddenInput, max_length=150)
    role = RoleField()


class RemoveMemberForm(forms.Form):
    username = forms.CharField(widget=forms.HiddenInput, max_length=150)


class InviteForm(forms.Form):
    role = RoleField()
