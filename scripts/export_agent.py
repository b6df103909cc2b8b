"""Writes a training run's network as a shipped agent (NumPy arrays).

    python scripts/export_agent.py RUN_DIR [RUN_DIR ...] python/hexcore/agents/weights/NAME.npz \
        --command "python -m hexcore train ..." [--strength JSON]

Several runs (or checkpoints) of one game make one ensemble network, which
averages their policy and value logits. The file keeps the game's spec, the training step, games and CPU seconds,
the run's settings, the command given and the measured strength
(``hexcore.agents.info(spec)`` reads them back).
"""
from __future__ import annotations

import argparse
import json

from hexcore.train.export import export_agent, export_ensemble


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="a run folder or checkpoint; several: an ensemble of their networks")
    ap.add_argument("out", help="the .npz file to write")
    ap.add_argument("--command", required=True, help="the exact training command")
    ap.add_argument("--strength", default="{}", help="the measured strength, as JSON")
    ap.add_argument("--half", action="store_true", help="store the weights as float16 (half the file)")
    a = ap.parse_args()
    strength = json.loads(a.strength)
    if len(a.runs) == 1:
        print(export_agent(a.runs[0], a.out, command=a.command, strength=strength, half=a.half))
    else:
        print(export_ensemble(a.runs, a.out, command=a.command, strength=strength, half=a.half))


if __name__ == "__main__":
    main()
