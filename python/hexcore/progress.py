"""The progress bar every long command shows on a terminal (tqdm when it is
installed): the CLI's perft, match and solve, and the Ray driver loop."""
from __future__ import annotations

import sys
import time
from typing import Any, Optional

__all__ = ["Bar"]


class Bar:
    """A progress bar on stderr over ``total`` steps (None: no known total,
    a status line only), shown when ``show`` is True, or when None and stderr
    is a terminal."""

    def __init__(self, total: Optional[int], what: str = "", show: Optional[bool] = None) -> None:
        self.on = sys.stderr.isatty() if show is None else show
        self.total, self.what, self.t0 = total, what, time.perf_counter()
        self._tqdm: Any = None
        if self.on and total is not None:
            try:
                from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

                self._tqdm = tqdm(total=total, desc=what, unit="unit", file=sys.stderr)
            except ImportError:
                pass

    def update(self, done: int, note: str = "") -> None:
        if not self.on:
            return
        if self._tqdm is not None:
            self._tqdm.n = done
            self._tqdm.set_postfix_str(note, refresh=True)
            return
        el = time.perf_counter() - self.t0
        if self.total is None:
            sys.stderr.write(f"\r{self.what}{el:7.1f} s  {note}")
        else:
            width = 30
            filled = int(width * done / max(self.total, 1))
            sys.stderr.write(f"\r{self.what} [{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {el:6.1f}s {note}")
        sys.stderr.flush()

    def close(self) -> None:
        if self._tqdm is not None:
            self._tqdm.close()
        elif self.on:
            sys.stderr.write("\n")
            sys.stderr.flush()
