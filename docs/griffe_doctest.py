"""Griffe extension for the API reference: the docstrings' doctest examples
(``>>>`` lines and their expected output, up to the next blank line) are shown
as Python console code blocks instead of being read as Markdown text."""
from __future__ import annotations

from typing import Any, List

import griffe


def fence_doctests(text: str) -> str:
    out: List[str] = []
    in_fence = in_example = False
    for line in text.splitlines():
        stripped = line.lstrip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if not in_fence and not in_example and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            in_example = True
        elif in_example and not stripped:
            out.append(f"{indent}```")
            in_example = False
        out.append(line)
    if in_example:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
