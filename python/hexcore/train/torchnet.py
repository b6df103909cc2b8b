"""The PyTorch network and learner (``pip install "hexcore[train]"``).

A small residual convolutional network on the exact ``observation()``
planes: a 3x3 stem, ``blocks`` residual blocks of ``channels`` channels, a
policy head (1x1 convolution, then a linear layer to ``num_actions``
logits) and a value head (1x1 convolution, a hidden layer, then one logit
per seat, relative to the player to move like the observation planes:
the mover first, then the seats after it; the softmax over the seats is
the predicted share of the win, the search's value scale). The learner's
``relative_values`` attribute tells the search to put the values back in
seat order (:func:`hexcore.search.batched_search`), so the network never
has to learn whose turn it is (Wunchunk's planes do not even say).
With ``net="mlp"`` the network is a multilayer perceptron instead: the
planes flattened, a linear layer to ``channels`` units, ``blocks`` more
hidden layers of ``channels`` units (ReLU), and a linear policy head and
value head; on a small board it costs a fraction of the convolutions'
time per position (Churn side 3, 256 units and 2 hidden layers: about 8
microseconds a position against 100 for 32 channels and 2 blocks).
With ``features="groups"`` a fixed, not learned, layer first adds planes
computed from the observation itself (each seat's group sizes, the group a
stone would form on each empty cell, Churn's smallest-group cells and the
stones its removals would take, stone counts; see ``_build_groups``), so
the network still evaluates the exact ``observation()`` planes; it needs
the board's ``cells`` and ``neighbors`` in the config
(:func:`board_geometry`) and a game whose first planes are the seats'
stones (``GameInfo.stone_planes``). ``features="edges"`` (Hex: the stones
joined to each goal side, the cells that would join two) and
``features="colours"`` (Quintun: the stones joined to each neutral
colour, how many colours each group and each empty cell touch) are such
layers too, which the NumPy forward pass has as well
(:mod:`hexcore.agents.network`), so their networks can be exported.
Loss: cross-entropy of the policy against the search's improved policy
over the legal actions, plus cross-entropy of the value against the final
scores, plus weight decay through AdamW.
"""
from __future__ import annotations

import io
from typing import Any, Dict, Tuple

import numpy as np
import numpy.typing as npt

from ..agents.network import adjacency

__all__ = ["TorchLearner", "import_torch", "resolve_device", "board_geometry", "edge_geometry", "colour_geometry",
           "group_planes"]


def import_torch() -> Any:
    """``torch``, or an ImportError saying how to install it."""
    try:
        import torch
    except ImportError as e:
        raise ImportError(f"training needs PyTorch, which cannot be imported ({e}); install it with: "
                          "pip install 'hexcore[train]'") from None
    return torch


def resolve_device(device: str) -> str:
    """The device a learner is placed on for ``--device`` ``device``:
    ``"cpu"``, or ``"cuda"`` where PyTorch sees a GPU (``"auto"``; always
    for ``"cuda"``, which is a one-line ``ValueError`` beginning "no CUDA
    device" where it sees none)."""
    if device not in ("auto", "cpu", "cuda"):
        raise ValueError(f"--device must be one of auto, cpu, cuda; got {device!r}")
    if device == "cpu":
        return "cpu"
    try:
        torch = import_torch()
    except ImportError as e:
        if device == "auto":
            return "cpu"
        raise ValueError(f"no CUDA device: {e}") from None
    if torch.cuda.is_available():
        return "cuda"
    if device == "auto":
        return "cpu"
    built = "" if torch.version.cuda else "; this PyTorch is built without CUDA"
    raise ValueError(f"no CUDA device: PyTorch {torch.__version__} sees no GPU (torch.cuda.is_available() is False"
                     f"{built}); use --device cpu or --device auto")


def _build_mlp(torch: Any, shape: Tuple[int, int, int], num_actions: int, players: int, width: int, layers: int) -> Any:
    nn = torch.nn
    size = int(np.prod(shape))

    class Net(nn.Module):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            mods = [nn.Flatten(), nn.Linear(size, width), nn.ReLU()]
            for _ in range(layers):
                mods += [nn.Linear(width, width), nn.ReLU()]
            self.trunk = nn.Sequential(*mods)
            self.p_fc = nn.Linear(width, num_actions)
            self.v_fc = nn.Linear(width, players)

        def forward(self, x: Any) -> Tuple[Any, Any]:
            x = self.trunk(x)
            return self.p_fc(x), self.v_fc(x)

    return Net()


