"""Sign-in pages that slow down password guessing.

Failed sign-ins are counted per client address and username in the cache; past
``PODIUM_LOGIN_MAX_FAILURES`` within ``PODIUM_LOGIN_LOCKOUT_SECONDS`` the password is not even
checked and the page answers 429. The client address is the one the API throttle uses (DRF's
``NUM_PROXIES``), so ``X-Forwarded-For`` cannot be forged to get a fresh counter. A cache outage
must not lock anyone out or fail the page: the counter is then skipped.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.views import LoginView
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _
from redis.exceptions import RedisError
from rest_framework.throttling import BaseThrottle, ScopedRateThrottle

log = logging.getLogger(__name__)

# Redis being away is an outage of an optimisation here, not a reason to fail a sign-in.
CACHE_ERRORS = (RedisError, OSError)


def client_address(request: HttpRequest) -> str:
    """The client's address as the API throttles see it (``NUM_PROXIES`` aware)."""
    # get_ident reads only META (the address and X-Forwarded-For): a Django request will do.
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]


def failure_key(request: HttpRequest, username: str) -> str:
    ident = f"{client_address(request)}|{username.strip().lower()}"
    return "login-failures:" + hashlib.sha256(ident.encode()).hexdigest()


def _failures(key: str) -> int:
    try:
        return int(cache.get(key, 0))
    except CACHE_ERRORS:
        log.warning("login throttle: cache unavailable, not counting")
        return 0


def _record_failure(key: str) -> None:
    try:
        if not cache.add(key, 1, timeout=settings.PODIUM_LOGIN_LOCKOUT_SECONDS):
            cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=settings.PODIUM_LOGIN_LOCKOUT_SECONDS)
    except CACHE_ERRORS:
        log.warning("login throttle: cache unavailable, not counting")


def _forget(key: str) -> None:
    try:
        cache.delete(key)
    except CACHE_ERRORS:
        log.warning("login throttle: cache unavailable")


class LoginThrottleMixin:
    """For an ``AuthenticationForm``: refuse without checking once too many attempts failed."""

    request: HttpRequest | None
    data: Any
    throttled = False
    throttle_message = _("Too many failed sign-ins. Wait %(minutes)s minutes and try again.")

    def clean(self) -> dict[str, Any]:
        username = str(self.data.get("username") or "")
        key = failure_key(self.request, username) if self.request is not None else ""
        if key and _failures(key) >= settings.PODIUM_LOGIN_MAX_FAILURES:
            self.throttled = True
            minutes = max(1, settings.PODIUM_LOGIN_LOCKOUT_SECONDS // 60)
            raise ValidationError(
                self.throttle_message, code="throttled", params={"minutes": minutes}
            )
        try:
            cleaned: dict[str, Any] = super().clean()  # type: ignore[misc]
        except ValidationError:
            if key:
                _record_failure(key)
            raise
        if key:
            _forget(key)
        return cleaned


class ThrottledAuthenticationForm(LoginThrottleMixin, AuthenticationForm):
    """The site's sign-in form."""


class ThrottledAdminAuthenticationForm(LoginThrottleMixin, AdminAuthenticationForm):
    """The admin's sign-in form (``admin.site.login_form``)."""


class ThrottledLoginView(LoginView):
    """``/login/``: the usual LoginView with the throttled form; a refused attempt is a 429."""

    authentication_form = ThrottledAuthenticationForm
    redirect_authenticated_user = True

    def form_invalid(self, form: Any) -> HttpResponse:
        response = super().form_invalid(form)
        if getattr(form, "throttled", False):
            response.status_code = 429
        return response


def throttled_admin_login(request: HttpRequest, extra_context: Any = None) -> HttpResponse:
    """``/admin/login/``: the admin's own sign-in page, answering 429 while it refuses.

    The admin builds its login view itself (``AdminSite.login``), so ``ThrottledLoginView``'s
    ``form_invalid`` never runs there: the refusal showed the message with a 200, where
    ``/login/`` and the API answer 429. The refused form says so (``throttled``).
    """
    from django.contrib import admin

    response = admin.site.login(request, extra_context)
    form = (getattr(response, "context_data", None) or {}).get("form")
    if getattr(form, "throttled", False):
        response.status_code = 429
    return response


class CacheTolerantScopedRateThrottle(ScopedRateThrottle):
    """DRF's scoped throttle that lets requests through while the cache is unreachable.

    The throttle's history lives in the cache (Redis in production); without this a Redis outage
    turns every token request into a 500.
    """

    def allow_request(self, request: Any, view: Any) -> bool:
        try:
            return bool(super().allow_request(request, view))
        except CACHE_ERRORS:
            log.warning("throttle %s: cache unavailable, not counting", self.scope)
            return True
