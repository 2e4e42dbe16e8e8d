"""Whole numbers typed as text are read in ASCII digits only.

Python's ``int()`` and the regex ``\\d`` take every Unicode decimal digit (``int("٣") == 3``,
``int("３") == 3``), and ``int()`` also takes a sign, surrounding spaces and underscores
(``int(" 1_0 ") == 10``). A number somebody types (a turn log, an ``m:ss`` time, a query
parameter) is read with :func:`parse_digits` instead, and a regex over such text spells its digits
``[0-9]`` (:data:`DIGIT`), so ``"1 ٣"`` is no turn log and ``"٤:٢١"`` no time.
"""

from __future__ import annotations

#: A regex class for one ASCII digit (``\d`` matches any Unicode decimal digit).
DIGIT = "[0-9]"


def is_digits(text: str) -> bool:
    """True when ``text`` is one or more ASCII digits and nothing else."""
    return bool(text) and text.isascii() and text.isdigit()


def parse_digits(text: str, *, signed: bool = False) -> int:
    """The whole number written in ``text`` with ASCII digits (a leading ``-`` when ``signed``).

    Raises ValueError for anything else: other digits, spaces, ``+``, ``_``, an empty string.
    """
    if not isinstance(text, str):
        raise ValueError(f"Expected text, not {type(text).__name__}.")
    body = text[1:] if signed and text.startswith("-") else text
    if not is_digits(body):
        raise ValueError(f"Not a whole number in the digits 0-9: {text!r}.")
    return int(text)


__all__ = ["DIGIT", "is_digits", "parse_digits"]