def board_geometry(game: Any) -> Dict[str, Any]:
    """What the ``features="groups"`` layer needs of ``game``'s board, for a
    learner's config: ``cells``, each cell's flat position in the
    observation grid, and ``neighbors``, each cell's neighbour ids."""
    board = game.board
    w = int(game.observation().shape[2])
    n = int(board.num_cells)
    return {"cells": [int(board.grid_pos(i)[0]) * w + int(board.grid_pos(i)[1]) for i in range(n)],
            "neighbors": [[int(j) for j in board.neighbors(i)] for i in range(n)]}


#: planes the "groups" features add to the observation per seat (see _build_groups), and in all
GROUP_PLANES_PER_SEAT = 6


def group_planes(players: int) -> int:
    """Planes the ``features="groups"`` layer adds for ``players`` seats."""
    return GROUP_PLANES_PER_SEAT * players + 1


def _build_groups(torch: Any, shape: Tuple[int, int, int], players: int, cells: Any, neighbors: Any) -> Any:
    """A fixed (not learned) layer: the observation planes, then per seat
    (planes ``0..players-1`` are the seats' stones, the mover's first, in
    every game's observation) its stones' group sizes, for each empty cell
    the size of the group a stone of that seat placed there would form, 1
    where such a stone would touch no friendly stone, 1 on the cells of
    smallest formed group (Churn's legal cells for that seat), the friendly
    stones such a stone would leave in groups strictly smaller (Churn
    removes them), the seat's stone count; and one plane of the empty
    cells' count. A cell is empty when none of those planes holds a stone
    (Quintun's neutral stones, in planes of their own, count as empty).
    Sizes and counts are divided by the number of cells.
    ``cells`` are the cells' flat grid positions, ``neighbors`` their
    neighbour lists (cell ids)."""
    nn = torch.nn
    c_in, h, w = shape
    n = len(cells)
    nb = np.full((n, 6), n, np.int64)   # padded with n: a cell off the board, never a stone
    for i, ns in enumerate(neighbors):
        nb[i, :len(ns)] = list(ns)

    class Groups(nn.Module):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("cells", torch.tensor(np.asarray(cells, np.int64)), persistent=False)
            self.register_buffer("nb", torch.from_numpy(nb), persistent=False)

        def forward(self, x: Any) -> Any:
            b = x.shape[0]
            flat = x.flatten(2)[:, :, self.cells]          # (B, C, N)
            stones = flat[:, :players] > 0.5                # (B, P, N)
            empty = ~stones.any(1)                          # (B, N)
            pad = torch.zeros(b, players, 1, dtype=torch.bool, device=x.device)
            stones_p = torch.cat([stones, pad], 2)          # (B, P, N + 1)
            ids = torch.arange(1, n + 1, dtype=x.dtype, device=x.device)
            big = float(n + 1)
            lab = torch.where(stones, ids, torch.full_like(flat[:, :players], big))
            for _ in range(n):                               # label propagation: the smallest id of the group
                lab_p = torch.cat([lab, torch.full_like(lab[:, :, :1], big)], 2)
                nbl = lab_p[:, :, self.nb]                   # (B, P, N, 6)
                new = torch.where(stones, torch.minimum(lab, nbl.min(3).values), lab)
                if torch.equal(new, lab):
                    break
                lab = new
            same = (lab[:, :, :, None] == lab[:, :, None, :]) & stones[:, :, None, :]   # (B, P, N, N)
            size = same.sum(3).to(x.dtype) * stones                                   # group size at each stone
            lab_p = torch.cat([lab, torch.full_like(lab[:, :, :1], big)], 2)
            nbl = lab_p[:, :, self.nb]                                                # (B, P, N, 6)
            nbs = stones_p[:, :, self.nb]                                             # friendly neighbour
            nbl = torch.where(nbs, nbl, torch.full_like(nbl, -1.0))
            touch = (nbl[:, :, :, :, None] == lab[:, :, None, None, :]).any(3) & stones[:, :, None, :]  # (B,P,N,N)
            form = (1 + touch.sum(3)).to(x.dtype) * empty[:, None]                    # group formed at an empty cell
            lonely = (~nbs.any(3)) & empty[:, None]
            big_form = torch.where(empty[:, None], form, torch.full_like(form, big))
            smallest = (big_form == big_form.min(2, keepdim=True).values) & empty[:, None]
            legal = torch.where(lonely.any(2, keepdim=True), lonely, smallest)
            smaller = (size[:, :, None, :] < form[:, :, :, None]) & stones[:, :, None, :] & ~touch
            removed = smaller.sum(3).to(x.dtype) * empty[:, None]
            count = stones.sum(2, keepdim=True).to(x.dtype).expand(-1, -1, n)
            per_seat = torch.stack([size / n, form / n, lonely.to(x.dtype), legal.to(x.dtype), removed / n, count / n], 2)
            feats = torch.cat([per_seat.flatten(1, 2), (empty.sum(1, keepdim=True).to(x.dtype) / n).expand(-1, n)[:, None]], 1)
            grid = torch.zeros(b, feats.shape[1], h * w, dtype=x.dtype, device=x.device)
            grid[:, :, self.cells] = feats
            return torch.cat([x, grid.view(b, -1, h, w)], 1)

    return Groups()


