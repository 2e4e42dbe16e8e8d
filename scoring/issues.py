"""What is wrong with submitted input: one :class:`Issue` per problem, one base error type.

Every validator of ``scoring/`` (and the engines of ``games/``, which may import scoring) reports
the problems of a submission as a list of :class:`Issue`, and raises a subclass of
:class:`EngineError` for input it cannot take. Both carry a stable ``code`` that the service
translates, an English ``message`` and the ``params`` a translation needs.

The argument order is Django's ``ValidationError(message, code)``: ``EngineError(message, code,
**params)``. An :class:`Issue` is built with keywords only, so no call can swap its fields.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


class EngineError(ValueError):
    """Base of every input error the engines and the scoring raise: ``(message, code, **params)``.

    ``code`` is stable (the service translates by it), ``message`` is English, ``params`` holds the
    values a translated message needs.
    """

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params

    def to_json(self) -> dict[str, Any]:
        """The error as the service reports it."""
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Issue:
    """One reason to reject a submission.

    ``index`` is the row's index in the submitted list (``None`` for a problem of the list as a
    whole) and ``field`` the row's field at fault (``None`` for the whole row).
    """

    code: str
    message: str
    index: int | None = None
    field: str | None = None
    # Qualified: the ``field`` attribute above shadows dataclasses.field in this class body.
    params: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The issue as the service reports it."""
        return {
            "index": self.index,
            "field": self.field,
            "code": self.code,
            "message": self.message,
            "params": dict(self.params),
        }


def by_row(issues: Iterable[Issue]) -> list[Issue]:
    """The issues in row order (stable), the problems of the whole list last."""
    return sorted(issues, key=lambda i: (i.index is None, i.index if i.index is not None else 0))


__all__ = ["EngineError", "Issue", "by_row"]
