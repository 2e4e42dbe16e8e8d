"""What a delivery says: the JSON body of API.md, or a Discord message with the podium.

The JSON body::

    {"event": "event.resolved", "competition": {"kind": "tour", "id": 3, "name": "..."},
     "number": 4, "url": "<the competition's page>", "at": "<ISO time>"}

The Discord body is ``{"content": ..., "embeds": [...]}``: one line naming the club,
competition and event, and an embed linking to the page with the podium of the event (names and
times or points, as on the share card), or for ``competition.finished`` the final leaders.
"""

from __future__ import annotations

import hmac
import json
from hashlib import sha256
from typing import Any, Final

from django.conf import settings
from django.utils.translation import gettext as _

from tournament.competitions.kinds import get_kind
from tournament.webhooks.models import CORRECTED, FINISHED, RESOLVED, TEST

MEDALS: Final = ("🥇", "🥈", "🥉")
#: Discord's embed colour (Podium's blue).
COLOUR: Final = 0x0B5CAD


def page_url(kind: str, competition_id: int) -> str:
    base = str(getattr(settings, "PODIUM_SITE_URL", "")).rstrip("/")
    return f"{base}/{get_kind(kind).collection}/{competition_id}/"


def payload(
    *, event: str, kind: str, competition_id: int, name: str, number: int, at: str
) -> dict[str, Any]:
    return {
        "event": event,
        "competition": {"kind": kind, "id": competition_id, "name": name},
        "number": number,
        "url": page_url(kind, competition_id),
        "at": at,
    }


def test_payload(*, club: str, at: str) -> dict[str, Any]:
    return {"event": TEST, "club": club, "at": at}


def encode(body: dict[str, Any]) -> str:
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def signature(secret: str, body: bytes) -> str:
    """``sha256=<hex HMAC-SHA256 of the raw body keyed with the secret>``."""
    return "sha256=" + hmac.new(secret.encode(), body, sha256).hexdigest()


def _headline(data: dict[str, Any], club: str, event_label: str) -> str:
    name = data["competition"]["name"]
    words = {
        RESOLVED: _("%(event)s resolved") % {"event": event_label},
        CORRECTED: _("%(event)s: results corrected") % {"event": event_label},
        FINISHED: _("%(competition)s is finished") % {"competition": name},
    }
    return f"**{club} · {name}**: {words.get(data['event'], data['event'])}"


def _podium_lines(data: dict[str, Any]) -> tuple[str, list[str]]:
    """The podium of the event (or the final leaders), as the share card shows them."""
    from tournament.printouts import cards
    from tournament.printouts.views import _card_queryset
    from tournament.web import pages

    label, pk, number = data["competition"]["kind"], data["competition"]["id"], data["number"]
    kind = get_kind(label)
    competition = _card_queryset(label).filter(pk=pk).first()
    event = (
        kind.event_model.objects.filter(competition_id=pk, number=number).first()
        if competition is not None
        else None
    )
    snapshot = pages.event_snapshot(kind, competition, event) if event is not None else None
    if competition is None or event is None or snapshot is None or label not in cards.BUILDERS:
        return "", []
    card = cards.BUILDERS[label](competition, event, snapshot)
    if data["event"] == FINISHED:
        lines, title = card.leaders, card.leaders_title
    else:
        lines, title = card.podium, _("Podium")
    out = []
    for i, line in enumerate(lines[:3] if data["event"] != FINISHED else lines):
        mark = MEDALS[i] if i < len(MEDALS) and data["event"] != FINISHED else "•"
        text = f"{mark} **{line.name}**"
        out.append(f"{text} — {line.detail}" if line.detail else text)
    return str(title), out


def discord(data: dict[str, Any], club: str) -> dict[str, Any]:
    """A Discord-compatible message for a JSON payload ``data``."""
    if data["event"] == TEST:
        text = _("Test message from Podium for %(club)s: this webhook works.") % {"club": club}
        return {"content": text, "embeds": []}
    kind = get_kind(data["competition"]["kind"])
    event_label = str(kind.event_label(data["number"]))
    title, lines = _podium_lines(data)
    embed: dict[str, Any] = {
        "title": f"{data['competition']['name']} · {event_label}",
        "url": data["url"],
        "color": COLOUR,
        "timestamp": data["at"],
        "footer": {"text": club},
    }
    if lines:
        embed["fields"] = [{"name": title, "value": "\n".join(lines)[:1024], "inline": False}]
    content = _headline(data, club, event_label) + f"\n{data['url']}"
    return {"content": content[:2000], "embeds": [embed]}
