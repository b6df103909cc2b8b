"""Random choices drawn from Hypothesis (``st.data()``) instead of a seeded
``random.Random``: the property tests play their games through :class:`Draws`,
so each ply is an index drawn into the list of legal moves or actions, and a
failing game shrinks to a short one with small indices (Hypothesis prints the
draws)."""
from __future__ import annotations

from typing import Any, List, Sequence, TypeVar

from hypothesis import strategies as st

T = TypeVar("T")


class Draws:
    """The part of ``random.Random``'s interface the tests use, each call one
    Hypothesis draw."""

    def __init__(self, data: Any, label: str = "ply") -> None:
        self.data = data
        self.label = label

    def randrange(self, n: int) -> int:
        if n <= 0:
            raise ValueError("empty range")
        return self.data.draw(st.integers(0, n - 1), label=self.label)

    def randint(self, a: int, b: int) -> int:
        return a + self.randrange(b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randrange(len(seq))]

    def random(self) -> float:
        """A number in [0, 1) in steps of 1/1000 (shrinks towards 0)."""
        return self.data.draw(st.integers(0, 999), label=self.label) / 1000

    def sample(self, seq: Sequence[T], k: int) -> List[T]:
        pool = list(seq)
        return [pool.pop(self.randrange(len(pool))) for _ in range(k)]
