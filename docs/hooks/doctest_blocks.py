"""A griffe extension for the API reference: doctest examples become code blocks,
and Sphinx roles (``:func:`warm_up```) plain code.

The docstrings carry ``>>>`` examples (they run as doctests) in plain text. In
Markdown an example's output such as ``[1, 0, 0, 2]`` on the line after
``[count(n) for n in ...]`` would read as a reference link, so each example, from
its first ``>>>`` line to the next blank line, is fenced as a ``pycon`` block.
"""

from __future__ import annotations

import re
from typing import Any

import griffe


def fence_examples(text: str) -> str:
    out: list[str] = []
    in_example = False
    in_fence = False
    indent = ""
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


SPHINX_ROLE = re.compile(r":(?:func|class|mod|meth|data|attr|exc|obj):`~?\.?([^`]+)`")


class DoctestBlocks(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is None:
            return
        text = SPHINX_ROLE.sub(r"`\1`", obj.docstring.value)
        obj.docstring.value = fence_examples(text) if ">>>" in text else text
