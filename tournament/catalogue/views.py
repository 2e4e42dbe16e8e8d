"""``GET /api/catalogue/`` and ``POST /api/catalogue/courses/preview/`` (API.md "Catalogue")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.flamme_rouge.track import CourseError
from tournament.catalogue.data import MAX_COURSE_LENGTH, catalogue, describe
from tournament.competitions.errors import InvalidInput
from tournament.competitions.messages import param_message


class CoursePreviewRequestSerializer(serializers.Serializer[Any]):
    course = serializers.CharField(
        max_length=MAX_COURSE_LENGTH,
        trim_whitespace=True,
        help_text="Tile codes in travel order (FR-9), e.g. `abcdefghijklmnopqrstu`.",
    )


class CatalogueView(APIView):
    """Everything a set-up may pick from; public (it lists what ships with the code)."""

    permission_classes = [AllowAny]  # declared: the catalogue is public (API.md)

    @extend_schema(
        summary="The catalogue",
        description="Official Flamme Rouge courses (both player-count variants, with their "
        "square profiles), Formula D circuits, Rallyman sample layouts, points presets and "
        "Specialists.",
        responses={200: dict},
    )
    def get(self, request: Request) -> Response:
        return Response(catalogue())


class CoursePreviewView(APIView):
    """The profile of any course string, or a 400 naming the bad tile."""

    permission_classes = [AllowAny]  # declared: a preview reads nothing stored

    @extend_schema(
        summary="Preview a course",
        description="The square profile and finish of a course given as tile codes; a 400 "
        "names the first bad tile.",
        request=CoursePreviewRequestSerializer,
        responses={200: dict},
    )
    def post(self, request: Request) -> Response:
        body = CoursePreviewRequestSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        text = body.validated_data["course"]
        try:
            return Response(describe(text))
        except CourseError as exc:
            raise InvalidInput({"course": [param_message(exc)]}) from None
