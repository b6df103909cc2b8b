"""Files written whole or not at all: a write that fails (a full disk,
Ctrl-C) leaves no partly written file behind."""
from __future__ import annotations

import contextlib
import os
from typing import IO, Any, Callable, Iterator, Optional, Union

__all__ = ["new_file"]


@contextlib.contextmanager
def new_file(path: Union[str, "os.PathLike[str]"], mode: str = "w", opener: Optional[Callable[..., IO[Any]]] = None,
             **kwargs: Any) -> Iterator[IO[Any]]:
    """``opener(path, mode, **kwargs)`` (default: ``open``) as a context
    manager that removes the file when anything fails once it is open, the
    final flush and close included (a special file such as ``/dev/full`` is
    never removed; a file that could not be opened is left as it was)."""
    f = (open if opener is None else opener)(path, mode, **kwargs)
    try:
        with f:
            yield f
    except BaseException:
        if os.path.isfile(path):
            os.unlink(path)
        raise
