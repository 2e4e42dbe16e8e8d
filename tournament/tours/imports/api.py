"""``POST /api/tours/import-companion/``, ``POST /api/tours/import-csv/``, the CSV template and a
tour's results as that CSV (docs/imports.md).

Access as everywhere (``DeclaredAccess``): the imports are organisers' writes to the club the
body names (401, then 403, then the body's 400s); the template is public; a tour's CSV is read
by whoever may read the tour (a private one is a 404 to others).
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status, viewsets
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from tournament.clubs.models import Club
from tournament.competitions.access import (
    ORGANISE,
    READ,
    DeclaredAccess,
    club_named_in_body,
    get_competition_for_user,
)
from tournament.competitions.api import parse_id
from tournament.competitions.errors import InvalidInput
from tournament.competitions.kinds import get_kind
from tournament.competitions.schema import JSONObjectField
from tournament.competitions.serializers import MAX_SEED
from tournament.fields import BooleanField, CharField, IntegerField, SlugField
from tournament.parsers import BoundedJSONParser
from tournament.tours.imports import companion, csv_format
from tournament.tours.imports.services import Imported, import_tour
from tournament.tours.models import Stage, Tour
from tournament.tours.serializers import TourSerializer
from tournament.tours.setup import MAX_STAGES

CSV_TYPE = "text/csv; charset=utf-8"


class ImportOptionsSerializer(serializers.Serializer[Any]):
    club = SlugField(help_text="The slug of a club you organise.")
    public = BooleanField(required=False, default=True)
    seed = IntegerField(required=False, allow_null=True, min_value=0, max_value=MAX_SEED)


class CompanionImportSerializer(ImportOptionsSerializer):
    document = JSONObjectField(
        help_text="The backup file as the Companion exports it (More, Export Game)."
    )
    name = CharField(
        max_length=160,
        required=False,
        allow_blank=True,
        default="",
        help_text="The tour's name; by default the game's name in the backup.",
    )


class CsvImportSerializer(ImportOptionsSerializer):
    name = CharField(max_length=160)
    csv = CharField(
        max_length=csv_format.MAX_BYTES,
        trim_whitespace=False,
        help_text="The CSV text, one line per rider per stage (GET /api/tours/import-csv/"
        "template.csv). A multipart upload may send it as the file `file` instead.",
    )
    stages = IntegerField(
        required=False,
        allow_null=True,
        min_value=1,
        max_value=MAX_STAGES,
        help_text="How many stages the tour has, when more than the file names.",
    )
    rules = serializers.DictField(
        required=False, default=dict, help_text="Rule parameters, as when creating a tour."
    )


class DifferenceSerializer(serializers.Serializer[Any]):
    """Where the file's own Tour Points differ from Podium's (Podium's are kept)."""

    entry = serializers.ChoiceField(choices=["stage", "rest_day"])
    stage = serializers.IntegerField()
    team = serializers.IntegerField()
    team_name = serializers.CharField()
    player = serializers.CharField()
    file = serializers.IntegerField(help_text="The Tour Points the file gives the team.")
    podium = serializers.IntegerField(help_text="The Tour Points Podium computes, kept.")
    where = serializers.CharField(help_text="The entry of the file, as a path.")


class ImportedTourSerializer(TourSerializer):
    """The tour's detail (as ``GET /api/tours/{id}/``) and the Tour Points differences."""

    differences = DifferenceSerializer(many=True, source="import_differences")

    class Meta(TourSerializer.Meta):
        fields = [*TourSerializer.Meta.fields, "differences"]


class TourImportViewSet(viewsets.ViewSet):
    """The import and CSV endpoints of tours (routed by ``tournament.tours.imports.urls``)."""

    permission_classes = [DeclaredAccess]
    permission_for_action: ClassVar[dict[str, str]] = {
        "import_companion": ORGANISE,
        "import_csv": ORGANISE,
        "csv_template": READ,
        "results_csv": READ,
    }
    parser_classes = [BoundedJSONParser, MultiPartParser]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # The CSV downloads answer text/csv whatever the client accepts (a browser's download).
        return super().perform_content_negotiation(request, force=True)

    def club_for_access(self, request: Request) -> Club | None:
        return club_named_in_body(request)

    def _club(self, slug: str) -> Club:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise InvalidInput({"club": [_("No club with this slug.")]})
        return club

    def _created(self, request: Request, imported: Imported) -> Response:
        kind = get_kind("tour")
        tour = (
            Tour.objects.select_related("club")
            .prefetch_related(*kind.detail_prefetch)
            .get(pk=imported.tour.pk)
        )
        tour.import_differences = imported.differences  # type: ignore[attr-defined]
        body = ImportedTourSerializer(tour, context={"request": request}).data
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Import a Flamme Rouge Grand Tour Companion backup",
        description="Organisers of the club. Creates a tour from the backup (formatVersion 1): "
        "its players, colours, Specialists, stages, Rest Days and scoring rules, and every "
        "stage entered as a submitted result, resolved as usual. Answers the tour's detail "
        "with `differences`: where the backup's own Tour Points differ from Podium's, which "
        "are kept. A backup it cannot read is a 400 naming the bad field's path under "
        "`document`; nothing is stored.",
        request={"application/json": CompanionImportSerializer},
        responses={201: ImportedTourSerializer},
    )
    def import_companion(self, request: Request) -> Response:
        body = CompanionImportSerializer(data=request.data)
        if not body.is_valid():
            raise InvalidInput(body.errors)
        data = body.validated_data
        club = self._club(data["club"])
        plan = companion.read_companion(data["document"], name=data["name"].strip())
        imported = import_tour(
            plan=plan, club=club, by=request.user, public=data["public"], seed=data.get("seed")
        )
        return self._created(request, imported)

    @extend_schema(
        summary="Import a tour from a CSV file",
        description="Organisers of the club. One line per rider per stage, in the columns of "
        "the template (GET /api/tours/import-csv/template.csv); a JSON body with the text in "
        "`csv`, or a multipart upload with the file in `file`. Every stage with lines is "
        "entered as a submitted result. A file it cannot read is a 400 naming the line and "
        "column under `csv`; nothing is stored.",
        request={"application/json": CsvImportSerializer},
        responses={201: ImportedTourSerializer},
    )
    def import_csv(self, request: Request) -> Response:
        body = CsvImportSerializer(data=_csv_body(request))
        if not body.is_valid():
            raise InvalidInput(body.errors)
        data = body.validated_data
        club = self._club(data["club"])
        plan = csv_format.read_csv(
            data["csv"], name=data["name"], stage_count=data.get("stages"), rules=data["rules"]
        )
        imported = import_tour(
            plan=plan, club=club, by=request.user, public=data["public"], seed=data.get("seed")
        )
        return self._created(request, imported)

    @extend_schema(
        summary="The CSV template of tour imports",
        description="A sample tour in the import's columns: two teams, stage 1 ridden, a Rest "
        "Day, stage 2 still to ride. Fill it in a spreadsheet and import it.",
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV")},
    )
    def csv_template(self, request: Request) -> HttpResponse:
        return _csv_response(csv_format.write_csv(csv_format.template_lines()), "tour-template")

    @extend_schema(
        summary="A tour's results as the import's CSV",
        description="Every current result, stage by stage in finishing order, in the columns "
        "of the CSV import: importing the file gives the same standings.",
        responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV")},
    )
    def results_csv(self, request: Request, id: Any = None) -> HttpResponse:
        tour = get_competition_for_user(
            Tour.objects.prefetch_related("teams__riders"), parse_id(id), request.user
        )
        stages = Stage.objects.filter(competition=tour).order_by("number")
        lines = csv_format.tour_lines(tour.teams.order_by("order"), stages)
        return _csv_response(csv_format.write_csv(lines), f"{tour.name}-results")


def _csv_response(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text.encode(), content_type=CSV_TYPE)
    response["Content-Disposition"] = f'attachment; filename="{slugify(filename) or "tour"}.csv"'
    return response


def _csv_body(request: Request) -> Any:
    """The CSV import's fields from a JSON body, or from a multipart form (the file ``file``)."""
    data: Any = request.data
    if not hasattr(data, "getlist"):
        return data  # JSON
    body: dict[str, Any] = {
        key: data.get(key) for key in ("club", "name", "csv", "stages", "seed") if data.get(key)
    }
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > csv_format.MAX_BYTES:
            raise InvalidInput(
                {
                    "file": [
                        _("The file is larger than %(n)s KB.") % {"n": csv_format.MAX_BYTES // 1024}
                    ]
                }
            )
        body["csv"] = csv_format.decode(upload.read())
    public = data.get("public")
    if public is not None:
        body["public"] = str(public).casefold() in ("true", "on", "1", "yes")
    rules = data.get("rules")
    if rules:
        try:
            body["rules"] = json.loads(rules)
        except ValueError:
            raise InvalidInput({"rules": [_("Expected a JSON object.")]}) from None
    return body
