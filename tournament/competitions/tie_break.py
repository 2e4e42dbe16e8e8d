"""The standings rows' ``tie_break`` in the reader's language (issue #17, "Why the table is in
this order").

The pure scoring code stores on each row level with the row above a ``tie_break`` object:
``{"code", "rule", "params", "text"}``, ``text`` in English (``scoring/tie_break.py``). Here the
same code and params become the sentence in the active language; API answers and pages call
:func:`localize` (a document) or :func:`localize_text` (the stored JSON text of the hot path).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from scoring.clock import clock
from scoring.tie_break import param_kind

KEY = "tie_break"

#: code -> the sentence (``%(name)s`` are the params); the English msgids are
#: scoring.tie_break.TEMPLATES word for word (a test checks it).
SENTENCES: dict[str, Any] = {
    "gt_time_stage_place": gettext_lazy(
        "Same time; better place on stage %(stage)s: %(place)s against %(other_place)s"
    ),
    "gt_points_stage_place": gettext_lazy(
        "Same points; better place on stage %(stage)s: %(place)s against %(other_place)s"
    ),
    "gt_team_time_stage_place": gettext_lazy(
        "Same time; better-placed rider on stage %(stage)s: %(place)s against %(other_place)s"
    ),
    "gt_tp_stage_place": gettext_lazy(
        "Same Tour Points; better-placed rider on stage %(stage)s: %(place)s against "
        "%(other_place)s"
    ),
    "more_wins": gettext_lazy("Same points; more wins: %(count)s against %(other_count)s"),
    "more_places": gettext_lazy(
        "Same points; more %(place)s places: %(count)s against %(other_count)s"
    ),
    "recent_race_place": gettext_lazy(
        "Same points and countback; better place in race %(race)s: %(place)s against "
        "%(other_place)s"
    ),
    "recent_race_places": gettext_lazy(
        "Same points and countback; better-placed cars in race %(race)s: %(places)s against "
        "%(other_places)s"
    ),
    "entry_order": gettext_lazy(
        "Same points, countback and places in every race; earlier in the driver list"
    ),
    "team_name": gettext_lazy("Same points, countback and places in every race; team name order"),
    "shared_points": gettext_lazy("Same points and countback: they share %(rank)s"),
    "rally_stage_time": gettext_lazy(
        "Same rally time; better time on stage %(stage)s: %(time)s against %(other_time)s"
    ),
    "shared_rally_time": gettext_lazy(
        "Same rally time and the same time on every stage: they share %(rank)s"
    ),
    "shared_stage_time": gettext_lazy("Same stage time: they share %(rank)s"),
}


def ordinal(place: int | None) -> str:
    """A place in the active language: 2nd, 2.º (pt, es), 2e (fr); "not entered" for None."""
    if place is None:
        return _("not entered")
    language = (get_language() or "en").split("-")[0]
    if language in ("pt", "es"):
        return f"{place}.º"
    if language == "fr":
        return "1er" if place == 1 else f"{place}e"
    if 10 <= place % 100 <= 20:
        return f"{place}th"
    return f"{place}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th') }"


def _shown(name: str, value: Any) -> str:
    kind = param_kind(name)
    if kind == "places":
        return ", ".join(ordinal(v) for v in value)
    if kind == "place":
        return ordinal(value)
    if kind == "time":
        return clock(value)
    return str(value)


def tie_break_text(data: Mapping[str, Any]) -> str:
    """The sentence of a stored ``tie_break`` with its rule, in the active language; the
    stored English text for a code this version does not know."""
    sentence = SENTENCES.get(str(data.get("code")))
    if sentence is None:
        return str(data.get("text", ""))
    params = {name: _shown(name, value) for name, value in (data.get("params") or {}).items()}
    return f"{sentence % params} ({data.get('rule', '')})"


def localize(document: Any) -> Any:
    """``document`` with every row's ``tie_break.text`` in the active language (in place)."""
    if isinstance(document, dict):
        found = document.get(KEY)
        if isinstance(found, dict) and "code" in found:
            found["text"] = tie_break_text(found)
        for key, value in document.items():
            if key != KEY and isinstance(value, (dict, list)):
                localize(value)
    elif isinstance(document, list):
        for item in document:
            if isinstance(item, (dict, list)):
                localize(item)
    return document


def localize_text(text: str) -> str:
    """The stored standings JSON text for the active language.

    Only rows level with the one above carry a ``tie_break``, and its stored text is English:
    without one, or in English, the text is served as it is (the standings' hot path).
    """
    if f'"{KEY}"' not in text or (get_language() or "en").split("-")[0] == "en":
        return text
    return json.dumps(localize(json.loads(text)), ensure_ascii=False)


def row_sentence(row: Mapping[str, Any]) -> str:
    """A page row's tie-break sentence ("" when the row has none)."""
    found = row.get(KEY)
    return tie_break_text(found) if isinstance(found, Mapping) and found else ""


__all__ = ["localize", "localize_text", "ordinal", "row_sentence", "tie_break_text"]
