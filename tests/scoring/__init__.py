"""Pure tests of the scoring engines (no database)."""
