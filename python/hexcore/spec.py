"""Game spec strings: ``"churn(size=3)"``, ``"wunchunk(size=5,players=3)"``,
``"churn(sides=(3,4,3,4,3,4),pie=false)"``. ``load(spec)`` builds the game;
every game's ``.spec`` round-trips through it.

The engine parses and prints spec strings, once (``rust/core/src/spec.rs``),
reading each value by the kind of the option in the game's option table:
for an option whose values are strings a bare word or number is that string
(``balance=none`` is ``"none"``); for a boolean option ``true``/``yes``/``on``
and ``false``/``no``/``off`` are booleans; numbers are integers, ``(...)`` or
``[...]`` tuples, and a quoted value is a string. Options a game does not list
are read the same way as integers/booleans, and ``none`` there is None."""
from __future__ import annotations

from typing import Any, Dict, Tuple

from ._core import _load, _parse_spec


def parse(spec: str) -> Tuple[str, Dict[str, Any]]:
    """Split a spec string into the game name and its keyword options."""
    return _parse_spec(spec)


def load(spec: str) -> Any:
    """Build a game from a spec string."""
    return _load(spec)
