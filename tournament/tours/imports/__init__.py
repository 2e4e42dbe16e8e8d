"""Tours from outside Podium: a Flamme Rouge Grand Tour Companion backup, or a plain CSV.

Both formats are read into one :class:`~tournament.tours.imports.plan.ImportPlan` (the set-up as
the create request spells it, and every stage's rows), which :mod:`.services` turns into a tour
through the normal create and submission workflows (docs/imports.md).
"""
