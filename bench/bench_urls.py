"""Podium's URLs plus ``/bench/bare/``: a bare DRF view returning a payload of a given size."""

from __future__ import annotations

import json
import os
from typing import Any

from django.urls import path
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournament.urls import urlpatterns as podium_urlpatterns

# The benchmark writes the standings payload here so the bare view answers the same bytes.
PAYLOAD_FILE = os.environ.get("BENCH_PAYLOAD_FILE", "")
PAYLOAD: Any = json.loads(open(PAYLOAD_FILE).read()) if PAYLOAD_FILE else {}  # noqa: SIM115


class BareView(APIView):
    """No database, no visibility check: DRF's request/response cycle alone."""

    def get(self, request: Request) -> Response:
        return Response(PAYLOAD)


urlpatterns = [path("bench/bare/", BareView.as_view()), *podium_urlpatterns]
