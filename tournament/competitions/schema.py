"""The OpenAPI schema: every answer each operation can give, in words written for API users.

drf-spectacular documents the success answer of an operation from its serializers; everything
else an operation answers (400, 401, 403, 404, 409, 415, 429) comes from machinery shared by all
views: the JSON parser, token authentication, :class:`~tournament.competitions.access.
DeclaredAccess`, visibility (404 first), the paginator, idempotency keys and throttles.
:class:`PodiumAutoSchema` (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``) derives those answers
from the same declarations the views run on, so no game or view lists them by hand and a new
game is documented as completely as the others:

- a request body (POST/PATCH): 400 (field errors) and 415 (a body that is not JSON);
- a query parameter (``page``, ``after_stage``…): 400;
- a path parameter: 404 (unknown or not visible to the caller);
- any operation: 401 (a token or session that is not valid);
- a write (an unsafe method): 403 (the caller lacks the role, or a session without CSRF token);
- a paginated list: 404 (a page past the last one);
- the actions in :data:`CONFLICTS`: 409; a throttled view: 429.

Descriptions never come from docstrings (they are written for the code's readers): a view
states its own with ``extend_schema(description=...)``, and the shared competition actions
take theirs from :data:`ACTION_TEXT`, worded with the game's kind.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

from drf_spectacular.drainage import get_override
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, extend_schema_field
from rest_framework import serializers

from tournament.competitions.access import ORGANISE, READ, SIGNED_IN, WRITE_RESULTS

#: Actions of the shared competition viewset that can answer 409, and why (its description).
#: Other views add theirs in a ``schema_conflicts`` attribute of the same shape.
CONFLICTS: Final[dict[str, str]] = {
    "partial_update": "The set-up (everything but `name` and `public`) cannot change once "
    "results are stored.",
    "results": "An earlier event has no results yet (`missing` names it); or `version` is not "
    "the event's current version (`current` holds the event as stored); or the "
    "`Idempotency-Key` was sent before with another body, or is still being processed.",
    "simulate": "The `Idempotency-Key` was sent before with another request, or is still being "
    "processed.",
}

#: What each shared competition action does, for API users. ``{title}``, ``{collection}``,
#: ``{event}``, ``{events}`` and ``{after}`` are the kind's words.
ACTION_TEXT: Final[dict[str, tuple[str, str]]] = {
    "list": (
        "List {collection}",
        "The {collection} you may see: public ones and those of your clubs, newest first, "
        "50 per page.",
    ),
    "create": (
        "Create a {title_lower}",
        "Create a {title_lower} in a club you organise, with its whole set-up. Answers the "
        "{title_lower} as `GET` shows it.",
    ),
    "retrieve": (
        "Get a {title_lower}",
        "The {title_lower}'s set-up and the state of its {events}. A private {title_lower} is a "
        "404 unless you belong to its club.",
    ),
    "partial_update": (
        "Change a {title_lower}",
        "Change `name` and `public` at any time; the set-up only until the first results are "
        "stored (then 409). Send only the keys you change.",
    ),
    "event": (
        "Get a {event}",
        "One {event}: its set-up, status (`planned`, `submitted`, `resolved`, `failed`), the "
        "current results and their version.",
    ),
    "event_date": (
        "Date a {event}",
        "Set (or clear with `null`) when the {event} is played: `date` is an ISO 8601 date-time "
        "with its UTC offset (organisers, at any time: a date is not set-up). Answers the "
        "{event} as `GET` shows it.",
    ),
    "results": (
        "Submit {event} results",
        "Store a new version of the {event}'s results (scorekeepers and organisers). The answer "
        "is 202: the standings are recomputed in the background, and the {event} shows "
        "`submitted` until then. Send the `version` you edited to be told (409) when someone "
        "else stored results meanwhile; an `Idempotency-Key` header makes a retry safe.",
    ),
    "simulate": (
        "Simulate a {event}",
        "Let the game engine play the {event} in the background (scorekeepers and organisers). "
        "The answer is 202 with the {event} as it stands; its results appear when the "
        "simulation ends. An `Idempotency-Key` header makes a retry safe.",
    ),
    "replay": (
        "Replay of a simulated {event}",
        "The engine's move-by-move log of a simulated {event}; 404 when its results were "
        "entered by hand.",
    ),
    "standings": (
        "Standings",
        "The standings after the latest {event} whose results are resolved, or after {event} "
        "`{after}` (1 up to that latest one; other numbers are a 400).",
    ),
    "history": (
        "History",
        "Who changed what and when (organisers): set-up changes, results submitted and "
        "corrected, simulations. Oldest first, 50 per page.",
    ),
    "export": (
        "Export",
        "The set-up, rules and every result version as one versioned JSON document "
        "(organisers); `POST …/import/` recreates the {title_lower} from it.",
    ),
    "import_document": (
        "Import",
        "Recreate a {title_lower} from an exported document in a club you organise. The "
        "document is checked whole; a bad element is a 400 naming its path, and nothing is "
        "stored.",
    ),
}

ERROR_TEXT: Final[dict[int, str]] = {
    400: "The request is invalid: the body maps each field (or query parameter) to its "
    "messages; errors of list items are lists of the items' errors (`{}` for an item "
    "without errors); a body that is not valid JSON has a `detail`.",
    401: "Credentials are needed, or the token or session sent is not valid.",
    403: "You lack the role this needs in the club (or a signed-in session sent no CSRF token).",
    404: "Not found, or not visible to you (a private competition outside your clubs).",
    409: "The request conflicts with the current state.",
    415: "The body is not JSON: send `Content-Type: application/json`.",
    429: "Too many attempts: wait for the number of seconds in the `Retry-After` header.",
}

ERROR_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "description": "An error with one message.",
    "properties": {"detail": {"type": "string", "description": "What went wrong."}},
    "required": ["detail"],
    "example": {"detail": "Not found."},
}
FIELD_ERRORS_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "description": ERROR_TEXT[400],
    "properties": {
        "detail": {"type": "string", "description": "A body that could not be read."},
        "non_field_errors": {
            "type": "array",
            "items": {"type": "string"},
            "description": "Problems of the request as a whole.",
        },
    },
    "additionalProperties": {
        "description": "The messages of one field: a list of strings, or nested errors.",
    },
    "example": {"name": ["This field is required."], "results": [{}, {"rider": ["Unknown."]}]},
}

#: Highest event number in a URL or an ``after_*`` parameter (``api.parse_int``).
MAX_EVENT: Final = 9_999

#: Path parameters that are numbers: their highest value and what they name.
PATH_NUMBERS: Final[dict[str, tuple[int, str]]] = {
    "id": (2**63 - 1, "The id the collection gave the object (its `id`)."),
    "number": (MAX_EVENT, "The event's number, from 1 in the order of the set-up."),
}

UNSAFE_METHODS: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def rejects_unknown(serializer: Any) -> bool:
    """Whether a request serializer answers 400 to a key it does not declare."""
    from tournament.competitions.serializers import (
        CreateRequestSerializer,
        PatchRequestSerializer,
    )

    declared = getattr(serializer, "rejects_unknown_keys", None)
    if declared is not None:
        return bool(declared)
    return isinstance(serializer, CreateRequestSerializer | PatchRequestSerializer)


@extend_schema_field({"type": "object", "additionalProperties": True})
class JSONObjectField(serializers.JSONField):
    """A JSON value documented as an object (the view checks the rest)."""


class PodiumAutoSchema(AutoSchema):
    """drf-spectacular's schema with every error answer and no docstrings (module docstring)."""

    #: Views without a ``permission_for_action`` entry are documented like this access.
    default_access: ClassVar[str] = READ

    # --- words ---------------------------------------------------------------------------------

    def _kind_words(self) -> dict[str, str] | None:
        kind = getattr(self.view, "kind", None)
        if kind is None:
            return None
        title = str(kind.title)
        return {
            "title": title,
            "title_lower": title.lower(),
            "collection": kind.collection.replace("-", " "),
            "events": kind.event_word,
            "event": kind.event_word.removesuffix("s"),
            "after": kind.after_param,
        }

    def _action_text(self) -> tuple[str, str] | None:
        words = self._kind_words()
        action = getattr(self.view, "action", None)
        if words is None or action not in ACTION_TEXT:
            return None
        summary, description = ACTION_TEXT[action]
        return summary.format(**words), description.format(**words)

    def get_description(self) -> str:  # type: ignore[override]
        """Only descriptions written for API users (``extend_schema`` or ACTION_TEXT)."""
        text = self._action_text()
        return text[1] if text else ""

    def get_summary(self) -> str | None:
        text = self._action_text()
        return text[0] if text else None

    def _map_basic_serializer(self, serializer: Any, direction: Any) -> dict[str, Any]:
        """Components describe themselves only through ``extend_schema_serializer``; a request
        body that refuses unknown keys (``serializers.reject_unknown``) says so."""
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        description = get_override(serializer, "description", None)
        if description:
            schema["description"] = description
        else:
            schema.pop("description", None)
        optional = set(getattr(serializer, "schema_optional_fields", ()))
        if optional and "required" in schema:
            schema["required"] = [name for name in schema["required"] if name not in optional]
            if not schema["required"]:
                del schema["required"]
        if direction == "request" and rejects_unknown(serializer):
            schema["additionalProperties"] = False
        return schema

    def _map_serializer_field(
        self, field: Any, direction: Any, bypass_extensions: bool = False
    ) -> dict[str, Any]:
        """Lists document the lengths they enforce (``allow_empty``, ``min/max_length``)."""
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        if isinstance(field, serializers.ListSerializer | serializers.ListField) and isinstance(
            schema, dict
        ):
            low = getattr(field, "min_length", None)
            high = getattr(field, "max_length", None)
            if not getattr(field, "allow_empty", True):
                low = max(low or 0, 1)
            if low:
                schema["minItems"] = max(schema.get("minItems", 0), low)
            if high is not None:
                schema["maxItems"] = min(schema.get("maxItems", high), high)
        return schema

    def _resolve_path_parameters(self, variables: Any) -> list[dict[str, Any]]:
        """Ids and event numbers are whole numbers in the range the views read (``api.parse_id``,
        ``api.parse_int``: anything else is a 404); drf-spectacular only sees the URL regex."""
        parameters: list[dict[str, Any]] = super()._resolve_path_parameters(variables)
        for parameter in parameters:
            if parameter["name"] in PATH_NUMBERS:
                high, text = PATH_NUMBERS[parameter["name"]]
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": high}
                parameter["description"] = text
        return parameters

    # --- answers -------------------------------------------------------------------------------

    def _access(self) -> str | None:
        declared = getattr(self.view, "permission_for_action", None)
        if declared is None:
            return None
        return declared.get(getattr(self.view, "action", None), self.default_access)

    def _has_request_body(self) -> bool:
        return self.method in UNSAFE_METHODS and self.get_request_serializer() is not None

    def _paginated(self) -> bool:
        return self.method == "GET" and self._is_list_view() and self._get_paginator() is not None

    def _query_parameters(self) -> bool:
        if self._paginated():
            return True
        overrides = self._process_override_parameters()
        return any(location == "query" for _name, location in overrides)

    def get_auth(self) -> list[dict[str, Any]]:
        """Credentials are optional where the declared access is READ (anyone who may see it)."""
        auths: list[dict[str, Any]] = super().get_auth()
        if self._access() == READ and {} not in auths:
            auths.append({})
        return auths

    def error_statuses(self) -> dict[int, str]:
        """The error answers this operation can give, each with what it means here."""
        codes: dict[int, str] = {401: ERROR_TEXT[401]}
        if self._has_request_body():
            codes[400] = ERROR_TEXT[400]
            codes[415] = ERROR_TEXT[415]
        if self._query_parameters():
            codes[400] = ERROR_TEXT[400]
        if "{" in self.path or self._paginated():
            codes[404] = ERROR_TEXT[404]
        access = self._access()
        if access in (WRITE_RESULTS, ORGANISE) or (
            self.method in UNSAFE_METHODS and access in (SIGNED_IN, None)
        ):
            codes[403] = ERROR_TEXT[403]
        if self.method in UNSAFE_METHODS and getattr(self.view, "kind", None) is not None:
            # Idempotency keys and the game's own checks (e.g. "cannot be simulated").
            codes[400] = ERROR_TEXT[400]
        conflicts = {**CONFLICTS, **getattr(self.view, "schema_conflicts", {})}
        action = getattr(self.view, "action", None)
        if action in conflicts:
            codes[409] = conflicts[action]
        if self.view.get_throttles():
            codes[429] = ERROR_TEXT[429]
        return codes

    def _error_ref(self, code: int) -> dict[str, Any]:
        name, schema = (
            ("FieldErrors", FIELD_ERRORS_SCHEMA) if code == 400 else ("Error", ERROR_SCHEMA)
        )
        component = ResolvedComponent(
            name=name, type=ResolvedComponent.SCHEMA, schema=dict(schema), object=name
        )
        self.registry.register_on_missing(component)
        return component.ref

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        responses: dict[str, Any] = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        media_types = self.map_renderers("media_type") or ["application/json"]
        for code, text in sorted(self.error_statuses().items()):
            if str(code) in responses:
                continue
            schema = self._error_ref(code)
            responses[str(code)] = {
                "description": text,
                "content": {media: {"schema": schema} for media in media_types},
            }
        return responses


def after_parameter(name: str, event: str) -> OpenApiParameter:
    """The ``after_stage``/``after_race``/``after_rally`` query parameter of a standings view."""
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": 1, "maximum": MAX_EVENT},
        required=False,
        description=f"Show the standings after this {event} (from 1 up to the latest {event} "
        f"with resolved results; other numbers, or an empty value, are a 400). Leave it out "
        f"for the latest standings.",
        examples=[OpenApiExample(f"After {event} 2", value=2)],
    )
