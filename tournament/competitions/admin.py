"""Admin for the audit log: read-only, limited to the organiser's clubs."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournament.competitions.admin_base import ClubScopedAdmin
from tournament.competitions.models import AuditEntry

AUDIT_FIELDS = (
    "created_at",
    "club",
    "competition_kind",
    "competition_id",
    "event_number",
    "action",
    "user",
    "summary",
    "changes",
)


@admin.register(AuditEntry)
class AuditEntryAdmin(ClubScopedAdmin):
    list_display = AUDIT_FIELDS[:-1]  # without the changes (long JSON)
    list_filter = ["action", "competition_kind"]
    search_fields = ["summary", "user__username"]
    date_hierarchy = "created_at"
    readonly_fields = AUDIT_FIELDS

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
