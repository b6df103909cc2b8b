"""Writes a training run's network as a shipped agent (NumPy arrays).

    python scripts/export_agent.py RUN_DIR python/hexcore/agents/weights/NAME.npz \
        --command "python -m hexcore train ..." [--strength JSON]

The file keeps the game's spec, the training step, games and CPU seconds,
the run's settings, the command given and the measured strength
(``hexcore.agents.info(spec)`` reads them back).
"""
from __future__ import annotations

import argparse
import json

from hexcore.train.export import export_agent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="a run folder or checkpoint")
    ap.add_argument("out", help="the .npz file to write")
    ap.add_argument("--command", required=True, help="the exact training command")
    ap.add_argument("--strength", default="{}", help="the measured strength, as JSON")
    a = ap.parse_args()
    print(export_agent(a.run, a.out, command=a.command, strength=json.loads(a.strength)))


if __name__ == "__main__":
    main()
