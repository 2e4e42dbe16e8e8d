"""Live updates: Server-Sent Events of standings changes and forecasts, and the big screen."""
