"""The loading step: each kind's rows after event ``after`` → the forecast engine's input.

:func:`load` answers a :class:`Problem`: the simulation's spec and scorer (the competition's own
scoring code), the exact statuses (computed on demand: chunk tasks do not need them), and how the
API names each title's entrants. One loader per kind, as docs/forecasts.md "What the service
calls" lists them; rally championships are not a game kind and have their own.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Count

from scoring import points as points_scoring
from scoring.bounds import MAX_POINTS
from scoring.forecast import (
    GrandTour,
    PointsChampionship,
    PointsSimulation,
    RallyChampionship,
    Scorer,
    SimulationSpec,
    StageTokens,
    TitleStatus,
    dnf_counts,
    finishing_orders,
    fit_plackett_luce,
    from_formula_d,
    grand_tour_scorer,
    grand_tour_spec,
    grand_tour_statuses,
    points_scorer,
    points_spec,
    points_statuses,
    rally_odds,
    rally_orders,
    rally_scorer,
    rally_spec,
    rally_statuses,
    retirements,
    stage_orders,
)
from scoring.grand_tour import GrandTourRules
from scoring.rally import rally_standings
from scoring.rally.championship import parse_championship_settings

RALLY_CHAMPIONSHIP = "rally-championship"
#: The API's name of each kind's main classification in ``positions``.
MAIN = {"yellow": "general", "drivers": "drivers", "overall": "overall"}


class NotForecastable(Exception):
    """The competition is gone, or ``after`` is past its standings (a newer change is due)."""


@dataclass
class Problem:
    """What one forecast needs (see the module's docstring)."""

    kind: str
    competition_id: int
    seed: int
    after: int
    spec: SimulationSpec
    scorer: Scorer
    exact: Callable[[], dict[str, TitleStatus]]
    #: The key naming a title's entrants in the API (``rider``, ``team``, ``driver``); None for
    #: names only (rally championships).
    keys: dict[str, str | None]
    names: dict[str, dict[Hashable, str]]
    #: Entrants' API ids where they differ from the engine's (rally championships: none).
    ids: dict[str, dict[Hashable, Any]] = field(default_factory=dict)

    @cached_property
    def statuses(self) -> dict[str, TitleStatus]:
        return self.exact()


def events_upto(kind: Any, competition: Any, after: int) -> tuple[list[Any], int]:
    """The events 1..``after`` (all resolved) and how many events the competition has."""
    events = list(kind.event_model.objects.filter(competition=competition).order_by("number"))
    through = competition.standings_through or 0
    if after > through:
        raise NotForecastable(f"{kind.label} {competition.pk}: after {after} > {through}")
    return events[:after], len(events)


# --- Formula D championships and leagues ----------------------------------------------------


def remaining_entries(
    kind: Any, competition: Any, after: int
) -> tuple[tuple[int, ...] | None, ...]:
    """The entry list (``drivers``) of each race after ``after``; None: every driver."""
    lists = kind.event_model.objects.filter(competition=competition, number__gt=after)
    return tuple(
        tuple(d) if d else None for d in lists.order_by("number").values_list("drivers", flat=True)
    )


def _points_problem(kind: str, competition: Any, champ: PointsChampionship, after: int) -> Problem:
    units = [e.id for e in champ.entrants]
    strengths = fit_plackett_luce(units, finishing_orders(champ))
    scorer = points_scorer(champ, PointsSimulation(dnf_counts(champ.races)))
    names: dict[str, dict[Hashable, str]] = {"drivers": {e.id: e.name for e in champ.entrants}}
    keys: dict[str, str | None] = {"drivers": "driver"}
    if champ.teams:
        names["teams"] = {t: t for t in champ.teams}
        keys["teams"] = "team"
    return Problem(
        kind,
        competition.pk,
        competition.seed,
        after,
        points_spec(champ, strengths),
        scorer,
        lambda: points_statuses(champ),
        keys,
        names,
    )


def load_championship(kind: Any, competition: Any, after: int) -> Problem:
    from tournament.championships.kind import fd_rules, load_drivers, race_result

    events, total = events_upto(kind, competition, after)
    drivers = [
        points_scoring.Entrant(d.pk, d.name, d.team or None) for d in load_drivers(competition)
    ]
    champ = from_formula_d(
        drivers,
        [race_result(e) for e in events],
        points=competition.points,
        rules=fd_rules(competition),
        total_races=total,
        entries=remaining_entries(kind, competition, after),
    )
    return _points_problem(kind.label, competition, champ, after)


def load_league(kind: Any, competition: Any, after: int) -> Problem:
    events, total = events_upto(kind, competition, after)
    drivers = competition.drivers.order_by("order")
    entrants = tuple(points_scoring.Entrant(d.pk, d.name, d.team or None) for d in drivers)
    races = tuple(
        points_scoring.Race(e.number, points_scoring.parse_finishes(e.results)) for e in events
    )
    scale = points_scoring.Scale(
        tuple(competition.points), competition.points_finishers_only, competition.drop_worst
    )
    champ = PointsChampionship(
        entrants,
        races,
        scale,
        total,
        bonus_max=MAX_POINTS if competition.bonus_points else 0,
        dnf_status="dnf",
        entries=remaining_entries(kind, competition, after),
    )
    return _points_problem(kind.label, competition, champ, after)


# --- Grand Tours ------------------------------------------------------------------------------


def _tokens(stacks: list[dict[str, Any]], rules: GrandTourRules) -> StageTokens:
    def values(side: str) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(rules.major_tokens if s["type"] == "major" else rules.minor_tokens)
            for s in stacks
            if s["side"] == side
        )

    return StageTokens(sprint=values("sprint"), mountain=values("mountain"))


