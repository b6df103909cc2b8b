"""The NumPy forward pass of the trained networks (no PyTorch needed).

A network is stored as plain arrays (an ``.npz`` file): ``meta`` (JSON: the
architecture and where the network comes from) and the weights, named as
:func:`hexcore.train.export.export_agent` writes them. Two architectures,
the ones :mod:`hexcore.train.torchnet` trains:

- ``mlp``: the observation flattened, ``blocks + 1`` hidden layers of
  ``channels`` units (ReLU), a policy layer and a value layer;
- ``resnet``: a 3x3 stem, ``blocks`` residual blocks (two 3x3 convolutions
  each), a 1x1 policy convolution and layer, a 1x1 value convolution and two
  layers; BatchNorm folded into the convolutions at export (inference mode);
- ``ensemble``: several such networks of one game (``meta["members"]``
  holds each one's ``meta``, the arrays of member ``i`` are prefixed
  ``member<i>.``), whose policy and value logits are averaged
  (:func:`hexcore.train.export.export_ensemble` writes one).

The evaluator answers as :class:`hexcore.train.torchnet.TorchLearner` does:
priors softmaxed over the legal actions, and values as shares of the win,
the mover first (``relative_values``).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Mapping, Tuple

import numpy as np
import numpy.typing as npt

__all__ = ["NumpyNetwork", "edge_planes", "colour_planes", "flood", "adjacency"]

F32 = npt.NDArray[np.float32]


def _relu(x: F32) -> F32:
    return np.maximum(x, 0.0, out=x)


def _conv3(x: F32, w: F32, b: F32) -> F32:
    """A 3x3 convolution with zero padding 1: ``x`` (B, C, H, W), ``w``
    (O, C, 3, 3), ``b`` (O,); one matrix product over the nine shifted
    copies of the input."""
    bsz, c, h, wd = x.shape
    p = np.zeros((bsz, c, h + 2, wd + 2), np.float32)
    p[:, :, 1:-1, 1:-1] = x
    cols = np.empty((bsz, h, wd, c, 9), np.float32)
    for dy in range(3):
        for dx in range(3):
            cols[..., dy * 3 + dx] = p[:, :, dy:dy + h, dx:dx + wd].transpose(0, 2, 3, 1)
    out = cols.reshape(bsz * h * wd, c * 9) @ w.reshape(w.shape[0], c * 9).T + b
    return np.ascontiguousarray(out.reshape(bsz, h, wd, -1).transpose(0, 3, 1, 2))


def _conv1(x: F32, w: F32, b: F32) -> F32:
    out: F32 = np.einsum("bchw,oc->bohw", x, w.reshape(w.shape[0], w.shape[1]), optimize=True)
    return (out + b[None, :, None, None]).astype(np.float32, copy=False)


def _softmax(z: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def adjacency(neighbors: Any) -> F32:
    """The board's adjacency matrix (float32, 1 where two cells are
    neighbours) from each cell's ``neighbors`` list, as the features layers
    (here and in :mod:`hexcore.train.torchnet`) use it."""
    adj = np.zeros((len(neighbors), len(neighbors)), np.float32)
    for i, ns in enumerate(neighbors):
        adj[i, list(ns)] = 1.0
    return adj


def flood(stones: npt.NDArray[np.bool_], seeds: npt.NDArray[np.bool_], adj: F32) -> npt.NDArray[np.bool_]:
    """The ``stones`` (boolean, cells last) joined through ``stones`` to a
    stone of ``seeds``, along the board's adjacency matrix ``adj``
    (the training layers' ``_flood`` in NumPy)."""
    r = seeds
    for _ in range(adj.shape[0]):
        new = stones & (r | ((r.astype(np.float32) @ adj) > 0))
        if np.array_equal(new, r):
            break
        r = new
    return r


def _on_grid(x: F32, feats: F32, cells: npt.NDArray[np.int64]) -> F32:
    """``x`` with the per-cell planes ``feats`` (B, P, N) appended, spread
    over its grid at the cells' flat positions ``cells``."""
    bsz, _, h, w = x.shape
    grid = np.zeros((bsz, feats.shape[1], h * w), np.float32)
    grid[:, :, cells] = feats
    return np.concatenate([x, grid.reshape(bsz, -1, h, w)], 1)


def colour_planes(x: F32, cells: Any, neighbors: Any, colours: Any) -> F32:
    """The planes of the ``features="colours"`` layer
    (:func:`hexcore.train.torchnet._build_colours`) appended to ``x``: for
    the first two stone planes, the stones joined to each neutral colour
    (the planes ``colours``), the colours each stone's group touches and
    the colours a stone would touch on each empty cell (counts over the
    number of colours)."""
    bsz, _, h, w = x.shape
    n, k = len(cells), len(colours)
    adj = adjacency(neighbors)
    cells_a = np.asarray(cells, np.int64)
    flat = x.reshape(bsz, x.shape[1], h * w)[:, :, cells_a]
    stones: npt.NDArray[np.bool_] = np.asarray(flat[:, :2] > 0.5)
    neutral: npt.NDArray[np.bool_] = np.asarray(flat[:, list(colours)] > 0.5)
    empty: npt.NDArray[np.bool_] = np.asarray(~(stones.any(1) | neutral.any(1)))
    beside: npt.NDArray[np.bool_] = np.asarray((neutral.astype(np.float32) @ adj) > 0)
    s = np.broadcast_to(stones[:, :, None, :], (bsz, 2, k, n))
    r = flood(s, s & beside[:, None], adj)
    near = ((r.astype(np.float32) @ adj) > 0) | beside[:, None]
    touched = r.sum(2).astype(np.float32) / np.float32(k)
    would = (near & empty[:, None, None]).sum(2).astype(np.float32) / np.float32(k)
    feats = np.concatenate([r.reshape(bsz, 2 * k, n).astype(np.float32), touched, would], 1)
    return _on_grid(x, feats, cells_a)


def edge_planes(x: F32, cells: Any, neighbors: Any, pairs: Any) -> F32:
    """The planes of the ``features="edges"`` layer
    (:func:`hexcore.train.torchnet._build_edges`) appended to ``x``: for the
    first two stone planes and each pair of goal sides, the stones joined to
    either side and the empty cells that would join both."""
    bsz, _, h, w = x.shape
    n, k = len(cells), len(pairs)
    adj = adjacency(neighbors)
    sides = np.zeros((2 * k, n), bool)
    for j, (a, b) in enumerate(pairs):
        sides[2 * j, list(a)] = True
        sides[2 * j + 1, list(b)] = True
    cells_a = np.asarray(cells, np.int64)
    flat = x.reshape(bsz, x.shape[1], h * w)[:, :, cells_a]
    stones: npt.NDArray[np.bool_] = np.asarray(flat[:, :2] > 0.5)
    empty: npt.NDArray[np.bool_] = np.asarray(~stones.any(1))
    s = np.broadcast_to(stones[:, :, None, :], (bsz, 2, 2 * k, n))
    r = flood(s, s & sides, adj)
    near: npt.NDArray[np.bool_] = ((r.astype(np.float32) @ adj) > 0) | sides
    joins = near[:, :, 0::2] & near[:, :, 1::2] & empty[:, None, None, :]
    feats = np.stack([r[:, :, 0::2], r[:, :, 1::2], joins], 3).reshape(bsz, 6 * k, n).astype(np.float32)
    return _on_grid(x, feats, cells_a)


class NumpyNetwork:
    """A trained network evaluated with NumPy: ``net(observations, masks)
    -> (priors, values)``, the evaluator contract of
    :func:`hexcore.search.batched_search`.

    Args:
        arrays: the weights and ``meta`` of an exported network (an opened
            ``.npz`` file or a dict of arrays).
    """

    #: values are the mover's first (see :mod:`hexcore.train.torchnet`)
    relative_values = True

    def __init__(self, arrays: Mapping[str, Any]) -> None:
        if "meta" not in arrays:
            raise ValueError("not an exported hexcore network: no 'meta' entry")
        self.meta: Dict[str, Any] = json.loads(str(np.asarray(arrays["meta"])))
        self.net = str(self.meta["net"])
        if self.net not in ("mlp", "resnet", "ensemble"):
            raise ValueError(f"unknown network architecture {self.net!r} (expected 'mlp', 'resnet' or 'ensemble')")
        self.members: List["NumpyNetwork"] = []
        if self.net == "ensemble":
            for i, m in enumerate(self.meta["members"]):
                pre = f"member{i}."
                part = {k[len(pre):]: v for k, v in arrays.items() if k.startswith(pre)}
                self.members.append(NumpyNetwork({**part, "meta": np.array(json.dumps(m))}))
            if not self.members:
                raise ValueError("an ensemble of no networks")
        self.w: Dict[str, F32] = {} if self.members else {
            k: np.asarray(v, np.float32) for k, v in arrays.items() if k != "meta"}
        self.blocks = int(self.meta.get("blocks", 0))
        self.shape: Tuple[int, int, int] = tuple(int(s) for s in self.meta["shape"])  # type: ignore[assignment]
        self.num_actions = int(self.meta["num_actions"])
        self.spec = str(self.meta.get("spec", ""))
        for m in self.members:
            if m.shape != self.shape or m.num_actions != self.num_actions:
                raise ValueError(f"an ensemble member of shape {m.shape} and {m.num_actions} actions in an ensemble "
                                 f"of shape {self.shape} and {self.num_actions} actions")

    @classmethod
    def load(cls, path: str) -> "NumpyNetwork":
        """Reads an exported network.

        Args:
            path: the ``.npz`` file.

        Returns:
            The network.

        Raises:
            ValueError: not an exported hexcore network.
            OSError: the file cannot be read.
        """
        with np.load(path, allow_pickle=False) as f:
            return cls({k: f[k] for k in f.files})

    def logits(self, obs: npt.ArrayLike) -> Tuple[F32, F32]:
        """The policy and value logits of a batch of observations.

        Args:
            obs: observations, ``(batch, C, H, W)``.

        Returns:
            ``(policy logits (batch, A), value logits (batch, players))``.

        Raises:
            ValueError: observations of another shape than the network's.
        """
        x = np.ascontiguousarray(obs, np.float32)
        if x.ndim != 4 or tuple(x.shape[1:]) != self.shape:
            raise ValueError(f"observations must have shape (batch, {', '.join(map(str, self.shape))}), got {x.shape}")
        if self.members:  # the mean of the members' logits
            outs = [m.logits(x) for m in self.members]
            k = np.float32(len(outs))
            return sum(o[0] for o in outs) / k, sum(o[1] for o in outs) / k  # type: ignore[return-value]
        w = self.w
        features = self.meta.get("features", "none")
        if features == "edges":
            x = edge_planes(x, self.meta["cells"], self.meta["neighbors"], self.meta["pairs"])
        elif features == "colours":
            x = colour_planes(x, self.meta["cells"], self.meta["neighbors"], self.meta["colours"])
        if self.net == "mlp":
            h = x.reshape(x.shape[0], -1)
            for i in range(self.blocks + 1):
                h = _relu(h @ w[f"trunk.{i}.weight"].T + w[f"trunk.{i}.bias"])
            return h @ w["policy.weight"].T + w["policy.bias"], h @ w["value.weight"].T + w["value.bias"]
        h = _relu(_conv3(x, w["stem.weight"], w["stem.bias"]))
        for i in range(self.blocks):
            y = _relu(_conv3(h, w[f"block.{i}.1.weight"], w[f"block.{i}.1.bias"]))
            h = _relu(h + _conv3(y, w[f"block.{i}.2.weight"], w[f"block.{i}.2.bias"]))
        p = _relu(_conv1(h, w["policy_conv.weight"], w["policy_conv.bias"])).reshape(x.shape[0], -1)
        v = _relu(_conv1(h, w["value_conv.weight"], w["value_conv.bias"])).reshape(x.shape[0], -1)
        v = _relu(v @ w["value_hidden.weight"].T + w["value_hidden.bias"])
        return p @ w["policy.weight"].T + w["policy.bias"], v @ w["value.weight"].T + w["value.bias"]

    def __call__(self, obs: npt.ArrayLike, masks: npt.ArrayLike) -> Tuple[F32, F32]:
        """Evaluates a batch of positions.

        Args:
            obs: observations, ``(batch, C, H, W)``.
            masks: legal actions, ``(batch, A)``.

        Returns:
            ``(priors, values)``: float32 priors over the legal actions and
            values per seat, the mover's first.

        Raises:
            ValueError: inputs of another shape than the network's.
        """
        m = np.asarray(masks, bool)
        pl, vl = self.logits(obs)
        if m.shape != pl.shape:
            raise ValueError(f"masks must have shape {pl.shape}, got {m.shape}")
        p = _softmax(np.where(m, pl.astype(np.float64), -1e9)) * m
        return p.astype(np.float32), _softmax(vl.astype(np.float64)).astype(np.float32)
