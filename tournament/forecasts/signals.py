"""``forecast_ready``: sent once a forecast is stored (after the commit).

Receivers get ``kind`` (the game kind's label, or ``rally-championship``), ``competition_id``,
``version`` (the standings version it forecasts) and ``after`` (the event it forecasts from, 0
for the start). Live updates send their ``forecast`` event from it.
"""

from __future__ import annotations

from django.dispatch import Signal

#: Sent with ``kind=``, ``competition_id=``, ``version=``, ``after=`` (``sender``: the kind).
forecast_ready = Signal()
