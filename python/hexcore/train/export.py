"""Trained networks written as plain NumPy arrays, for play without PyTorch.

:func:`export_agent` turns a training checkpoint (a ``.ckpt`` file or a run
folder) into an ``.npz`` file that :class:`hexcore.agents.NumpyNetwork`
evaluates, BatchNorm folded into the convolutions; :func:`export_ensemble`
writes several checkpoints as one network that averages their logits.
``az:FILE.npz`` plays either, and the package's shipped agents
(:mod:`hexcore.agents`) are such files.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, Optional, Sequence

import numpy as np

from .agent import learner_from_checkpoint
from .checkpoint import load_checkpoint

__all__ = ["export_agent", "export_ensemble", "network_arrays"]


def _fold(conv: Any, bn: Any) -> Dict[str, np.ndarray]:
    """A convolution followed by an inference-mode BatchNorm as one
    convolution with a bias."""
    w = conv.weight.detach().double().numpy()
    scale = (bn.weight.detach().double() / (bn.running_var.double() + bn.eps).sqrt()).numpy()
    b0 = conv.bias.detach().double().numpy() if conv.bias is not None else np.zeros(w.shape[0])
    bias = (b0 - bn.running_mean.double().numpy()) * scale + bn.bias.detach().double().numpy()
    return {"weight": (w * scale[:, None, None, None]).astype(np.float32), "bias": bias.astype(np.float32)}


def _linear(layer: Any) -> Dict[str, np.ndarray]:
    return {"weight": layer.weight.detach().float().numpy().copy(), "bias": layer.bias.detach().float().numpy().copy()}


def network_arrays(learner: Any, meta: Optional[Dict[str, Any]] = None) -> Dict[str, np.ndarray]:
    """The arrays of a :class:`~hexcore.train.torchnet.TorchLearner`'s
    network in the layout :class:`hexcore.agents.NumpyNetwork` reads, with
    ``meta`` (JSON-able) added to the architecture's description.

    Raises:
        ValueError: for a network with ``features="groups"`` (a layer the
            NumPy pass does not have).
    """
    cfg = learner.config
    features = cfg.get("features", "none")
    if features not in ("none", "edges", "colours"):
        raise ValueError(f"a network with features={features!r} cannot be exported (only 'none', 'edges' and "
                         "'colours')")
    net = learner.net if features == "none" else learner.net[1]
    kind = str(cfg.get("net", "resnet"))
    out: Dict[str, Dict[str, np.ndarray]] = {}
    if kind == "mlp":
        linears = [m for m in net.trunk if hasattr(m, "weight")]
        for i, layer in enumerate(linears):
            out[f"trunk.{i}"] = _linear(layer)
        out["policy"] = _linear(net.p_fc)
        out["value"] = _linear(net.v_fc)
    else:
        out["stem"] = _fold(net.stem[0], net.stem[1])
        for i, blk in enumerate(net.blocks):
            out[f"block.{i}.1"] = _fold(blk.c1, blk.b1)
            out[f"block.{i}.2"] = _fold(blk.c2, blk.b2)
        out["policy_conv"] = _linear(net.p_conv[0])
        out["policy"] = _linear(net.p_fc)
        out["value_conv"] = _linear(net.v_conv[0])
        out["value_hidden"] = _linear(net.v_fc[0])
        out["value"] = _linear(net.v_fc[2])
    description = {"format": 1, "net": kind, "channels": int(cfg.get("channels", 32)), "blocks": int(cfg.get("blocks", 2)),
                   "shape": [int(s) for s in cfg["shape"]], "num_actions": int(cfg["num_actions"]),
                   "players": int(cfg["players"])}
    if features == "edges":
        description.update(features="edges", cells=cfg["cells"], neighbors=cfg["neighbors"], pairs=cfg["pairs"])
    if features == "colours":
        description.update(features="colours", cells=cfg["cells"], neighbors=cfg["neighbors"], colours=cfg["colours"])
    description.update(meta or {})
    arrays = {f"{name}.{part}": a for name, parts in out.items() for part, a in parts.items()}
    arrays["meta"] = np.array(json.dumps(description, sort_keys=True))
    return arrays


def _checkpoint_arrays(checkpoint: str, meta: Dict[str, Any]) -> Dict[str, np.ndarray]:
    data = load_checkpoint(checkpoint)
    learner = learner_from_checkpoint(data)
    info = {"spec": data["config"]["spec"], "step": int(data["step"]), "games": int(data.get("games", 0)),
            "cpu_seconds": float(data.get("cpu_seconds", 0.0)),
            "config": {k: v for k, v in data["config"].items() if k != "out"}}
    info.update(meta)
    return network_arrays(learner, info)


def _write(arrays: Dict[str, np.ndarray], path: str, half: bool = False) -> str:
    if half:  # the weights stored as float16 (half the size); NumpyNetwork computes in float32
        arrays = {k: a.astype(np.float16) if a.dtype == np.float32 else a for k, a in arrays.items()}
    tmp = path + ".tmp.npz"
    np.savez_compressed(tmp, **arrays)  # type: ignore[arg-type]
    os.replace(tmp, path)
    return path


def export_agent(checkpoint: str, path: str, *, half: bool = False, **meta: Any) -> str:
    """Writes the network of ``checkpoint`` (a ``.ckpt`` file or a run
    folder: its newest checkpoint) to ``path`` (``.npz``), atomically.

    Args:
        checkpoint: a training checkpoint or run folder.
        path: the file to write.
        half: store the weights as float16 (half the file; the forward
            pass still computes in float32, from the rounded weights).
        **meta: JSON-able facts kept with the network (``command``,
            ``cpu_minutes``, ``strength``, ...); the game's ``spec``, the
            ``step`` and the training ``config`` are added.

    Returns:
        The path written.
    """
    return _write(_checkpoint_arrays(checkpoint, meta), path, half)


def export_ensemble(checkpoints: Sequence[str], path: str, *, half: bool = False, **meta: Any) -> str:
    """Writes the networks of ``checkpoints`` (of one game, any
    architectures :func:`export_agent` writes) to ``path`` as one
    ``ensemble`` network, which averages their policy and value logits
    (:class:`hexcore.agents.NumpyNetwork`), atomically.

    Args:
        checkpoints: training checkpoints or run folders.
        path: the file to write.
        half: store the weights as float16 (see :func:`export_agent`).
        **meta: JSON-able facts kept with the ensemble (``command``,
            ``strength``, ...); its ``cpu_seconds`` and ``games`` are the
            members' sums, and each member's own facts are kept.

    Returns:
        The path written.

    Raises:
        ValueError: no checkpoints, or checkpoints of different games.
    """
    if not checkpoints:
        raise ValueError("an ensemble needs at least one checkpoint")
    members = [_checkpoint_arrays(c, {}) for c in checkpoints]
    metas = [json.loads(str(m["meta"])) for m in members]
    specs = {m["spec"] for m in metas}
    if len(specs) != 1:
        raise ValueError(f"the checkpoints are of different games: {', '.join(sorted(specs))}")
    first = metas[0]
    description = {"format": 1, "net": "ensemble", "members": metas, "spec": first["spec"],
                   "shape": first["shape"], "num_actions": first["num_actions"], "players": first["players"],
                   "cpu_seconds": sum(m["cpu_seconds"] for m in metas), "games": sum(m["games"] for m in metas)}
    description.update(meta)
    arrays = {f"member{i}.{k}": a for i, m in enumerate(members) for k, a in m.items() if k != "meta"}
    arrays["meta"] = np.array(json.dumps(description, sort_keys=True))
    return _write(arrays, path, half)
