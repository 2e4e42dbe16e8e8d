"""Template context every page needs: the language switcher and the admin link."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import get_language_info


def podium(request: HttpRequest) -> dict[str, Any]:
    """Languages by their own names (a reader finds "Português" whatever the page's language).

    ``show_admin``: organisers (staff) reach the admin from every page. No query: ``is_staff``
    is on the user row the session already loaded.
    """
    user = getattr(request, "user", None)
    return {
        "podium_languages": [
            (code, get_language_info(code)["name_local"]) for code, _name in settings.LANGUAGES
        ],
        "show_admin": bool(user is not None and user.is_active and user.is_staff),
    }
