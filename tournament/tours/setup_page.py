"""The Grand Tour's set-up pages: New (``/clubs/<slug>/tours/new/``) and Edit
(``/tours/<id>/edit/``), one guided form (issue #15, items 2 and 4).

The form builds the body of ``POST /api/tours/`` (or ``PATCH /api/tours/<id>/``) and the shared
base (:mod:`tournament.web.setup`) runs it through the tour's own serializers and services; the
page adds only what a person needs to fill it in quickly: courses picked from the catalogue and
drawn, stacks placed on the drawing, Rest Days between stages, riders named after their player
when left blank, team names suggested from the game's colours.

Input names (stable; the end-to-end walkthrough and the script use them):
``name``, ``public`` (``true``/``false``), ``seed``; per stage i (0-based):
``stages-i-name``, ``stages-i-pick`` (a catalogue key ``<id>-<players>``, ``custom`` or
``none``), ``stages-i-course`` (tile codes, for ``custom``), ``stages-i-rest_after`` (a Rest Day
after this stage), ``stages-i-stacks-j-{type,side,square,id}``; per team i:
``teams-i-name``, ``teams-i-player``, ``teams-i-riders-0-{name,specialist}`` (the Rouleur),
``teams-i-riders-1-{name,specialist}`` (the Sprinteur); the rules ``rules-<param>``.
Buttons ``action``: ``add:stages``, ``add:teams``, ``add:stages-i-stacks``,
``remove:stages-i``, ``remove:teams-i``, ``remove:stages-i-stacks-j``, ``preset:<slug>``.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.flamme_rouge.track import CourseError
from tournament.catalogue.data import describe
from tournament.tours.setup import MAX_STAGES, SPECIALIST_BASE
from tournament.tours.setup_page_courses import (
    CUSTOM,
    catalogue_json,
    course_choices,
    course_key,
    courses,
    finish_words,
    profile_svg,
    script_words,
)
from tournament.tours.setup_rules import TOUR_RULES
from tournament.web.setup import dates, flow
from tournament.web.setup.boxes import (
    Box,
    ErrorMap,
    Values,
    box,
    flatten,
    indices,
    renumber,
    whole_or_text,
)
from tournament.web.setup.dates import EventDates, local_date
from tournament.web.setup.rows_page import numbered, optional_parts
from tournament.web.setup.views import SetupPage

ROLES = ("rouleur", "sprinteur")
# The riders' colours of Flamme Rouge and its Peloton expansion, in the order the page suggests
# them as team names; the CSS colour draws the swatch.
COLOURS = (
    (gettext_lazy("Red"), "#d0312d"),
    (gettext_lazy("Blue"), "#2a62c9"),
    (gettext_lazy("Green"), "#2e9d48"),
    (gettext_lazy("Black"), "#222222"),
    (gettext_lazy("White"), "#ffffff"),
    (gettext_lazy("Pink"), "#e872b5"),
)
ENGLISH_COLOURS = {"red": 0, "blue": 1, "green": 2, "black": 3, "white": 4, "pink": 5}
NEW_STAGE_ROWS = 3
NEW_TEAM_ROWS = 3


def specialist_choices(role: str) -> list[tuple[str, str]]:
    named = [
        (n, n.replace("_", " ").title()) for n, base in SPECIALIST_BASE.items() if base == role
    ]
    return [("", _("none")), *sorted(named, key=lambda c: c[1])]


def colour_of(name: str) -> str:
    """The swatch colour of a team named after a colour (in English or the page's language)."""
    folded = name.strip().casefold()
    index = ENGLISH_COLOURS.get(folded)
    if index is None:
        index = next(
            (i for i, (word, _c) in enumerate(COLOURS) if str(word).casefold() == folded), -1
        )
    return COLOURS[index][1] if index >= 0 else ""


def date_box(values: Values, errors: ErrorMap, p: str) -> Box:
    """Stage ``p``'s optional date (``stages-0-date``)."""
    return dates.date_box(
        values,
        errors,
        f"{p}-date",
        help=_("When the stage is played, for the club's calendar; it may change at any time."),
    )


# --- the page ---------------------------------------------------------------------------------


def _blank_stage(values: Values, p: str) -> bool:
    return not any(values.get(f"{p}-{k}", "").strip() for k in ("name", "pick", "course", "date"))


def _blank_team(values: Values, p: str) -> bool:
    keys = ("name", "player", "riders-0-name", "riders-1-name")
    return not any(values.get(f"{p}-{k}", "").strip() for k in keys)


def _with_rows(values: Values) -> Values:
    """At least one stage row and two team rows to fill in (a refused post may have none)."""
    padded = dict(values)
    if not indices(padded, "stages"):
        padded["stages-0-pick"] = ""
    teams = indices(padded, "teams")
    for i in range(len(teams), 2):
        padded[f"teams-{max([*teams, i - 1]) + 1}-name"] = ""
        teams = indices(padded, "teams")
    return padded


def suggested_names(values: Values) -> list[str]:
    """Per team row (in order), the colour its name falls back to: the first one no other team
    is named after."""
    rows = indices(values, "teams")
    typed = {values.get(f"teams-{i}-name", "").strip().casefold() for i in rows}
    free = [str(word) for word, _c in COLOURS if str(word).casefold() not in typed]
    out: list[str] = []
    for i in rows:
        own = values.get(f"teams-{i}-name", "").strip()
        out.append(own or (free.pop(0) if free else _("Team %(n)s") % {"n": len(out) + 1}))
    return out


class TourSetupPage(EventDates, SetupPage):
    kind_label = "tour"
    template = "web/setup/tour.html"
    rules = TOUR_RULES
    error_aliases = {"rest_days_after": "stages"}
    event_prefix = "stages"
    detail_route = "tours:tour"
    created_text = gettext_lazy(
        "%(name)s is set up: the stages are ready for results or simulation."
    )
    new_title = gettext_lazy("New Grand Tour")
    create_label = gettext_lazy("Create the tour")

    # --- values --------------------------------------------------------------------------------

    def initial(self, club: Any) -> Values:
        values: Values = {"name": "", "public": "true", "seed": ""}
        for i in range(NEW_STAGE_ROWS):
            values[f"stages-{i}-pick"] = ""
        for i in range(NEW_TEAM_ROWS):
            values[f"teams-{i}-name"] = ""
        return values | TOUR_RULES.values()

    def current(self, competition: Any) -> Values:
        setup = self.kind.setup_payload(competition)
        values: Values = {
            "name": competition.name,
            "public": "true" if competition.public else "false",
            "seed": str(competition.seed),
        }
        rest = set(setup["rest_days_after"])
        for i, stage in enumerate(setup["stages"]):
            key = course_key(stage["course"])
            values |= {
                f"stages-{i}-name": stage["name"],
                f"stages-{i}-pick": key,
                f"stages-{i}-course": stage["course"] if key == CUSTOM else "",
                f"stages-{i}-rest_after": "on" if i + 1 in rest else "",
                f"stages-{i}-date": local_date(stage.get("date")),
            }
            values |= flatten(stage["stacks"], f"stages-{i}-stacks")
        values |= flatten(setup["teams"], "teams")
        return values | TOUR_RULES.values(competition.rules)

    def normalise(self, values: Values) -> Values:
        stages = [i for i in indices(values, "stages") if not _blank_stage(values, f"stages-{i}")]
        values = renumber(values, "stages", stages)
        for i in range(len(stages)):
            prefix = f"stages-{i}-stacks"
            kept = [
                j for j in indices(values, prefix) if values.get(f"{prefix}-{j}-square", "").strip()
            ]
            values = renumber(values, prefix, kept)
        teams = [i for i in indices(values, "teams") if not _blank_team(values, f"teams-{i}")]
        return renumber(values, "teams", teams)

    def act(self, values: Values, action: str) -> Values:
        verb, _sep, target = action.partition(":")
        if verb == "add" and (target in ("stages", "teams") or target.endswith("-stacks")):
            new_row = max(indices(values, target), default=-1) + 1
            first = {"stages": "pick", "teams": "name"}.get(target, "square")
            return values | {f"{target}-{new_row}-{first}": ""}
        if verb == "remove":
            prefix, _sep, row = target.rpartition("-")
            if row.isdigit() and prefix:
                kept = [i for i in indices(values, prefix) if i != int(row)]
                return renumber(values, prefix, kept)
        return super().act(values, action)

    # --- the request ---------------------------------------------------------------------------

    def payload(
        self, values: Values, *, club: Any = None, competition: Any = None, locked: bool = False
    ) -> dict[str, Any]:
        body: dict[str, Any] = {
            "name": values.get("name", "").strip(),
            "public": values.get("public", "true") != "false",
        }
        if club is not None:
            body["club"] = club.slug
            seed = whole_or_text(values.get("seed"))
            if seed is not None:
                body["seed"] = seed
        if locked:
            return body
        stage_rows = indices(values, "stages")
        body["stages"] = [self._stage(values, f"stages-{i}") for i in stage_rows]
        body["rest_days_after"] = [
            n for n, i in enumerate(stage_rows, start=1) if values.get(f"stages-{i}-rest_after")
        ]
        names = suggested_names(values)
        body["teams"] = [
            self._team(values, f"teams-{i}", names[k])
            for k, i in enumerate(indices(values, "teams"))
        ]
        base = competition.rules if competition is not None else None
        body["rules"] = TOUR_RULES.payload(values, base)
        return body

    @staticmethod
    def _stage(values: Values, p: str) -> dict[str, Any]:
        pick = values.get(f"{p}-pick", "")
        entry = courses().get(pick)
        if entry is not None:
            course = entry["course"]
        elif pick == CUSTOM:
            course = values.get(f"{p}-course", "").strip()
        else:
            course = ""
        name = values.get(f"{p}-name", "").strip() or (entry["name"] if entry else "")
        stacks = []
        for j in indices(values, f"{p}-stacks"):
            s = f"{p}-stacks-{j}"
            stacks.append(
                {
                    "id": values.get(f"{s}-id", "").strip() or f"s{j + 1}",
                    "type": values.get(f"{s}-type", "major"),
                    "side": values.get(f"{s}-side", "sprint"),
                    "square": whole_or_text(values.get(f"{s}-square")),
                }
            )
        stage: dict[str, Any] = {"name": name, "course": course, "stacks": stacks}
        return stage | optional_parts(values, p, "date")

    @staticmethod
    def _team(values: Values, p: str, name: str) -> dict[str, Any]:
        player = values.get(f"{p}-player", "").strip()
        riders = []
        for index, role in enumerate(ROLES):
            r = f"{p}-riders-{index}"
            typed = values.get(f"{r}-name", "").strip()
            riders.append(
                {
                    # Left blank: the player's (or team's) name and R or S, as the demo names them.
                    "name": typed or f"{player or name} {role[0].upper()}",
                    "role": role,
                    "specialist": values.get(f"{r}-specialist", ""),
                }
            )
        return {"name": name, "player": player, "riders": riders}

    # --- the boxes -----------------------------------------------------------------------------

    def context(
        self, values: Values, errors: ErrorMap, *, club: Any, competition: Any, lock: flow.Lock
    ) -> dict[str, Any]:
        top = {
            "name": box(values, errors, "name", _("Name of the tour"), required=True),
            "public": box(
                values,
                errors,
                "public",
                _("Who can see it"),
                kind="select",
                choices=[
                    ("true", _("Public")),
                    ("false", _("Private (club members only)")),
                ],
            ),
            "seed": box(
                values,
                errors,
                "seed",
                _("Seed"),
                kind="number",
                help=_(
                    "Every random draw (start order, Specialist pick order, simulated stages) "
                    "comes from it (GT-1.4). Leave empty for a random one; it is shown on the "
                    "tour page."
                ),
            ),
        }
        if competition is not None:
            top["seed"].kind = "readonly"
            top["seed"].help = _(
                "Every random draw comes from it (GT-1.4); it stays as the tour was created."
            )
        context: dict[str, Any] = {
            "top": top,
            "locked": lock.locked,
            "course_json": catalogue_json(),
            "words_json": script_words(),
            "preview_url": reverse("api-course-preview"),
            "max_stages": MAX_STAGES,
            "lock_more": [_("simulate or enter the stages that have no results yet.")],
        }
        if lock.locked:
            context["summary"] = self._summary(competition)
            for i, stage in enumerate(context["summary"]["stages"]):
                stage["date"] = date_box(values, errors, f"stages-{i}")
            return context
        values = _with_rows(values)
        stages = [self._stage_row(values, errors, i) for i in indices(values, "stages")]
        names = suggested_names(values)
        teams = [
            self._team_row(values, errors, i, names[k])
            for k, i in enumerate(indices(values, "teams"))
        ]
        context |= {
            "stages": stages,
            "stage_errors": errors.take_under("stages"),
            "teams": teams,
            "team_errors": errors.take_under("teams"),
            "team_count": len(teams),
            "rule_groups": TOUR_RULES.sections(values, errors),
            "rule_errors": errors.take_under("rules"),
            "stage_template": self._stage_row({}, ErrorMap(), "__i__"),
            "team_template": self._team_row({}, ErrorMap(), "__i__", ""),
            "colours": [str(word) for word, _c in COLOURS],
        }
        return context

    def _stage_row(self, values: Values, errors: ErrorMap, i: Any) -> dict[str, Any]:
        p = f"stages-{i}"
        pick_value = values.get(f"{p}-pick", "")
        custom = pick_value == CUSTOM
        entry = courses().get(pick_value)
        name = box(
            values,
            errors,
            f"{p}-name",
            _("Stage name"),
            placeholder=entry["name"] if entry else "",
            help=_("Optional: the course's name is used when left empty."),
        )
        pick = box(
            values, errors, f"{p}-pick", _("Course"), kind="select", choices=course_choices()
        )
        course = box(
            values,
            errors,
            f"{p}-course",
            _("Tile codes"),
            help=_(
                "One letter per tile in travel order (FR-9): a–u side 1, A–U side 2, "
                "1–9 and ^1–^9 Peloton tiles; e.g. abcfimetKGLHJsdopRQNU."
            ),
        )
        # The course's own errors (a bad tile, a start area too small) on the box that holds it.
        if not custom:
            pick.errors += course.errors
            course.errors = []
        stacks = [
            self._stack_row(values, errors, f"{p}-stacks", j)
            for j in indices(values, f"{p}-stacks")
        ]
        next_stack = max([s["index"] for s in stacks], default=-1) + 1
        stacks.append(self._stack_row(values, errors, f"{p}-stacks", next_stack))
        profile, finish = self._profile(entry, values.get(f"{p}-course", "") if custom else "")
        stack_values = [
            {
                "square": whole_or_text(s["square"].value),
                "type": s["type"].value,
                "side": s["side"].value,
            }
            for s in stacks
        ]
        rest = box(values, errors, f"{p}-rest_after", _("Rest Day after this stage"), kind="check")
        date = date_box(values, errors, p)
        row = {
            **numbered(i),
            "prefix": p,
            "name": name,
            "pick": pick,
            "course": course,
            "custom": custom,
            "stacks": stacks,
            "stack_template": self._stack_row({}, ErrorMap(), f"{p}-stacks", "__j__"),
            "profile_svg": profile_svg(profile, stack_values) if profile else "",
            "length": len(profile),
            "finish": finish_words().get(finish, ""),
            "rest": rest,
            "date": date,
        }
        row["errors"] = errors.take_under(p)
        return row

    @staticmethod
    def _profile(entry: dict[str, Any] | None, custom: str) -> tuple[list[dict[str, Any]], str]:
        if entry is not None:
            return entry["profile"], entry["finish"]
        if custom.strip():
            try:
                described = describe(custom.strip())
            except CourseError:
                return [], ""  # the API's message comes with the submit
            return described["profile"], described["finish"]
        return [], ""

    @staticmethod
    def _stack_row(values: Values, errors: ErrorMap, prefix: str, j: Any) -> dict[str, Any]:
        s = f"{prefix}-{j}"
        kinds = [("major", _("Major")), ("minor", _("Minor"))]
        sides = [("sprint", _("Sprint (green)")), ("mountain", _("Mountain (polka dot)"))]
        row = {
            "index": j,
            "prefix": s,
            "type": box(values, errors, f"{s}-type", _("Stack"), kind="select", choices=kinds),
            "side": box(values, errors, f"{s}-side", _("Side"), kind="select", choices=sides),
            "square": box(values, errors, f"{s}-square", _("Square"), kind="number"),
            "id": box(values, errors, f"{s}-id", "id", kind="hidden"),
        }
        row["errors"] = errors.take_under(s)
        return row

    @staticmethod
    def _team_row(values: Values, errors: ErrorMap, i: Any, suggested: str) -> dict[str, Any]:
        p = f"teams-{i}"
        typed = values.get(f"{p}-name", "").strip()
        riders = []
        for index, role in enumerate(ROLES):
            r = f"{p}-riders-{index}"
            riders.append(
                {
                    "title": _("Rouleur") if role == "rouleur" else _("Sprinteur"),
                    "name": box(
                        values,
                        errors,
                        f"{r}-name",
                        _("Rider's name"),
                        help=_("Left empty: the player's name and %(letter)s.")
                        % {"letter": role[0].upper()},
                    ),
                    "specialist": box(
                        values,
                        errors,
                        f"{r}-specialist",
                        _("Specialist"),
                        kind="select",
                        choices=specialist_choices(role),
                    ),
                    "errors": errors.take_under(r),
                }
            )
        row = {
            **numbered(i),
            "prefix": p,
            "name": box(
                values,
                errors,
                f"{p}-name",
                _("Team colour or name"),
                placeholder=suggested,
                suggestions="team-colours",
                help=_("Left empty: %(name)s.") % {"name": suggested} if suggested else "",
            ),
            "player": box(values, errors, f"{p}-player", _("Player")),
            "swatch": colour_of(typed or suggested),
            "riders": riders,
        }
        row["errors"] = errors.take_under(p)
        return row

    @staticmethod
    def _summary(competition: Any) -> dict[str, Any]:
        """The locked set-up, read-only: stages with their profiles, teams."""
        stages = []
        for stage in competition.stages.order_by("number"):
            entry = courses().get(course_key(stage.course))
            profile: list[dict[str, Any]] = []
            if stage.course:
                try:
                    profile = describe(stage.course)["profile"]
                except CourseError:
                    profile = []
            stages.append(
                {
                    "stage": stage,
                    "course_name": entry["name"] if entry else "",
                    "svg": profile_svg(profile, list(stage.stacks)),
                }
            )
        teams = competition.teams.order_by("order").prefetch_related("riders")
        return {"stages": stages, "teams": teams}


TOUR_SETUP = TourSetupPage()

__all__ = ["TOUR_SETUP", "Box", "TourSetupPage", "courses", "profile_svg"]
