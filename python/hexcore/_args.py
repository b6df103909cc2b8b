"""Argument checks shared by the Python wrappers: the README's error table
(TypeError for a wrong type, ValueError naming the argument and its range)."""
from __future__ import annotations

import functools
import inspect
import warnings
from typing import Any, Callable, TypeVar

import numpy as np


def int_arg(name: str, value: Any, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi`` (bools are not ints here); for
    web input (``serve/``): the engine's int arguments are the core's to check."""
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


#: What ``--threads`` means in every command (and ``threads`` in the Python
#: functions behind them): the CPU threads it may use, None meaning one per
#: core the process may use (the core's ``default_threads()``), at most
#: ``MAX_THREADS``. Each command's help adds how it uses them.
THREADS_HELP = "CPU threads to use (default: one per core)"


F = TypeVar("F", bound=Callable[..., Any])


def keyword_only(func: F) -> F:
    """Marks ``func``'s options after ``*`` as keyword-only while still
    taking them by position for one more release: each option passed by
    position is matched to the keyword of that place and a
    ``FutureWarning`` names the keyword to write instead."""
    sig = inspect.signature(func)
    params = list(sig.parameters.values())
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    options = [p.name for p in params if p.kind == p.KEYWORD_ONLY]

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        extra = len(args) - len(positional)
        if extra > 0:
            if extra > len(options):
                raise TypeError(f"{func.__qualname__}() takes at most {len(positional)} positional arguments "
                                f"and {len(options)} options, got {len(args)} positional arguments")
            names = options[:extra]
            for name, value in zip(names, args[len(positional):]):
                if name in kwargs:
                    raise TypeError(f"{func.__qualname__}() got multiple values for argument {name!r}")
                kwargs[name] = value
            warnings.warn(f"{func.__qualname__}(): pass {', '.join(n + '=' for n in names)} by keyword; options "
                          "by position are deprecated and will be refused in a later release",
                          FutureWarning, stacklevel=2)
            args = args[: len(positional)]
        return func(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


def renamed(**old_to_new: str) -> Callable[[F], F]:
    """Renames keyword arguments of ``func`` (``old="new"``) while still
    taking the old keyword for one more release: it is passed on under
    the new name and a ``FutureWarning`` names the keyword to write
    instead; both at once is a ``TypeError``."""

    def rename(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old not in kwargs:
                    continue
                if new in kwargs:
                    raise TypeError(f"{func.__qualname__}() got both {old}= and {new}=; pass {new}= only")
                warnings.warn(f"{func.__qualname__}(): {old}= is renamed {new}=; the old name is deprecated and "
                              "will be refused in a later release", FutureWarning, stacklevel=2)
                kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return rename