def edge_geometry(game: Any) -> Dict[str, Any]:
    """What the ``features="edges"`` layer needs of ``game``: the board's
    :func:`board_geometry` and ``pairs``, each seat's two goal sides (cell
    lists) from ``GameInfo.edges`` (Hex: x's top and bottom rows, o's left
    and right columns). ``ValueError`` for a game without goal sides."""
    from ..registry import info

    gi = info(game)
    sides = game.board.sides
    pairs = []
    edges = dict(gi.edges) if gi is not None else {}
    for seat in sorted(set(edges.values())):
        mine = [k for k, v in sorted(edges.items()) if v == seat]
        if len(mine) == 2:
            pairs.append([[int(c) for c in sides[mine[0]]], [int(c) for c in sides[mine[1]]]])
    if not pairs or gi is None or not gi.stone_planes:
        raise ValueError(f"features='edges' needs a connection game whose seats join two sides and whose first planes "
                         f"are the seats' stones (Hex); {game.spec} is not one")
    return {**board_geometry(game), "pairs": pairs}


#: planes the "edges" features add per goal-side pair: for each of the two stone planes, the stones joined to
#: one side, to the other, and the empty cells where a stone would join both
EDGE_PLANES_PER_PAIR = 6


def _build_edges(torch: Any, shape: Tuple[int, int, int], cells: Any, neighbors: Any, pairs: Any) -> Any:
    """A fixed (not learned) layer: the observation planes, then for each of
    the first two stone planes (the mover's stones, the opponent's) and each
    pair of goal sides (a seat's two edges): the stones joined through
    stones of that plane to the first side, to the second side, and the
    empty cells where a stone of that plane would join both (a winning
    move when the pair is the plane's own seat's; one to block when it is
    the other's). :func:`hexcore.agents.network.edge_planes` is the same
    in NumPy."""
    nn = torch.nn
    c_in, h, w = shape
    n = len(cells)
    adj = adjacency(neighbors)
    k = len(pairs)
    sides = np.zeros((2 * k, n), bool)   # row 2j: pair j's first side, 2j + 1: its second
    for j, (a, b) in enumerate(pairs):
        sides[2 * j, a] = True
        sides[2 * j + 1, b] = True

    class Edges(nn.Module):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("cells", torch.tensor(np.asarray(cells, np.int64)), persistent=False)
            self.register_buffer("adj", torch.from_numpy(adj), persistent=False)
            self.register_buffer("sides", torch.from_numpy(sides), persistent=False)

        def forward(self, x: Any) -> Any:
            b = x.shape[0]
            flat = x.flatten(2)[:, :, self.cells]                       # (B, C, N)
            stones = flat[:, :2] > 0.5                                   # (B, 2, N)
            empty = ~stones.any(1)                                       # (B, N)
            s = stones[:, :, None, :].expand(b, 2, 2 * k, n)             # every plane against every side
            r = _flood(torch, s, s & self.sides, self.adj)
            near = ((r.to(self.adj.dtype) @ self.adj) > 0) | self.sides  # beside a joined stone, or on the side
            joins = near[:, :, 0::2] & near[:, :, 1::2] & empty[:, None, None, :]
            planes = torch.stack([r[:, :, 0::2], r[:, :, 1::2], joins], 3)  # (B, 2, k, 3, N)
            feats = planes.reshape(b, 6 * k, n).to(x.dtype)
            grid = torch.zeros(b, feats.shape[1], h * w, dtype=x.dtype, device=x.device)
            grid[:, :, self.cells] = feats
            return torch.cat([x, grid.view(b, -1, h, w)], 1)

    return Edges()


