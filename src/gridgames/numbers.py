"""Numbers as the games take them, shared by the Gomoku family and N-Queens."""

from __future__ import annotations

import operator

import numpy as np


def as_whole(value: object) -> int | None:
    """``value`` as a plain int if it is an integer (numpy's too), else ``None``; a bool,
    though Python counts it an int, is not a number here.

    >>> as_whole(np.int64(3)), as_whole(3.0), as_whole(True), as_whole("3")
    (3, None, None, None)
    """
    if isinstance(value, bool | np.bool_):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        return None
