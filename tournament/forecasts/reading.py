"""What ``GET …/forecast/`` and the pages show: the stored forecast, its reasons in the
reader's language; a competition never forecast (or whose latest forecast is missing) is
planned on the first read and answers ``computing`` meanwhile."""

from __future__ import annotations

from typing import Any

from tournament.forecasts import service
from tournament.forecasts.loaders import RALLY_CHAMPIONSHIP, championship_seed, current
from tournament.forecasts.models import Forecast, ForecastStatus
from tournament.forecasts.reasons import reason_text

#: The titles in the order API.md lists them (storage keeps no order).
TITLE_ORDER = ("yellow", "green", "polka_dot", "team", "tour_points", "drivers", "teams", "overall")


def ordered(titles: dict[str, Any]) -> list[str]:
    known = {t: i for i, t in enumerate(TITLE_ORDER)}
    return sorted(titles, key=lambda t: (known.get(t, len(known)), t))


def _translated(titles: dict[str, Any]) -> dict[str, Any]:
    return {
        title: [{**entry, "reason": reason_text(entry.get("reason"))} for entry in titles[title]]
        for title in ordered(titles)
    }


def latest_after(kind: str, competition: Any) -> int:
    return current(kind, competition)[0]


def forecast_body(
    kind: str,
    competition: Any,
    after_param: str,
    after: int | None,
    rows: list[Forecast] | None = None,
) -> dict[str, Any]:
    """The API's body; ``after`` None for the latest standings (validated by the caller);
    ``rows`` the competition's stored forecasts when the caller has them (one query)."""
    now_after, version = current(kind, competition)
    wanted = now_after if after is None else after
    if rows is None:
        row = Forecast.objects.filter(
            kind=kind, competition_id=competition.pk, after=wanted
        ).first()
    else:
        row = next((r for r in rows if r.after == wanted), None)
    stale = row is None or (wanted == now_after and row.version < version)
    if stale and service.enabled():
        service.request(kind, competition.pk, version, now_after, now_after)
        if row is None:
            row = Forecast.objects.filter(
                kind=kind, competition_id=competition.pk, after=wanted
            ).first()
    ready = row is not None and row.status == ForecastStatus.READY and not stale
    return {
        "status": "ready" if ready else "computing",
        after_param: wanted or None,
        "simulations": row.simulations if row is not None and row.computed_at else 0,
        "seed": row.seed if row is not None and row.computed_at else _seed(kind, competition),
        "computed_at": row.computed_at.isoformat().replace("+00:00", "Z")
        if row is not None and row.computed_at
        else None,
        "titles": _translated(row.titles) if row is not None else {},
        "positions": row.positions if row is not None else {},
    }


def _seed(kind: str, competition: Any) -> int:
    if kind == RALLY_CHAMPIONSHIP:
        return championship_seed(competition)
    return int(competition.seed)


def stored(kind: str, competition: Any) -> list[Forecast]:
    """Every stored forecast of the competition, in event order (one query)."""
    return list(Forecast.objects.filter(kind=kind, competition_id=competition.pk).order_by("after"))


def history(kind: str, competition: Any, rows: list[Forecast] | None = None) -> list[Forecast]:
    """The stored forecasts after each event so far (ready ones), in event order."""
    now_after = current(kind, competition)[0]
    rows = stored(kind, competition) if rows is None else rows
    return [r for r in rows if r.after <= now_after and r.status == ForecastStatus.READY]