def _flood(torch: Any, stones: Any, seeds: Any, adj: Any) -> Any:
    """The ``stones`` (boolean, cells last) joined through ``stones`` to a
    stone of ``seeds``: a flood fill along the board's adjacency ``adj``
    (a float (N, N) matrix). :func:`hexcore.agents.network.flood` is the same
    in NumPy. It steps on 0/1 floats, where the matrix products are exact (a
    third of the time of boolean steps on Quintun's colours)."""
    s, r = stones.to(adj.dtype), seeds.to(adj.dtype)
    for _ in range(adj.shape[0]):
        new = (r @ adj + r).clamp_(max=1.0).mul_(s)
        if torch.equal(new, r):
            break
        r = new
    return r > 0.5


def colour_geometry(game: Any) -> Dict[str, Any]:
    """What the ``features="colours"`` layer needs of ``game``: the board's
    :func:`board_geometry` and ``colours``, the observation planes of the
    neutral colours that the seats' groups connect (``GameInfo.colour_planes``).
    ``ValueError`` for a game without them."""
    from ..registry import info

    gi = info(game)
    if gi is None or not gi.colour_planes or not gi.stone_planes or int(game.num_players) != 2:
        raise ValueError(f"features='colours' needs a two-player game whose groups connect neutral colours "
                         f"(Quintun); {game.spec} is not one")
    return {**board_geometry(game), "colours": [int(c) for c in gi.colour_planes]}


def colour_plane_count(colours: Any) -> int:
    """Planes the "colours" features add for ``colours`` neutral colour planes:
    for each of the two stone planes, the stones joined to each colour, the
    number of colours each stone's group touches, and the number a stone
    would touch on each empty cell."""
    return 2 * (len(colours) + 2)


def _build_colours(torch: Any, shape: Tuple[int, int, int], cells: Any, neighbors: Any, colours: Any) -> Any:
    """A fixed (not learned) layer: the observation planes, then for each of
    the first two stone planes (the mover's stones, the opponent's): for each
    neutral colour (the observation planes ``colours``), the stones joined
    through stones of that plane to a stone beside that colour; the number of
    colours each stone's group touches; and on each empty cell (no stone, no
    neutral) the number of colours a stone of that plane placed there would
    touch (counts divided by the number of colours: Quintun's win is one
    group touching four, or two groups touching three each).
    :func:`hexcore.agents.network.colour_planes` is the same in NumPy."""
    nn = torch.nn
    c_in, h, w = shape
    n, k = len(cells), len(colours)
    adj = adjacency(neighbors)

    scatter = np.zeros((n, h * w), np.float32)   # a cell's value to its grid position, as a matrix product
    scatter[np.arange(n), np.asarray(cells, np.int64)] = 1.0

    class Colours(nn.Module):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("cells", torch.tensor(np.asarray(cells, np.int64)), persistent=False)
            self.register_buffer("colours", torch.tensor(np.asarray(colours, np.int64)), persistent=False)
            self.register_buffer("adj", torch.from_numpy(adj), persistent=False)
            self.register_buffer("scatter", torch.from_numpy(scatter), persistent=False)

        def forward(self, x: Any) -> Any:
            # 0/1 floats throughout (matrix products are exact on them)
            b = x.shape[0]
            flat = x.flatten(2).index_select(2, self.cells)                    # (B, C, N)
            stones = (flat[:, :2] > 0.5).to(x.dtype)                            # (B, 2, N)
            neutral = (flat.index_select(1, self.colours) > 0.5).to(x.dtype)    # (B, K, N)
            empty = 1.0 - (stones.sum(1) + neutral.sum(1)).clamp(max=1.0)       # (B, N)
            beside = (neutral @ self.adj).clamp(max=1.0)                        # (B, K, N): cells beside each colour
            s = stones[:, :, None, :].expand(b, 2, k, n)
            r = _flood(torch, s, s * beside[:, None], self.adj).to(x.dtype)   # (B, 2, K, N)
            near = (r @ self.adj + beside[:, None]).clamp(max=1.0)
            touched = r.sum(2) / k                                              # (B, 2, N)
            would = (near * empty[:, None, None]).sum(2) / k                    # (B, 2, N)
            feats = torch.cat([r.reshape(b, 2 * k, n), touched, would], 1)
            return torch.cat([x, (feats @ self.scatter).view(b, -1, h, w)], 1)

    return Colours()


