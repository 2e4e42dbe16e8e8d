r"""Legal moves of one car for one roll: the public face of the path search.

:func:`move_options` (and :func:`options_for`, the race's hot path with prepared parameters)
return every legal end of a move as :class:`MoveOption`\ s; see :mod:`games.formula_d.search`
for the search and :mod:`games.formula_d.options` for the option types.
"""

from __future__ import annotations

from games.formula_d.options import MoveContext, MoveOption, OptionList, Params
from games.formula_d.search import move_options, options_for, params_of

__all__ = [
    "MoveContext",
    "MoveOption",
    "OptionList",
    "Params",
    "move_options",
    "options_for",
    "params_of",
]