def load_tour(kind: Any, competition: Any, after: int) -> Problem:
    from tournament.forecasts.templates import tour_pools
    from tournament.tours.kind import load_setup
    from tournament.tours.loading import gt_rules, stage_results, stage_rules

    events, _total = events_upto(kind, competition, after)
    setup = load_setup(competition)
    rules = gt_rules(competition.rules)
    remaining = list(
        kind.event_model.objects.filter(competition=competition, number__gt=after).order_by(
            "number"
        )
    )
    played = tuple(stage_results(e.number, e.results) for e in events)
    tour = GrandTour(
        setup,
        played,
        rules,
        tuple(_tokens(list(e.stacks or []), rules) for e in remaining),
        tokens_may_be_lost=rules.dummy_teams != "none",
    )
    pools = tour_pools(
        setup,
        played,
        [(e.course, list(e.stacks or [])) for e in remaining],
        rules.dummy_teams,
        stage_rules(competition.rules),
        [e.course for e in events],
    )
    riders: dict[Hashable, str] = {r.id: r.name for r in setup.riders}
    teams: dict[Hashable, str] = {t.id: t.name for t in setup.teams}
    strengths = fit_plackett_luce(list(riders), stage_orders(tour))
    return Problem(
        kind.label,
        competition.pk,
        competition.seed,
        after,
        grand_tour_spec(tour, strengths),
        grand_tour_scorer(tour, pools),
        lambda: grand_tour_statuses(tour),
        {
            "yellow": "rider",
            "green": "rider",
            "polka_dot": "rider",
            "team": "team",
            "tour_points": "team",
        },
        {
            "yellow": riders,
            "green": riders,
            "polka_dot": riders,
            "team": teams,
            "tour_points": teams,
        },
    )


# --- Rallies ----------------------------------------------------------------------------------


def load_rally(kind: Any, competition: Any, after: int) -> Problem:
    from tournament.rallies.kind import load_drivers
    from tournament.rallies.loading import rally_drivers, rally_rules, stage_sheets

    events, total = events_upto(kind, competition, after)
    rally = rally_odds.SingleRally(
        rally_drivers(load_drivers(competition)),
        tuple(stage_sheets([e.results for e in events])),
        rally_rules(competition.rules),
        total,
    )
    names: dict[Hashable, str] = {d.id: d.name for d in rally.drivers}
    strengths = fit_plackett_luce(list(names), rally_odds.stage_orders(rally))
    return Problem(
        kind.label,
        competition.pk,
        competition.seed,
        after,
        rally_odds.single_rally_spec(rally, strengths),
        rally_odds.single_rally_scorer(rally, rally_odds.stage_templates(rally)),
        lambda: rally_odds.single_rally_statuses(rally),
        {"overall": "driver"},
        {"overall": names},
    )


def championship_rallies(championship: Any) -> list[Any]:
    """The championship's rallies in its order, with their stage counts."""
    from tournament.rallies.models import Rally

    return list(
        Rally.objects.filter(championship_entries__championship=championship)
        .annotate(stage_count=Count("stages", distinct=True))
        .order_by("championship_entries__order")
    )


