"""Pictures of a run from its ``metrics.jsonl`` (matplotlib, PNG)."""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List

__all__ = ["read_metrics", "write_plots"]


def read_metrics(out: str) -> List[Dict[str, Any]]:
    path = os.path.join(out, "metrics.jsonl")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_plots(out: str) -> List[str]:
    """Writes ``losses.png``, ``win_rate.png`` and ``mistakes.png`` (those
    with data) in ``out``; returns their paths. ImportError without
    matplotlib."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_metrics(out)
    written = []
    train = [r for r in rows if r["kind"] == "train"]
    evals = [r for r in rows if r["kind"] == "eval"]

    def save(fig: Any, name: str) -> None:
        path = os.path.join(out, name)
        fig.tight_layout()
        fig.savefig(path + ".tmp.png", dpi=100)
        os.replace(path + ".tmp.png", path)
        plt.close(fig)
        written.append(path)

    if train:
        fig, ax = plt.subplots(figsize=(7, 4))
        steps = [r["step"] for r in train]
        for key, label in (("loss", "total"), ("policy_loss", "policy"), ("value_loss", "value"),
                           ("policy_kl", "policy (minus target entropy)"), ("value_kl", "value (minus target entropy)")):
            if key in train[0]:
                ax.plot(steps, [r[key] for r in train], label=label)
        ax.set_xlabel("training step")
        ax.set_ylabel("cross-entropy")
        ax.set_title("training losses")
        ax.legend()
        ax.grid(alpha=0.3)
        save(fig, "losses.png")
    wr = sorted({k for r in evals for k in r if k.startswith("win_rate_vs_")})
    if wr:
        fig, ax = plt.subplots(figsize=(7, 4))
        for k in wr:
            pts = [(r["step"], r[k]) for r in evals if k in r]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=k[len("win_rate_vs_"):])
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("training step")
        ax.set_ylabel("win rate")
        ax.set_title("win rate against fixed opponents")
        ax.legend()
        ax.grid(alpha=0.3)
        save(fig, "win_rate.png")
    mk = [r for r in evals if "mistake_rate_net" in r]
    if mk:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([r["step"] for r in mk], [r["mistake_rate_net"] for r in mk], marker="o", label="network alone")
        ax.plot([r["step"] for r in mk], [r["mistake_rate_search"] for r in mk], marker="o",
                label=f"with {mk[-1].get('eval_simulations', '?')} simulations")
        va = [r for r in mk if "value_accuracy" in r]
        if va:
            ax.plot([r["step"] for r in va], [1 - r["value_accuracy"] for r in va], marker="o", linestyle="--",
                    label="value head wrong (after each move)")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("training step")
        ax.set_ylabel("share of positions")
        ax.set_title("against the solver: mistakes (a win turned into a loss)")
        ax.legend()
        ax.grid(alpha=0.3)
        save(fig, "mistakes.png")
    return written
