"""Rallyman: DIRT engine (placeholder, filled below)."""
