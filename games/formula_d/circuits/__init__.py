"""Circuit data files shipped with the Formula D engine (JSON, see games.formula_d.circuit)."""
