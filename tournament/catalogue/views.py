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


# Documentation only (the views return the catalogue's plain data): the OpenAPI shapes.
class CourseSquareSerializer(serializers.Serializer[Any]):
    terrain = serializers.ChoiceField(
        ["start", "flat", "ascent", "descent", "supply", "cobbles", "breakaway"],
        help_text="FR-7's terrain; start and breakaway squares are named by their role.",
    )
    lanes = serializers.IntegerField(help_text="Lane count of the square (1 to 3).")
    past_line = serializers.BooleanField(help_text="Past the finish line (finish area).")


class CourseProfileSerializer(serializers.Serializer[Any]):
    profile = CourseSquareSerializer(many=True, help_text="One entry per square, in travel order.")
    finish = serializers.ChoiceField(["flat", "ascent"])


class CatalogueCourseSerializer(CourseProfileSerializer):
    id = serializers.IntegerField(help_text="FR-11's course id.")
    name = serializers.CharField()
    course = serializers.CharField(help_text="Tile codes (FR-9).")
    players = serializers.ChoiceField(["2-4", "5-6"])


class CatalogueCircuitSerializer(serializers.Serializer[Any]):
    slug = serializers.CharField()
    name = serializers.CharField()
    spaces = serializers.IntegerField()


class CatalogueLayoutSerializer(serializers.Serializer[Any]):
    name = serializers.CharField()


class CatalogueSerializer(serializers.Serializer[Any]):
    courses = CatalogueCourseSerializer(many=True)
    circuits = CatalogueCircuitSerializer(many=True)
    layouts = CatalogueLayoutSerializer(many=True)
    points = serializers.DictField(
        child=serializers.DictField(child=serializers.ListField(child=serializers.IntegerField())),
        help_text="Points presets by game (formula_d, rally, league), then by preset name.",
    )
    specialists = serializers.ListField(child=serializers.CharField())


class CatalogueView(APIView):
    """Everything a set-up may pick from; public (it lists what ships with the code)."""

    permission_classes = [AllowAny]  # declared: the catalogue is public (API.md)

    @extend_schema(
        summary="The catalogue",
        description="Official Flamme Rouge courses (both player-count variants, with their "
        "square profiles), Formula D circuits, Rallyman sample layouts, points presets and "
        "Specialists.",
        responses={200: CatalogueSerializer},
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
        responses={200: CourseProfileSerializer},
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
