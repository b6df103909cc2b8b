"""Argument checks shared by the Python wrappers: the README's error table
(TypeError for a wrong type, ValueError naming the argument and its range)."""
from __future__ import annotations

from typing import Any

import numpy as np


def int_arg(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi`` (bools are not ints here)."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if not lo <= value <= hi:
        raise ValueError(f"{name} must be between {lo} and {hi}, got {value}")
    return int(value)


def callback_arg(name: str, value: Any, signature: str) -> Any:
    """``value``, a callable (taking ``signature``) or None."""
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be a callable {signature} or None, got {type(value).__name__}")
    return value


def bool_arg(name: str, value: Any) -> bool:
    """``value`` as a bool: ``True``/``False`` or a numpy bool, nothing else
    (a string such as ``"no"`` would otherwise read as true)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def number_arg(name: str, value: Any) -> float:
    """``value`` as a float (an int or float, not a bool)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    return float(value)
