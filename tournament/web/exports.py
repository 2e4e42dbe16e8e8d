"""CSV downloads of the page tables (the same :class:`Table` objects the pages render)."""

from __future__ import annotations

import csv

from django.http import HttpResponse
from django.utils.text import slugify

from tournament.web.components import GAP, TIME, Table


def table_csv(table: Table, *, filename: str) -> HttpResponse:
    """One classification as CSV: a header of column labels, then raw values.

    Times and gaps stay whole seconds (as in the API) so that spreadsheets can add them up; the
    header says so.
    """
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slugify(filename)}.csv"'
    writer = csv.writer(response)
    writer.writerow(
        [f"{col.label} (s)" if col.kind in (TIME, GAP) else str(col.label) for col in table.columns]
    )
    writer.writerows(table.raw_rows())
    return response
