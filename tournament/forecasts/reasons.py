"""The engine's reasons (a code and its figures, ``scoring.forecast.model.Reason``) as sentences
in the reader's language."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def _left(count: int, noun: str) -> str:
    if noun == "race":
        return ngettext("%(count)s race left", "%(count)s races left", count) % {"count": count}
    if noun == "rally":
        return ngettext("%(count)s rally left", "%(count)s rallies left", count) % {"count": count}
    return ngettext("%(count)s stage left", "%(count)s stages left", count) % {"count": count}


def _names(names: Sequence[str]) -> str:
    names = [str(n) for n in names]
    if len(names) <= 1:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}


def _rank(value: Any) -> str:
    match = re.match(r"\d+", str(value))
    return match.group(0) if match else str(value)


def reason_text(reason: Mapping[str, Any] | None) -> str | None:
    """The sentence of a stored reason (``{"code", "params"}``), or None."""
    if not reason:
        return None
    code, p = reason.get("code"), dict(reason.get("params") or {})
    noun = str(p.get("event_noun", "stage"))
    p["left"] = _left(int(p.get("events_left") or 0), noun)
    texts = {
        "cannot_catch": lambda: (
            _(
                "%(entrant)s cannot catch %(rival)s: %(behind)s points behind with %(left)s, "
                "at most %(max_gain)s to win"
            )
            % p
        ),
        "loses_tie_break": lambda: (
            _(
                "%(entrant)s can at best draw level with %(rival)s on %(points)s points with "
                "%(left)s, and would lose the tie-break"
            )
            % p
        ),
        "cannot_beat_all": lambda: (
            _(
                "%(entrant)s cannot finish ahead of %(rivals)s at once: whatever the %(left)s "
                "bring, one of them stays ahead"
            )
            % {**p, "rivals": _names(p.get("rivals") or [])}
        ),
        "clinched": lambda: (
            _(
                "%(entrant)s has clinched the title: %(lead)s points ahead of %(rival)s with "
                "%(left)s, at most %(rival_max_gain)s to lose"
            )
            % p
        ),
        "decided": lambda: (
            _("%(entrant)s finished in place %(rank)s: nothing is left to play")
            % {**p, "rank": _rank(p.get("rank"))}
        ),
        "time_title": lambda: (
            _(
                "Decided by time: open until the last stage (%(left)s), since a stage time has no "
                "upper limit"
            )
            % p
        ),
        "only_entrant": lambda: _("%(entrant)s is the only entrant") % p,
        "unbounded": lambda: _(
            "Bonus points have no upper limit, so nothing is decided before the end"
        ),
        "out_of_rally": lambda: _("%(entrant)s is out of the rally since stage %(stage)s") % p,
        "shared": lambda: _("First place is shared: each holder has an equal share of the title"),
    }
    make = texts.get(str(code))
    try:
        return make() if make else str(code)
    except (KeyError, TypeError, ValueError):
        return str(code)
