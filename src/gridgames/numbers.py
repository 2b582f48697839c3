"""Numbers as the games take them, shared by the Gomoku family and N-Queens."""

from __future__ import annotations

import math
import operator
from numbers import Integral, Real

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


def is_number(value: object, *, finite: bool = True) -> bool:
    """Whether ``value`` is a real number (not a bool), and a ``finite`` one if asked:
    NaN and the infinities pass every comparison's test wrongly or fail them all.

    >>> is_number(3), is_number(2.5), is_number(True), is_number(float("nan"))
    (True, True, False, False)
    >>> is_number(float("inf"), finite=False)
    True
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        return False
    return not finite or isinstance(value, Integral) or math.isfinite(value)
