"""Rallyman rallies: set-up, events, results and standings on the shared workflow."""