def _build(torch: Any, shape: Tuple[int, int, int], num_actions: int, players: int, channels: int, blocks: int,
           net: str = "resnet", features: str = "none", cells: Any = None, neighbors: Any = None,
           pairs: Any = None, colours: Any = None) -> Any:
    if features == "groups":
        groups = _build_groups(torch, shape, players, cells, neighbors)
        wide = (shape[0] + group_planes(players), shape[1], shape[2])
        return torch.nn.Sequential(groups, _build(torch, wide, num_actions, players, channels, blocks, net))
    if features == "edges":
        edges = _build_edges(torch, shape, cells, neighbors, pairs)
        wide = (shape[0] + EDGE_PLANES_PER_PAIR * len(pairs), shape[1], shape[2])
        return torch.nn.Sequential(edges, _build(torch, wide, num_actions, players, channels, blocks, net))
    if features == "colours":
        layer = _build_colours(torch, shape, cells, neighbors, colours)
        wide = (shape[0] + colour_plane_count(colours), shape[1], shape[2])
        return torch.nn.Sequential(layer, _build(torch, wide, num_actions, players, channels, blocks, net))
    if features != "none":
        raise ValueError(f"features must be 'none', 'groups', 'edges' or 'colours', got {features!r}")
    if net == "mlp":
        return _build_mlp(torch, shape, num_actions, players, channels, blocks)
    if net != "resnet":
        raise ValueError(f"net must be 'resnet' or 'mlp', got {net!r}")
    nn = torch.nn
    c_in, h, w = shape

    class Block(nn.Module):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.c1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.b1 = nn.BatchNorm2d(channels)
            self.c2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
            self.b2 = nn.BatchNorm2d(channels)

        def forward(self, x: Any) -> Any:
            y = torch.relu(self.b1(self.c1(x)))
            return torch.relu(x + self.b2(self.c2(y)))

    class Net(nn.Module):  # type: ignore[misc, name-defined, unused-ignore]
        def __init__(self) -> None:
            super().__init__()
            self.stem = nn.Sequential(nn.Conv2d(c_in, channels, 3, padding=1, bias=False), nn.BatchNorm2d(channels),
                                      nn.ReLU())
            self.blocks = nn.Sequential(*[Block() for _ in range(blocks)])
            self.p_conv = nn.Sequential(nn.Conv2d(channels, 4, 1), nn.ReLU())
            self.p_fc = nn.Linear(4 * h * w, num_actions)
            self.v_conv = nn.Sequential(nn.Conv2d(channels, 2, 1), nn.ReLU())
            self.v_fc = nn.Sequential(nn.Linear(2 * h * w, 64), nn.ReLU(), nn.Linear(64, players))

        def forward(self, x: Any) -> Tuple[Any, Any]:
            x = self.blocks(self.stem(x))
            return self.p_fc(self.p_conv(x).flatten(1)), self.v_fc(self.v_conv(x).flatten(1))

    return Net()


