"""Named series: the parts of a sample that a driver timed inside it.

A deploy driver's sample is one whole assembly of a component application,
and each of its phases (plan parsing, component creation, registration, ...)
is timed where it runs; each phase is a named series, one value per sample,
the value at index i belonging to sample i (driver contract section 4,
"Named series"). A series may be a part of another (`part_of`): library
loading within home creation, every phase within the total. The parts form a
forest whose roots are the series that are part of nothing, so a reader can
stack the direct parts of a whole without counting a segment twice.

This is the one shape the result-file reader, the store and the report share;
the reader checks a file against the rules below before it builds one.
"""

from collections.abc import Iterator, Mapping

import numpy as np

NAME_PATTERN = r"[a-z][a-z0-9_]*"
MAX_NAME_LENGTH = 64
# A deployment has a few dozen phases; the bound keeps a hostile header from making the
# reader accept hundreds of times the samples its cell asked for.
MAX_NAMED_SERIES = 256


class NamedSeries(Mapping[str, np.ndarray]):
    """The named series of one result, name -> int64 values (ns per sample), in the order
    of the file; `part_of` maps each series that is a part to its whole."""

    def __init__(self, values: Mapping[str, np.ndarray] | None = None,
                 part_of: Mapping[str, str] | None = None):
        self._values = dict(values or {})
        self.part_of = {name: whole for name, whole in (part_of or {}).items() if whole}

    def __getitem__(self, name: str) -> np.ndarray:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"NamedSeries({list(self._values)}, part_of={self.part_of})"

    def parts(self, whole: str) -> list[str]:
        """The direct parts of `whole`, in file order."""
        return [name for name in self._values if self.part_of.get(name) == whole]

    def roots(self) -> list[str]:
        """The series that are part of nothing, in file order."""
        return [name for name in self._values if name not in self.part_of]

    def tree_order(self) -> list[tuple[str, int]]:
        """Every series with its depth, each whole followed by its parts (file order among
        siblings): the order of a table whose segments sit indented under their whole."""
        ordered: list[tuple[str, int]] = []

        def visit(name: str, depth: int) -> None:
            ordered.append((name, depth))
            for part in self.parts(name):
                visit(part, depth + 1)

        for root in self.roots():
            visit(root, 0)
        return ordered


def cycle_through(part_of: Mapping[str, str], start: str) -> list[str] | None:
    """The chain start -> its whole -> ... -> start when `start` is, directly or not, a
    part of itself; None otherwise (a loop further up is found from one of its members)."""
    chain = [start]
    seen = {start}
    while (whole := part_of.get(chain[-1])) is not None:
        chain.append(whole)
        if whole == start:
            return chain
        if whole in seen:
            return None
        seen.add(whole)
    return None
