"""End-of-tour awards of a finished tour (docs/tour-awards.md): loading and words.

The awards themselves are computed by the pure :mod:`scoring.grand_tour.awards`; this module
loads the tour's results into it and names each award in the reader's language.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.clock import clock
from scoring.grand_tour import compute_standings
from scoring.grand_tour.awards import Award, tour_awards
from tournament.tours.loading import gt_rules, stage_results, tour_setup
from tournament.tours.models import Stage, Tour

TITLES = {
    "most_stage_wins": gettext_lazy("Stage hunter"),
    "most_second_places": gettext_lazy("Always the bridesmaid"),
    "most_podiums": gettext_lazy("Podium regular"),
    "biggest_stage_loss": gettext_lazy("Bad day at the office"),
    "closest_teammates": gettext_lazy("Inseparable"),
    "longest_run_without_podium": gettext_lazy("Patience of a saint"),
    "biggest_climber": gettext_lazy("Comeback of the Tour"),
    "lanterne_rouge": gettext_lazy("Lanterne rouge"),
}


def _count(singular: str, plural: str) -> Callable[[Award, dict[str, Any]], str]:
    def text(award: Award, names: dict[str, Any]) -> str:
        return ngettext(singular, plural, award.figure) % names

    return text


SENTENCES: dict[str, Callable[[Award, dict[str, Any]], str]] = {
    "most_stage_wins": _count(
        "%(rider)s won %(figure)d stage.", "%(rider)s won %(figure)d stages."
    ),
    "most_second_places": _count(
        "%(rider)s finished second %(figure)d time.", "%(rider)s finished second %(figure)d times."
    ),
    "most_podiums": _count(
        "%(rider)s was on the podium of %(figure)d stage.",
        "%(rider)s was on the podium of %(figure)d stages.",
    ),
    "biggest_stage_loss": lambda a, n: (
        _("%(rider)s lost %(time)s to the fastest rider on stage %(stage)d.") % n
    ),
    "closest_teammates": lambda a, n: (
        _("The riders of %(team)s finished the General %(time)s apart.") % n
    ),
    "longest_run_without_podium": _count(
        "%(rider)s went %(figure)d stage in a row without a podium.",
        "%(rider)s went %(figure)d stages in a row without a podium.",
    ),
    "biggest_climber": _count(
        "%(rider)s gained %(figure)d place in the General after stage 1.",
        "%(rider)s gained %(figure)d places in the General after stage 1.",
    ),
    "lanterne_rouge": lambda a, n: (
        _("%(rider)s finished last in the General, %(time)s behind the leader.") % n
    ),
}

#: Awards whose figure is a time in seconds (the others count stages or places).
TIMED = frozenset({"biggest_stage_loss", "closest_teammates", "lanterne_rouge"})


@dataclass(frozen=True)
class ShownAward:
    """An award as the page and the API show it."""

    award: str
    title: str
    text: str
    figure: int
    rider: int | None
    team: int | None
    stage: int | None


#: compute()'s answers by what they are computed from (:func:`_inputs`): a finished tour's
#: page is read far more often than its results change, and the awards recompute every
#: classification of every stage (4 ms of the 21-stage page's 20, issue #16). Per process,
#: bounded; a correction, a new version or a changed set-up is a new key.
_COMPUTED: dict[Any, tuple[Award, ...]] = {}
_COMPUTED_MAX = 256
_COMPUTED_LOCK = threading.Lock()


def _inputs(tour: Tour, stages: list[Stage]) -> Any:
    """Everything the awards depend on, from the prefetched rows (no query)."""
    return (
        tour.pk,
        tour.standings_version,
        json.dumps(tour.rules, sort_keys=True, default=str),
        tuple((s.pk, s.number, s.version, s.resolved_at, s.rest_day_after) for s in stages),
        tuple((t.pk, tuple((r.pk, r.role) for r in t.riders.all())) for t in tour.teams.all()),
    )


def compute(tour: Tour) -> tuple[Award, ...]:
    """The awards of ``tour`` (with its stages and teams prefetched); ``()`` until it is over.

    One query (the stages' results) once every stage is resolved, none before, and none when
    this process has computed them from the same results already.
    """
    stages = list(tour.stages.all())
    if not stages or tour.standings_through != len(stages):
        return ()
    key = _inputs(tour, stages)
    found = _COMPUTED.get(key)
    if found is not None:
        return found
    rows = (
        Stage.objects.filter(competition=tour).order_by("number").values_list("number", "results")
    )
    results = [stage_results(number, data) for number, data in rows]
    rest = [s.number for s in stages if s.rest_day_after]
    setup = tour_setup(tour, tour.teams.all(), len(stages), rest)
    standings = compute_standings(setup, results, gt_rules(tour.rules))
    awards = tour_awards(setup, results, standings)
    with _COMPUTED_LOCK:
        if len(_COMPUTED) >= _COMPUTED_MAX:
            _COMPUTED.pop(next(iter(_COMPUTED)))  # the oldest
        _COMPUTED[key] = awards
    return awards


def shown(tour: Tour) -> list[ShownAward]:
    """The awards of ``tour`` with their title and sentence in the active language."""
    teams = {t.id: t for t in tour.teams.all()}
    riders = {r.id: r for t in teams.values() for r in t.riders.all()}
    out = []
    for award in compute(tour):
        names = {
            "rider": riders[award.rider].name if award.rider in riders else "",
            "team": teams[award.team].name if award.team in teams else "",
            "figure": award.figure,
            "stage": award.stage or 0,
            "time": clock(award.figure) if award.key in TIMED else "",
        }
        out.append(
            ShownAward(
                award=award.key,
                title=str(TITLES[award.key]),
                text=SENTENCES[award.key](award, names),
                figure=award.figure,
                rider=award.rider,
                team=award.team,
                stage=award.stage,
            )
        )
    return out
