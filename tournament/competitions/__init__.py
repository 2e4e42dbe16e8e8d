"""What every competition shares: the submit → resolve → standings-snapshot workflow.

Games plug in through :class:`tournament.competitions.kinds.GameKind`; the models here are
abstract, each game app declares its concrete tables.
"""
