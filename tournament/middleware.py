"""Every error under ``/api/`` is JSON, whoever produced it.

DRF answers its own errors in JSON, but some never reach it or escape it: a URL no route matches
(Django's 404 page), a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (``RequestDataTooBig``, which
Django turns into its 400 page), and any uncaught exception (the 500 page). API clients parse
every answer as JSON (API.md, conventions), so this middleware replaces those HTML pages with
``{"detail": "..."}`` and the same status. Django still logs each error as before: the exception
is only noted here, never swallowed.
"""

from __future__ import annotations

from collections.abc import Callable
from http import HTTPStatus

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _
from rest_framework.response import Response

API_PREFIX = "/api/"
# Headers of the replaced answer that still hold for the JSON one.
KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate", "Vary")


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def _detail(status: int, exception: BaseException | None) -> str:
    if isinstance(exception, RequestDataTooBig):
        return _("The request body is too large (at most %(n)s bytes).") % {
            "n": settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        }
    if isinstance(exception, TooManyFieldsSent):
        return _("The request has too many fields.")
    if status == HTTPStatus.NOT_FOUND:
        return _("Not found.")
    if status >= HTTPStatus.INTERNAL_SERVER_ERROR:
        return _("A server error occurred.")
    try:
        return HTTPStatus(status).phrase + "."
    except ValueError:
        return _("Error.")


class APIErrorsAsJSONMiddleware:
    """Replace the HTML error pages of ``/api/`` requests by JSON ``{"detail": ...}``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if (
            response.status_code < 400
            or not is_api(request)
            # DRF's own answers follow content negotiation: JSON unless a DEBUG browser asks for
            # the browsable API.
            or isinstance(response, Response)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        exception = getattr(request, "_podium_api_exception", None)
        replacement = JsonResponse(
            {"detail": _detail(response.status_code, exception)}, status=response.status_code
        )
        for header in KEPT_HEADERS:
            if header in response:
                replacement[header] = response[header]
        return replacement

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        """Note the view's exception for the message; Django then logs and answers as usual."""
        if is_api(request):
            request._podium_api_exception = exception  # type: ignore[attr-defined]
