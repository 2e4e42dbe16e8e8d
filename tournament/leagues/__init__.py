"""Leagues: a points championship for any racing board game whose result is a finishing order."""