class TorchLearner:
    """The network, its optimiser and one training step. ``config`` holds
    ``shape``, ``num_actions``, ``players``, ``net`` (``"resnet"``, the
    default, or ``"mlp"``), ``features`` (``"none"``, the default,
    ``"groups"`` with ``cells`` and ``neighbors``, ``"edges"`` with
    ``pairs`` too, or ``"colours"`` with ``colours`` too), ``channels``,
    ``blocks``, ``lr``, ``weight_decay`` and ``threads``; ``seed`` sets the
    initial weights. The learner starts on the CPU; :meth:`to` moves the network
    and the optimiser to another device (the training loop's ``--device``),
    where it then trains and evaluates (inputs and outputs stay NumPy
    arrays on the CPU). The device is not part of its state: a checkpoint
    written on a GPU loads on the CPU."""

    #: values are the mover's first (see the module's notes)
    relative_values = True

    def __init__(self, config: Dict[str, Any], seed: int = 0) -> None:
        torch = import_torch()
        self.torch = torch
        self.config = dict(config)
        # One intra-op thread: on these small inputs more threads only spin against the search's own
        # threads (measured on a loaded 2-core machine: 23 ms a batch of 64 on one thread, 930 ms on two).
        torch.set_num_threads(1)
        torch.manual_seed(seed % 2**63)
        self.net = _build(torch, tuple(config["shape"]), int(config["num_actions"]), int(config["players"]),
                          int(config.get("channels", 32)), int(config.get("blocks", 2)), str(config.get("net", "resnet")),
                          str(config.get("features", "none")), config.get("cells"), config.get("neighbors"),
                          config.get("pairs"), config.get("colours"))
        self.opt = torch.optim.AdamW(self.net.parameters(), lr=float(config.get("lr", 2e-3)),
                                     weight_decay=float(config.get("weight_decay", 1e-4)))
        self.device = torch.device("cpu")
        self.net.eval()

    def to(self, device: str) -> "TorchLearner":
        """Moves the network and the optimiser's state to ``device``
        (``"cpu"``, ``"cuda"``); returns the learner."""
        torch = self.torch
        self.device = torch.device(device)
        self.net.to(self.device)
        for st in self.opt.state.values():
            for k, v in st.items():
                if torch.is_tensor(v) and k != "step":   # AdamW keeps its step count on the CPU
                    st[k] = v.to(self.device)
        return self

    def _tensor(self, a: Any, dtype: Any) -> Any:
        # a copy: the search's arrays are read-only, which torch.from_numpy warns of
        return self.torch.from_numpy(np.array(a, dtype)).to(self.device, non_blocking=True)

    # -- the evaluator contract of hexcore.search.batched_search
    def __call__(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_]) -> Tuple[Any, Any]:
        torch = self.torch
        with torch.inference_mode():
            logits, v = self.net(self._tensor(obs, np.float32))
            m = self._tensor(masks, bool)
            logits = logits.masked_fill(~m, -1e9)
            p = torch.softmax(logits, dim=1) * m
            return p.cpu().numpy(), torch.softmax(v, dim=1).cpu().numpy()

    def set_lr(self, lr: float) -> None:
        """Changes the optimiser's learning rate (a resumed run's schedule)."""
        for group in self.opt.param_groups:
            group["lr"] = lr
        self.config = dict(self.config, lr=lr)

    def train_step(self, obs: npt.NDArray[np.float32], masks: npt.NDArray[np.bool_], policies: npt.NDArray[np.float32],
                   values: npt.NDArray[np.float32], seed: int) -> Dict[str, float]:
        torch = self.torch
        torch.manual_seed(seed % 2**63)
        self.net.train()
        x, m = self._tensor(obs, np.float32), self._tensor(masks, bool)
        pt, vt = self._tensor(policies, np.float32), self._tensor(values, np.float32)
        logits, v = self.net(x)
        logp = torch.log_softmax(logits.masked_fill(~m, -1e9), dim=1)
        policy_loss = -(pt * logp.masked_fill(~m, 0.0)).sum(dim=1).mean()
        value_loss = -(vt * torch.log_softmax(v, dim=1)).sum(dim=1).mean()
        loss = policy_loss + value_loss
        self.opt.zero_grad(set_to_none=True)
        loss.backward()
        self.opt.step()
        self.net.eval()
        with torch.no_grad():
            # the part of the losses that learning can remove: minus the targets' own entropy
            pe = -(pt * torch.log(pt.clamp_min(1e-12))).sum(dim=1).mean()
            ve = -(vt * torch.log(vt.clamp_min(1e-12))).sum(dim=1).mean()
        return {"loss": float(loss.detach()), "policy_loss": float(policy_loss.detach()), "value_loss": float(value_loss.detach()),
                "policy_kl": float(policy_loss.detach() - pe), "value_kl": float(value_loss.detach() - ve)}

    # -- checkpoints: plain bytes, so the checkpoint file needs no torch to be read
    def state(self) -> Dict[str, Any]:
        buf = io.BytesIO()
        self.torch.save({"net": self.net.state_dict(), "opt": self.opt.state_dict()}, buf)
        return {"config": self.config, "torch": buf.getvalue()}

    def weights(self) -> Dict[str, Any]:
        """What a copy that only evaluates needs: :meth:`state` without the
        optimiser (a third of its size with AdamW), read by
        :meth:`from_state` too. Self-play actors get these."""
        buf = io.BytesIO()
        self.torch.save({"net": self.net.state_dict()}, buf)
        return {"config": self.config, "torch": buf.getvalue()}

    @classmethod
    def from_state(cls, state: Dict[str, Any]) -> "TorchLearner":
        """The learner of :meth:`state` (or :meth:`weights`: a fresh
        optimiser), on the CPU whatever device wrote it."""
        learner = cls(state["config"])
        d = learner.torch.load(io.BytesIO(state["torch"]), map_location="cpu", weights_only=True)
        learner.net.load_state_dict(d["net"])
        if "opt" in d:
            learner.opt.load_state_dict(d["opt"])
        learner.net.eval()
        return learner
