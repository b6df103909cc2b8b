"""What the commands share: loading a game from the command line, the
output-file checks, the Ray switches and the error every command reports as
one line. The progress bar is ``hexcore.progress``."""
from __future__ import annotations

import argparse
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from ..errors import TooManyMovesError
from ..spec import load


def game(spec: str, moves: Optional[Sequence[str]] = None) -> Any:
    g = load(spec)
    for m in moves or []:
        g.play(m)
    return g


def root_moves(g: Any) -> Optional[List[str]]:
    """The root moves to show progress over, or None when there are none or
    too many to list (then perft runs without a progress bar)."""
    if g.is_over or g.pending_actions:
        return None
    try:
        moves: List[str] = g.legal_moves()
    except TooManyMovesError:
        return None
    return moves


def ray_module() -> Any:
    try:
        from .. import distributed
    except ImportError as e:
        raise CommandError(f"--backend ray needs the ray package, which cannot be imported ({e}); "
                           "install it with: pip install 'hexcore[ray]'") from None
    return distributed


class CommandError(Exception):
    """An error the command line reports as one line."""


def check_output(path: Optional[str], flag: str) -> None:
    """Refuse an output file that cannot be written, before a long run starts."""
    if not path:
        return
    parent = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise CommandError(f"{flag} {path}: is a directory")
    if not os.path.isdir(parent):
        raise CommandError(f"{flag} {path}: the directory {parent} does not exist")
    if not os.access(path if os.path.exists(path) else parent, os.W_OK):
        raise CommandError(f"{flag} {path}: not writable")


def write_json(path: str, data: Any) -> None:
    """Write ``data`` to ``path``; if that fails after all, save it to a new
    file in the temporary directory (a finished run is never lost) and
    report both."""
    try:
        with open(path, "w") as f:
            json.dump(data, f, indent=1)
    except OSError as e:
        fd, saved = tempfile.mkstemp(prefix="hexcore-", suffix=".json")
        with os.fdopen(fd, "w") as f:
            json.dump(data, f, indent=1)
        raise CommandError(f"cannot write {path}: {e.strerror or e}; the results were saved to {saved}") from None
    print(f"results written to {path}")


def ray_job(args: argparse.Namespace) -> Dict[str, Any]:
    """The job arguments of ``--ray`` (address, checkpoint, tasks)."""
    return {"address": args.address, "checkpoint": args.checkpoint, "tasks": args.tasks}


def use_ray(args: argparse.Namespace) -> bool:
    use = bool(args.ray or args.backend == "ray")
    if not use and (args.address or args.checkpoint or args.tasks):
        raise CommandError("--address, --checkpoint and --tasks need --ray")
    return use


def one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text or type(e).__name__

