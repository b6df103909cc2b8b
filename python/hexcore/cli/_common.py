"""What the commands share: loading a game from the command line, the
output-file checks, the Ray switches and the error every command reports as
one line. The progress bar is ``hexcore.progress``."""
from __future__ import annotations

import argparse
import json
import os
import tempfile
from typing import Any, Dict, List, Optional, Sequence

from .._args import THREADS_HELP
from .._files import new_file
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
        raise CommandError(f"--ray needs the ray package, which cannot be imported ({e}); "
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


def write_new(path: str, text: str) -> None:
    """Write ``text`` to the file ``path``; on any failure (a full disk,
    Ctrl-C) the partly written file is removed and the error raised."""
    with new_file(path, "w", encoding="utf-8") as f:
        f.write(text)


class OutputSaved(CommandError):
    """An output that could not be written to ``path`` and was saved to
    ``saved`` (a new file in the temporary directory) instead."""

    def __init__(self, path: str, reason: str, saved: str, what: str) -> None:
        super().__init__(f"cannot write {path}: {reason}; the {what} {'were' if what.endswith('s') else 'was'} "
                         f"saved to {saved}")
        self.path, self.reason, self.saved = path, reason, saved


def save_output(path: str, text: str, what: str = "results", suffix: Optional[str] = None) -> None:
    """Write ``text`` to ``path``; if that fails after all (an unwritable or
    full target), leave no partial file there, save ``text`` to a new file in
    the temporary directory (a finished run is never lost, whatever it
    took) and raise :class:`OutputSaved` saying where. ``what`` names the
    text in that message ("results", "report"); ``suffix`` ends the
    temporary file's name (default: that of ``path``)."""
    try:
        write_new(path, text)
    except OSError as e:
        reason = e.strerror or str(e)
        try:
            fd, saved = tempfile.mkstemp(prefix="hexcore-", suffix=suffix or os.path.splitext(path)[1] or ".txt")
            os.close(fd)
            write_new(saved, text)
        except OSError as e2:
            raise CommandError(f"cannot write {path}: {reason}; nor a temporary file ({e2.strerror or e2}): "
                               f"the {what} {'are' if what.endswith('s') else 'is'} lost") from None
        raise OutputSaved(path, reason, saved, what) from None


def write_json(path: str, data: Any) -> None:
    """Write ``data`` as JSON to ``path`` (or to a temporary file, see
    :func:`save_output`) and say where."""
    save_output(path, json.dumps(data, indent=1), suffix=".json")
    print(f"results written to {path}")


def add_threads_argument(p: argparse.ArgumentParser, use: str) -> None:
    """The ``--threads`` flag of a command: the CPU threads it may use
    (:data:`hexcore._args.THREADS_HELP`; not given: one per core, as the
    core resolves it); ``use`` says how the command spends them."""
    p.add_argument("--threads", type=int, default=None, metavar="N", help=f"{THREADS_HELP}: {use}")


def add_ray_arguments(p: argparse.ArgumentParser, split: str) -> None:
    """The Ray switches of a command; ``split`` says how its work is divided."""
    p.add_argument("--ray", action="store_true", help=f"run on a Ray cluster ({split}), with a progress bar")
    p.add_argument("--address", help="with --ray: the cluster to join (e.g. auto); default: a local Ray")
    p.add_argument("--checkpoint", help="with --ray: record finished units in this file and resume from it")
    p.add_argument("--tasks", type=int, help="with --ray: the number of tasks (default 4 per cluster CPU, at most 1000)")


def ray_job(args: argparse.Namespace) -> Dict[str, Any]:
    """The job arguments of ``--ray`` (address, checkpoint, tasks)."""
    return {"address": args.address, "checkpoint": args.checkpoint, "tasks": args.tasks}


def use_ray(args: argparse.Namespace) -> bool:
    use = bool(args.ray)
    if not use and (args.address or args.checkpoint or args.tasks):
        raise CommandError("--address, --checkpoint and --tasks need --ray")
    return use


def one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text or type(e).__name__

