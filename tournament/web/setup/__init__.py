"""The organisers' set-up pages (issue #15): new and edit forms for every kind of competition.

Shared parts, used by every game's set-up page:

- :mod:`.boxes`: a form as a flat mapping of input names to strings (``values``), the names
  spelled as the API request's paths (``stages-0-course``, ``teams-1-riders-0-name``,
  ``rules-podium_tp``), view-model :class:`~.boxes.Box` objects for the templates, and
  :class:`~.boxes.ErrorMap`, which puts a serializer's nested errors on the box they name.
- :mod:`.rules`: a rules dataclass as typed, grouped boxes with default, unit and help; the
  boxes' values back into the ``rules`` object of the request; named presets.
- :mod:`.flow`: access (organisers of the club), the create and PATCH runs through the kind's
  own serializers and services (the API's one set of checks), and the locked set-up.
- :mod:`.views`: :class:`~.views.SetupPage`, the base a game's page subclasses, and the
  ``new``/``edit`` view functions built from it.
"""
