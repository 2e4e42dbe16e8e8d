"""Forecasts of every competition's titles (API.md "Forecasts and who can still win"; #17).

The pure engine is ``scoring.forecast``; this app loads each kind's rows into its dataclasses
(:mod:`.loaders`), computes a forecast on the workers after each change of the standings
(:mod:`.tasks`, chunks spread over the workers), stores one per ``after`` value (:mod:`.models`)
and serves it (:mod:`.api`; :mod:`.pages`: the competition pages' summary and the forecast page).
"""
