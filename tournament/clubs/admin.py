"""Admin for clubs and memberships, scoped to the organiser's clubs."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournament.clubs.models import Club, Membership
from tournament.competitions.admin_base import ClubScopedAdmin, ScopedInline


class MembershipForm(forms.ModelForm):
    """Members are added by username: organisers may not browse the site's user list."""

    username = forms.CharField(label=_("username"), max_length=150)

    class Meta:
        model = Membership
        fields = ["username", "role"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["username"].initial = self.instance.user.username

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(_("No user with this username."))
        self.instance.user = user
        return username


class MembershipInline(ScopedInline, admin.TabularInline):
    model = Membership
    form = MembershipForm
    extra = 1


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin):
    club_path = "pk"
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> Any:
        queryset = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(pk__in=Club.objects.organised_by(request.user).values("pk"))

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return bool(request.user.is_superuser)


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin):
    form = MembershipForm
    fields = ["club", "username", "role"]
    list_display = ["club", "user", "role", "created_at"]
    list_filter = ["role"]
    search_fields = ["club__name", "user__username"]
