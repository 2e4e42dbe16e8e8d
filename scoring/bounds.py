"""Upper bounds on every number and list the games accept (docs/decisions-service.md, "Bounds").

The checks that every path runs (API, web forms, admin, import, simulation) are the pure ones in
``scoring`` (rule parameters in :mod:`scoring.params`, results in each game's validation), so
the bounds live here, once. They are far above anything a club's game produces and low enough
that no value can make a computation, a page or a chart cost more than a real competition does
(issue #13: a rally time of ``1e308`` was stored as a 309-digit integer and made its page run
until the web server killed it; a points table of ``[10000000, 1]`` did the same to a chart).
"""

from __future__ import annotations

#: A stage, race or rally-stage time in seconds: at most a day (board games last hours).
MAX_EVENT_SECONDS = 24 * 60 * 60
#: One time penalty (RM-52), in seconds: at most an hour.
MAX_PENALTY_SECONDS = 60 * 60
#: Penalties on one rally-stage entry.
MAX_PENALTIES = 20
#: Characters of a penalty's reason.
MAX_REASON_LENGTH = 200
#: Characters of a typed Rallyman turn log (RM-55): a stage of the longest turn limit fits.
MAX_LOG_LENGTH = 10_000
#: Points of one place in a points table, and points, bonuses or cards counted in one result.
MAX_POINTS = 10_000
#: Entries of any list in the rules (points tables, timing tiles, token stacks, ...).
MAX_LIST_LENGTH = 100
#: Magnitude of any whole-number or decimal rule parameter without a bound of its own.
MAX_PARAM_VALUE = 1_000_000
