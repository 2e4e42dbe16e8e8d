"""Forecasts on, with few simulations (the suite's budget); tasks run eagerly in-process."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture
def forecasts(settings: Any) -> Any:
    settings.PODIUM_FORECASTS = True
    settings.PODIUM_FORECAST_SIMULATIONS = 300
    settings.PODIUM_FORECAST_CHUNK = 300
    settings.PODIUM_FORECAST_TEMPLATE_RUNS = 4
    return settings
