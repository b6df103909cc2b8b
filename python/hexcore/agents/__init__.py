"""Trained agents shipped with the package, played without PyTorch.

Each agent is a network trained by ``python -m hexcore train`` and exported
to NumPy arrays (:func:`hexcore.train.export.export_agent`); it is
evaluated by :class:`NumpyNetwork`, so ``pip install hexcore`` alone plays
with it.

>>> import hexcore as hc
>>> from hexcore import agents
>>> "hex(size=5)" in agents.available()
True
>>> net = agents.load("hex(size=5)")
>>> r = hc.search.batched_search([hc.Hex(size=5)], net, 16, seed=0)
>>> int(r.actions[0]) in hc.Hex(size=5).legal_actions()
True

The player spec ``agent`` (the network alone) or ``agent:sims=N`` (N
simulations of Gumbel search per action) plays the shipped agent of the
match's game in ``match``, ``play`` and ``analyze``.
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from typing import Any, Dict, List, Union

import numpy as np

from .._types import Game
from ..spec import load as load_game
from .network import NumpyNetwork

__all__ = ["NumpyNetwork", "available", "load", "info", "weights_dir"]


def weights_dir() -> str:
    """The folder of the shipped networks.

    Returns:
        The path of the folder that holds the ``.npz`` files.
    """
    return os.path.join(os.path.dirname(__file__), "weights")


@lru_cache(maxsize=None)
def _index() -> Dict[str, str]:
    """Canonical spec -> file of each shipped network (read from their ``meta``)."""
    found: Dict[str, str] = {}
    d = weights_dir()
    if not os.path.isdir(d):
        return found
    for name in sorted(os.listdir(d)):
        if not name.endswith(".npz"):
            continue
        path = os.path.join(d, name)
        with np.load(path, allow_pickle=False) as f:
            meta = json.loads(str(f["meta"]))
        found[load_game(meta["spec"]).spec] = path
    return found


def _canonical(spec: Any) -> str:
    if not isinstance(spec, str):
        spec = getattr(spec, "spec", None)
        if not isinstance(spec, str):
            raise TypeError("an agent is named by a game spec string or a game")
    return str(load_game(spec).spec)


def available() -> List[str]:
    """The games that have a shipped agent.

    Returns:
        Their specs, canonical (as ``hc.load(spec).spec`` prints them), sorted.
    """
    return sorted(_index())


def _path(spec: Any) -> str:
    key = _canonical(spec)
    path = _index().get(key)
    if path is None:
        have = ", ".join(available()) or "none"
        raise ValueError(f"no shipped agent for {key}; agents exist for: {have}")
    return path


def load(spec: Union[str, Game]) -> NumpyNetwork:
    """The shipped agent of a game.

    Args:
        spec: a game spec string or a game.

    Returns:
        Its network, an evaluator for :func:`hexcore.search.batched_search`,
        :class:`hexcore.search.BatchedMCTS` and :func:`hexcore.train.mistake_rate`.

    Raises:
        ValueError: when no agent is shipped for the game (the message
            lists those that are), or the spec is not a game.
        TypeError: ``spec`` is neither a string nor a game.
    """
    return _loaded(_path(spec))


@lru_cache(maxsize=None)
def _loaded(path: str) -> NumpyNetwork:
    # a network is read once per process: it holds no state between calls
    return NumpyNetwork.load(path)


def info(spec: Union[str, Game]) -> Dict[str, Any]:
    """What is known of the shipped agent of a game.

    Args:
        spec: a game spec string or a game.

    Returns:
        The network's ``meta``: its architecture, the training command, CPU
        time, training steps and measured strength.

    Raises:
        ValueError: when no agent is shipped for the game.
        TypeError: ``spec`` is neither a string nor a game.
    """
    with np.load(_path(spec), allow_pickle=False) as f:
        return json.loads(str(f["meta"]))  # type: ignore[no-any-return]