def counted(rallies: list[Any]) -> list[Any]:
    """The longest run of complete rallies from the first (as the standings count them)."""
    out = []
    for rally in rallies:
        if not rally.stage_count or rally.standings_through != rally.stage_count:
            break
        out.append(rally)
    return out


def load_rally_championship(championship: Any, after: int) -> Problem:
    from tournament.rallies.kind import load_drivers
    from tournament.rallies.loading import rally_drivers, rally_rules, stage_sheets
    from tournament.rallies.models import RallyStage

    rallies = championship_rallies(championship)
    complete = counted(rallies)
    if after > len(complete):
        raise NotForecastable(f"rally championship {championship.pk}: after {after}")
    done = complete[:after]
    settings, _errors = parse_championship_settings(championship.settings_json())
    standings = []
    names: list[str] = []
    entries: list[tuple[str, ...]] = []
    for rally in rallies:
        drivers = rally_drivers(load_drivers(rally))
        names += [d.name for d in drivers]
        if rally not in done:
            entries.append(tuple(d.name for d in drivers))
        if rally in done:
            results = RallyStage.objects.filter(competition=rally).order_by("number")
            sheets = stage_sheets([r.results for r in results])
            standings.append(rally_standings(drivers, sheets, rally_rules(rally.rules)))
    champ = RallyChampionship(
        tuple(standings),
        settings,
        len(rallies),
        drivers=_unique_names(names),
        super_rally=tuple(rally_rules(r.rules).super_rally for r in rallies[after:]) or False,
        entries=tuple(entries),
    )
    from scoring.rally.championship import normalize_name

    display: dict[Hashable, str] = {normalize_name(n): n for n in champ.drivers}
    strengths = fit_plackett_luce(list(range(len(champ.drivers))), rally_orders(champ))
    return Problem(
        RALLY_CHAMPIONSHIP,
        championship.pk,
        championship_seed(championship),
        after,
        rally_spec(champ, strengths),
        rally_scorer(champ, retirements(champ.rallies)),
        lambda: rally_statuses(champ),
        {"drivers": None},
        {"drivers": dict(display)},
    )


def _unique_names(names: list[str]) -> tuple[str, ...]:
    from scoring.rally.championship import normalize_name

    seen: set[str] = set()
    out = []
    for name in names:
        key = normalize_name(name)
        if key not in seen:
            seen.add(key)
            out.append(" ".join(name.split()))
    return tuple(out)


def championship_seed(championship: Any) -> int:
    """A rally championship has no seed of its own: its first rally's (else its id)."""
    from tournament.rallies.models import Rally

    first = (
        Rally.objects.filter(championship_entries__championship=championship)
        .order_by("championship_entries__order")
        .values_list("seed", flat=True)
        .first()
    )
    return int(first if first is not None else championship.pk)


LOADERS: dict[str, Callable[[Any, Any, int], Problem]] = {
    "tour": load_tour,
    "championship": load_championship,
    "league": load_league,
    "rally": load_rally,
}


def competition_of(kind_label: str, competition_id: int) -> Any:
    """The competition (or rally championship) row; NotForecastable when it is gone."""
    from tournament.competitions.kinds import get_kind
    from tournament.rallies.models import RallyChampionship as Championship

    model: Any = (
        Championship if kind_label == RALLY_CHAMPIONSHIP else get_kind(kind_label).competition_model
    )
    found = model.objects.filter(pk=competition_id).first()
    if found is None:
        raise NotForecastable(f"{kind_label} {competition_id} is gone")
    return found


def load(kind_label: str, competition_id: int, after: int) -> Problem:
    competition = competition_of(kind_label, competition_id)
    if kind_label == RALLY_CHAMPIONSHIP:
        return load_rally_championship(competition, after)
    from tournament.competitions.kinds import get_kind

    return LOADERS[kind_label](get_kind(kind_label), competition, after)


def current(kind_label: str, competition: Any) -> tuple[int, int]:
    """``(after, version)`` of the competition's current standings."""
    if kind_label == RALLY_CHAMPIONSHIP:
        rallies = championship_rallies(competition)
        return len(counted(rallies)), sum(r.standings_version for r in rallies) + len(rallies)
    return competition.standings_through or 0, competition.standings_version
