"""The one error type of mwccm-gen: a problem at a place in a description.

Every check, syntactic or semantic, raises `DescriptionError`; `__main__`
prints it as `FILE:LINE:COL: error: what is wrong` (the format compilers use,
so editors jump to it) and exits 2.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Position:
    file: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class DescriptionError(Exception):
    def __init__(self, position: Position, message: str) -> None:
        super().__init__(f"{position}: error: {message}")
        self.position = position
        self.message = message
