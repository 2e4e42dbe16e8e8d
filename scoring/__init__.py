"""Pure-Python scoring: classifications, jerseys and points for every Podium game.

Nothing in this package imports Django. The service loads rows into the dataclasses defined
here, calls the engines and stores what they return.
"""
