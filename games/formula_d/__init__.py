"""Formula D engine (placeholder, filled below)."""
