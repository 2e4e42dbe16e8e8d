"""Formula D championships: set-up, events, results and standings on the shared workflow."""
