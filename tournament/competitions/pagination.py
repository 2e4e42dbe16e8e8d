"""The API's paginator: ``?page=`` is a positive whole number in ASCII digits, else a 400.

DRF's own read ``page=abc`` as a 404 and ``page=٣`` as page 3, while the schema says "integer":
both are now a 400 with the parameter's message, and the schema documents 1 to ``MAX_PAGE``.
This module imports nothing of ``rest_framework.generics``, which reads the pagination setting
while it is imported.
"""

from __future__ import annotations

from typing import Any, Final

from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from scoring.digits import parse_digits

#: Highest page number the paginator reads (far past any list: 50 per page).
MAX_PAGE: Final = 100_000


class StrictPageNumberPagination(PageNumberPagination):
    """``?page=``: 1 to ``MAX_PAGE`` in ASCII digits (else a 400); past the last page a 404."""

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        try:
            number = parse_digits(str(raw))
        except ValueError:
            number = 0
        if not 1 <= number <= MAX_PAGE:
            message = _("A page number from 1 to %(max)s is required.") % {"max": MAX_PAGE}
            raise ValidationError({self.page_query_param: [message]})
        return number

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        return [
            {
                "name": self.page_query_param,
                "required": False,
                "in": "query",
                "description": "The page to show, from 1 (50 items a page); a page past the "
                "last is a 404.",
                "schema": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE},
            }
        ]
