"""Playing with a trained evaluator: ``load_evaluator`` and the ``az`` player.

An agent picks each action with ``simulations`` simulations of Gumbel
search with no root noise (``gumbel_scale=0``: deterministic), or, with
``simulations=0``, the legal action of highest prior (the network alone).
Many positions are decided together, one evaluator call per wave.
"""
from __future__ import annotations

import importlib
import os
from typing import Any, Dict, List, Sequence

import numpy as np

from .._args import keyword_only
from .._types import Evaluator, Game
from ..search import batched_search
from ..spec import load
from .checkpoint import CheckpointError, load_checkpoint

__all__ = ["load_evaluator", "learner_name", "learner_from_checkpoint", "choose_actions", "play_turns", "AZAgent"]



def learner_name(learner: Any) -> str:
    """``module:qualname`` of ``learner``'s class, as a checkpoint names it
    (:func:`learner_from_checkpoint` imports it from there)."""
    cls = type(learner)
    return f"{cls.__module__}:{cls.__qualname__}"


def learner_from_checkpoint(data: Dict[str, Any]) -> Any:
    """Rebuilds the learner a checkpoint was written by; a state it cannot
    read is a :class:`~hexcore.train.CheckpointError` naming the file."""
    where = data.get("learner")
    if not isinstance(where, str) or ":" not in where:
        raise ValueError(f"checkpoint {data.get('path')} names no learner class")
    mod, _, qual = where.partition(":")
    try:
        obj: Any = importlib.import_module(mod)
    except ImportError as e:
        raise ImportError(f"the checkpoint's learner {where} cannot be imported: {e}") from None
    try:
        for part in qual.split("."):
            obj = getattr(obj, part)
        return obj.from_state(data["learner_state"])
    except ImportError:
        raise
    except Exception as e:  # noqa: BLE001 - whatever the learner's reader raises, the file is at fault
        raise CheckpointError(f"checkpoint {data.get('path')} holds a network that cannot be read "
                              f"({type(e).__name__}: {' '.join(str(e).split())[:200]})") from None


def load_evaluator(path: str) -> Evaluator:
    """The evaluator of a training checkpoint (a ``.ckpt`` file, or a run
    folder: its newest checkpoint), for :func:`hexcore.search.batched_search`
    and :class:`hexcore.search.BatchedMCTS`. ``FileNotFoundError`` /
    ``ValueError`` say what is wrong with the path or file; a checkpoint of
    the PyTorch network needs torch (``pip install "hexcore[train]"``).
    An exported network (``.npz``, :func:`hexcore.train.export.export_agent`)
    is read with NumPy alone."""
    if isinstance(path, (str, os.PathLike)) and os.fspath(path).endswith(".npz"):
        from ..agents import NumpyNetwork

        if not os.path.exists(path):
            raise FileNotFoundError(f"exported network {path} does not exist")
        return NumpyNetwork.load(os.fspath(path))
    data = load_checkpoint(path)
    learner = learner_from_checkpoint(data)
    learner.spec = data["config"]["spec"]
    return learner  # type: ignore[no-any-return]


@keyword_only
def choose_actions(games: Sequence[Game], evaluator: Evaluator, simulations: int = 0, *, seed: int = 0,
                   threads: int = 1) -> List[int]:
    """One action per game (all between or within turns, none finished)."""
    if simulations <= 0:
        obs = np.stack([g.observation() for g in games]).astype(np.float32)
        masks = np.stack([g.legal_action_mask() for g in games])
        priors, _ = evaluator(obs, masks)
        p = np.where(masks, np.asarray(priors, np.float64), -np.inf)
        return [int(a) for a in p.argmax(axis=1)]
    r = batched_search(list(games), evaluator, simulations, algorithm="gumbel", gumbel_scale=0.0, seed=seed,
                       threads=threads)
    return [int(a) for a in r.actions]


@keyword_only
def play_turns(games: Sequence[Game], evaluator: Evaluator, simulations: int = 0, *, seed: int = 0,
               threads: int = 1) -> None:
    """Plays one whole turn in each game (in place), all games at once."""
    todo = [g for g in games if not g.is_over]
    while todo:
        acts = choose_actions(todo, evaluator, simulations, seed=seed, threads=threads)
        for g, a in zip(todo, acts):
            g.apply_action(a)
        todo = [g for g in todo if not g.is_over and g.pending_actions]


class AZAgent:
    """A player for ``python -m hexcore match`` / ``play``: ``az:PATH`` or
    ``az:PATH,sims=N``."""

    def __init__(self, evaluator: Evaluator, simulations: int = 0) -> None:
        self.evaluator = evaluator
        self.simulations = simulations

    @keyword_only
    def play_turn(self, g: Game, *, seed: int = 0, threads: int = 1) -> None:
        spec = getattr(self.evaluator, "spec", None)
        # the game's printed spec is canonical; the trained one is as the user wrote it
        if spec is not None and g.spec != load(spec).spec:
            raise ValueError(f"this agent was trained on {spec}, not {g.spec}")
        play_turns([g], self.evaluator, self.simulations, seed=seed, threads=threads)
