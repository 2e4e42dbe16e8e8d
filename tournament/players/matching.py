"""How a name finds its club player (API.md "Players and club history").

Two names are the same player when they are equal case-insensitively after trimming and
collapsing runs of white space; accents are kept distinct ("José" is not "Jose").
"""

from __future__ import annotations


def clean_name(name: str) -> str:
    """The name as shown: trimmed, inner white space collapsed to one space."""
    return " ".join(name.split())


def match_key(name: str) -> str:
    """The key a club's players are unique by (case folded, accents kept)."""
    return clean_name(name).casefold()
