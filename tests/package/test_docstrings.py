"""The public functions of hexcore.search, hexcore.match and hexcore.agents:
Google-style docstrings (``Args:`` / ``Returns:``, which the docs site
renders as tables) and games typed ``Game``, not ``Any``."""
from __future__ import annotations

import importlib
import inspect
import typing
from typing import Any, Callable, Iterator, Tuple

import pytest

MODULES = ["hexcore.search", "hexcore.match", "hexcore.agents"]
#: parameter names that hold a game (or games, or a count of them): typed, never ``Any``
GAME_PARAMS = {"game", "g", "start", "games"}


def _public_callables() -> Iterator[Tuple[str, Callable[..., Any]]]:
    for name in MODULES:
        module = importlib.import_module(name)
        for attr in module.__all__:
            obj = getattr(module, attr)
            if inspect.isfunction(obj):
                yield f"{name}.{attr}", obj
            elif inspect.isclass(obj) and obj.__module__.startswith(name):
                for meth_name, meth in vars(obj).items():
                    if inspect.isfunction(meth) and (not meth_name.startswith("_") or meth_name == "__call__"):
                        yield f"{name}.{attr}.{meth_name}", meth


CALLABLES = dict(_public_callables())


def test_there_are_public_functions_to_check() -> None:
    assert {"hexcore.search.mcts", "hexcore.match.play_match", "hexcore.agents.load"} <= set(CALLABLES)


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_google_style_sections(name: str) -> None:
    f = inspect.unwrap(CALLABLES[name])
    doc = inspect.getdoc(f) or ""
    sig = inspect.signature(f)
    params = [p for p in sig.parameters if p not in ("self", "cls")]
    if params:
        assert "\nArgs:\n" in doc, f"{name}: no Args: section"
        for p in params:
            assert f"\n    {p}:" in doc or f"\n    *{p}:" in doc, f"{name}: Args: does not describe {p}"
    if sig.return_annotation not in ("None", None, inspect.Signature.empty):
        assert "\nReturns:\n" in doc, f"{name}: no Returns: section"


@pytest.mark.parametrize("name", sorted(CALLABLES))
def test_games_are_typed_game(name: str) -> None:
    f = inspect.unwrap(CALLABLES[name])
    hints = typing.get_type_hints(f)
    for p, hint in hints.items():
        if p in GAME_PARAMS:
            inner = [a for t in typing.get_args(hint) for a in (t, *typing.get_args(t))]
            assert hint is not Any and Any not in inner, (name, p, hint)
