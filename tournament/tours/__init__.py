"""Flamme Rouge Grand Tours: set-up, stages, results and standings."""
