"""CSV downloads of the page tables (the same :class:`Table` objects the pages render).

Every CSV the service writes goes through :func:`csv_value`, which neutralises spreadsheet
formulas (OWASP "CSV injection"): a text cell that begins with ``=``, ``+``, ``-``, ``@``, a tab
or a carriage return is written with a leading single quote, so that a team named
``=HYPERLINK(...)`` reads as text in Excel, LibreOffice and Google Sheets. Numbers the service
itself computed (ranks, times, gaps, points: ``int`` or ``float`` values) are written as they
are, so that a negative gap stays a number a spreadsheet can add up (docs/web.md, "CSV").
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.http import HttpResponse
from django.utils.text import slugify

from tournament.web.components import GAP, TIME, Table

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_value(value: Any) -> Any:
    """``value`` as one safe CSV cell: numbers unchanged, text neutralised, None empty."""
    if value is None:
        return ""
    if isinstance(value, int | float | Decimal):  # bool is an int: True/False stay as written
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_response(
    header: Iterable[Any], rows: Iterable[Iterable[Any]], *, filename: str
) -> HttpResponse:
    """An ``attachment`` CSV response of ``header`` and ``rows``, every cell through csv_value."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(filename)}.csv"'
    writer = csv.writer(response)
    writer.writerow([csv_value(cell) for cell in header])
    writer.writerows([csv_value(cell) for cell in row] for row in rows)
    return response


def table_csv(table: Table, *, filename: str) -> HttpResponse:
    """One classification as CSV: a header of column labels, then raw values.

    Times and gaps stay whole seconds (as in the API) so that spreadsheets can add them up; the
    header says so.
    """
    header = [
        f"{col.label} (s)" if col.kind in (TIME, GAP) else str(col.label) for col in table.columns
    ]
    return csv_response(header, table.raw_rows(), filename=filename)
