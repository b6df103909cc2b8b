"""Training checkpoints: one file per save, written atomically.

A checkpoint is written to a temporary file in the same folder, flushed to
disk, then renamed over its final name (``step-00000123.ckpt``), so a crash
mid-write leaves the earlier checkpoints as they were and at worst a stray
``.tmp`` file. The newest ``keep`` checkpoints are kept.

The file is a magic line, the payload's length (8 bytes) and SHA-256
digest (32 bytes), then the payload: a pickle of plain data (numpy arrays,
numbers, strings, the learner's bytes). A flipped byte anywhere is refused
by name (:class:`CheckpointError`); files of the first layout, without the
digest, are still read. Like ``torch.load``, reading a
checkpoint runs pickle: load only checkpoints you trust.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import re
from typing import Any, Dict, List, Optional

__all__ = ["MAGIC", "CheckpointError", "save_checkpoint", "load_checkpoint", "list_checkpoints", "latest_checkpoint"]

MAGIC = b"HEXCORE-TRAIN-CHECKPOINT 2\n"
_MAGIC_V1 = b"HEXCORE-TRAIN-CHECKPOINT 1\n"
_NAME = re.compile(r"^step-(\d{8,})\.ckpt$")


class CheckpointError(ValueError):
    """A checkpoint that cannot be read: not a checkpoint, truncated or corrupt."""


def checkpoint_dir(out: str) -> str:
    return os.path.join(out, "checkpoints")


def list_checkpoints(out: str) -> List[str]:
    """The checkpoint files of run folder ``out``, oldest first."""
    d = checkpoint_dir(out)
    if not os.path.isdir(d):
        return []
    found = sorted((int(m.group(1)), name) for name in os.listdir(d) if (m := _NAME.match(name)))
    return [os.path.join(d, name) for _, name in found]


def latest_checkpoint(out: str) -> Optional[str]:
    cks = list_checkpoints(out)
    return cks[-1] if cks else None


def save_checkpoint(out: str, step: int, data: Dict[str, Any], keep: int = 5) -> str:
    """Writes ``data`` as the checkpoint of ``step`` in run folder ``out``
    (atomically) and removes all but the newest ``keep``; returns its path."""
    d = checkpoint_dir(out)
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, f"step-{step:08d}.ckpt")
    tmp = path + ".tmp"
    payload = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    with open(tmp, "wb") as f:
        f.write(MAGIC)
        f.write(len(payload).to_bytes(8, "little"))
        f.write(hashlib.sha256(payload).digest())
        f.write(payload)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass
    for old in list_checkpoints(out)[:-keep]:
        os.remove(old)
    return path


def load_checkpoint(path: str) -> Dict[str, Any]:
    """Reads a checkpoint file, or the newest checkpoint of a run folder.

    Raises ``FileNotFoundError`` naming the path when there is none and
    :class:`CheckpointError` (a ``ValueError``) when the file is not a
    complete hexcore checkpoint."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"a checkpoint path must be a string, got {type(path).__name__}")
    path = os.fspath(path)
    if os.path.isdir(path):
        found = latest_checkpoint(path)
        if found is None:
            raise FileNotFoundError(f"no checkpoint in {path} (expected {checkpoint_dir(path)}/step-*.ckpt)")
        path = found
    if not os.path.exists(path):
        raise FileNotFoundError(f"checkpoint {path} does not exist")
    with open(path, "rb") as f:
        head = f.read(len(MAGIC))
        if head not in (MAGIC, _MAGIC_V1):
            raise CheckpointError(f"{path} is not a hexcore training checkpoint (wrong header)")
        size = int.from_bytes(f.read(8), "little")
        digest = f.read(32) if head == MAGIC else None
        payload = f.read()
    if len(payload) != size or (digest is not None and len(digest) != 32):
        raise CheckpointError(f"checkpoint {path} is truncated ({len(payload)} of {size} bytes); "
                              "remove it to resume from the one before")
    if digest is not None and hashlib.sha256(payload).digest() != digest:
        raise CheckpointError(f"checkpoint {path} is corrupt (its checksum does not match); "
                              "remove it to resume from the one before")
    try:
        data = pickle.loads(payload)
    except Exception as e:  # noqa: BLE001 - any unpickling failure means a corrupt file
        raise CheckpointError(f"checkpoint {path} is corrupt ({type(e).__name__}: {e}); "
                              "remove it to resume from the one before") from None
    if not isinstance(data, dict) or data.get("format") != 1:
        raise CheckpointError(f"checkpoint {path} has an unknown layout")
    data["path"] = path
    return data
