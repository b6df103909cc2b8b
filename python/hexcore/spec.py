"""Game spec strings: ``"churn(size=3)"``, ``"wunchunk(size=5,players=3)"``,
``"churn(sides=(3,4,3,4,3,4),pie=false)"``. ``load(spec)`` builds the game;
every game's ``.spec`` round-trips through it.

Values are read by the kind of the option (``GameInfo.options`` in the
registry): for an option whose values are strings a bare word or number is
that string (``balance=none`` is ``"none"``); for a boolean option
``true``/``yes``/``on`` and ``false``/``no``/``off`` are booleans; numbers are
integers, ``(...)`` or ``[...]`` tuples, and a quoted value is a string.
Options a game does not list are read the same way as integers/booleans, and
``none`` there is None."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Tuple

_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


MAX_NESTING = 8
_BARE = re.compile(r"[A-Za-z0-9_.\-]+")


def _value(text: str, depth: int = 0) -> Any:
    if depth > MAX_NESTING:
        raise ValueError(f"spec values nest deeper than {MAX_NESTING} brackets")
    t = text.strip()
    if not t:
        raise ValueError("empty value in spec")
    if t.startswith("(") or t.startswith("["):
        close = ")" if t.startswith("(") else "]"
        if not t.endswith(close):
            raise ValueError(f"unbalanced brackets in spec value {t!r}")
        inner = t[1:-1].strip()
        return tuple(_value(x, depth + 1) for x in _split(inner)) if inner else ()
    low = t.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low == "none":
        return None
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    if _BARE.fullmatch(t):
        return t
    raise ValueError(f"cannot read spec value {t!r}")


def _split(text: str) -> List[str]:
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                raise ValueError("unbalanced brackets in spec")
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += ch
    if depth != 0:
        raise ValueError("unbalanced brackets in spec")
    if cur.strip():
        parts.append(cur)
    return parts


def parse(spec: str) -> Tuple[str, Dict[str, Any]]:
    """Split a spec string into the game name and its keyword options."""
    if not isinstance(spec, str):
        raise TypeError(f"spec must be a string, got {type(spec).__name__}")
    m = _NAME.match(spec)
    if not m:
        raise ValueError(f"malformed game spec {spec!r}; expected e.g. 'churn(size=3)'")
    name, args = m.group(1).lower(), m.group(2)
    from .registry import INFO

    kinds = INFO[name].options if name in INFO else {}
    options: Dict[str, Any] = {}
    for part in _split(args or ""):
        if "=" not in part:
            raise ValueError(f"spec option {part.strip()!r} must be written key=value")
        key, val = part.split("=", 1)
        key = key.strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            raise ValueError(f"bad option name {key!r} in spec")
        if key in options:
            raise ValueError(f"option {key!r} given twice in spec")
        options[key] = _value(val)
        if kinds.get(key) == "str" and _BARE.fullmatch(val.strip()):
            options[key] = val.strip()  # a bare word or number is the string itself ("none", "1")
        elif kinds.get(key) == "bool" and not isinstance(options[key], bool):
            raise ValueError(f"option {key!r} of {name} must be true or false, got {val.strip()!r}")
    return name, options


def load(spec: str) -> Any:
    """Build a game from a spec string."""
    from .registry import lookup

    name, options = parse(spec)
    cls = lookup(name).cls
    try:
        return cls(**options)
    except TypeError as e:
        raise ValueError(f"bad options for {name}: {e}") from None
