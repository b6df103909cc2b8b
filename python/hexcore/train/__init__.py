"""AlphaZero training: self-play with the native batched search, a replay
buffer, a PyTorch network (``pip install "hexcore[train]"``), checkpoints,
metrics and plots; trained agents as evaluators and match players; and a
solver-labelled benchmark of mistakes.

The self-play loop is framework-free: the evaluator is any callable
``evaluator(observations, masks) -> (priors, values)``, and the learner
any object with ``train_step``, ``state`` and ``from_state`` (see
:mod:`hexcore.train.loop`). Only :mod:`hexcore.train.torchnet` imports
torch.
"""
from __future__ import annotations

from .agent import AZAgent, choose_actions, load_evaluator, play_turns
from .benchmark import LabelledPosition, labelled_positions, mistake_rate, mistakes, value_accuracy
from .checkpoint import CheckpointError, latest_checkpoint, list_checkpoints, load_checkpoint
from .loop import TrainConfig, train
from .selfplay import Samples, outcome_scores, play_generation
from .symmetry import symmetries

__all__ = ["AZAgent", "CheckpointError", "LabelledPosition", "Samples", "TrainConfig", "choose_actions",
           "labelled_positions", "latest_checkpoint", "list_checkpoints", "load_checkpoint", "load_evaluator",
           "mistake_rate", "mistakes", "outcome_scores", "play_generation", "play_turns", "symmetries", "train",
           "value_accuracy"]
