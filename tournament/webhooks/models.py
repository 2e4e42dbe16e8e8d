"""A club's webhooks, what was sent to them (deliveries) and each try (attempts).

``Announcement`` remembers which event of which competition was announced at which version, so
that a resolution that cascades through later events, or a worker that runs twice, never tells
a receiver the same thing twice (docs/webhooks.md).
"""

from __future__ import annotations

from typing import Final

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.competitions.models import user_link

RESOLVED: Final = "event.resolved"
CORRECTED: Final = "results.corrected"
FINISHED: Final = "competition.finished"
#: A delivery an organiser asked for from the page (never a subscription).
TEST: Final = "webhook.test"
EVENTS: Final = (RESOLVED, CORRECTED, FINISHED)
#: At most this many tries of one delivery (API.md).
MAX_ATTEMPTS: Final = 5


class Format(models.TextChoices):
    JSON = "json", "JSON"
    DISCORD = "discord", "Discord"


class Webhook(models.Model):
    club = models.ForeignKey(
        "clubs.Club", on_delete=models.CASCADE, related_name="webhooks", verbose_name=_("club")
    )
    url = models.URLField(_("URL"), max_length=500)
    # Kept to sign each body; never shown again after it is given.
    secret = models.CharField(_("secret"), max_length=200)
    events = models.JSONField(_("events"), default=list)
    format = models.CharField(_("format"), max_length=10, choices=Format.choices)
    active = models.BooleanField(_("active"), default=True)
    created_by = user_link(_("created by"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url


class DeliveryState(models.TextChoices):
    PENDING = "pending", _("pending")
    DELIVERED = "delivered", _("delivered")
    FAILED = "failed", _("failed")


class Delivery(models.Model):
    webhook = models.ForeignKey(
        Webhook, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("webhook")
    )
    event = models.CharField(_("event"), max_length=40)
    # What the body says (API.md); ``body`` is the exact bytes signed and sent, made once on the
    # first attempt so that every retry sends the same body with the same signature.
    payload = models.JSONField(_("payload"))
    body = models.TextField(_("body"), blank=True)
    state = models.CharField(
        _("state"), max_length=10, choices=DeliveryState.choices, default=DeliveryState.PENDING
    )
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("delivery")
        verbose_name_plural = _("deliveries")

    def __str__(self) -> str:
        return f"{self.event} → {self.webhook_id}"


class Attempt(models.Model):
    delivery = models.ForeignKey(
        Delivery, on_delete=models.CASCADE, related_name="attempt_log", verbose_name=_("delivery")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    status_code = models.PositiveSmallIntegerField(_("status code"), null=True, blank=True)
    error = models.TextField(_("error"), blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), default=0)
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["number"]
        verbose_name = _("attempt")
        verbose_name_plural = _("attempts")
        constraints = [
            models.UniqueConstraint(fields=["delivery", "number"], name="webhook_attempt_once")
        ]

    def __str__(self) -> str:
        return f"{self.delivery_id} #{self.number}"


class Announcement(models.Model):
    """One event told once: ``number`` 0 and ``version`` 0 for ``competition.finished``."""

    kind = models.CharField(_("kind"), max_length=40)
    competition_id = models.PositiveBigIntegerField(_("competition"))
    event = models.CharField(_("event"), max_length=40)
    number = models.PositiveSmallIntegerField(_("number"))
    version = models.PositiveIntegerField(_("version"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "competition_id", "event", "number", "version"],
                name="webhook_announced_once",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.competition_id} {self.event} {self.number} v{self.version}"
