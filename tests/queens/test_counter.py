from __future__ import annotations

import itertools

import pytest

from gridgames.queens import count_solutions, solutions

from .oracle import is_solution

KNOWN = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]


@pytest.mark.parametrize(("n", "expected"), list(enumerate(KNOWN, start=1)))
def test_known_counts(n: int, expected: int) -> None:
    assert count_solutions(n) == expected


def brute_force(n: int) -> list[list[tuple[int, int]]]:
    """All solutions by trying every permutation of columns (small n only)."""
    return [
        list(enumerate(columns))
        for columns in itertools.permutations(range(n))
        if is_solution(n, enumerate(columns))
    ]


@pytest.mark.parametrize("n", range(1, 9))
def test_solutions_match_brute_force(n: int) -> None:
    # permutations() yields in lexicographic order, as solutions() promises to.
    assert list(solutions(n)) == brute_force(n)


@pytest.mark.parametrize("n", [9, 10])
def test_solutions_valid_distinct_and_counted(n: int) -> None:
    found = list(solutions(n))
    assert len(found) == count_solutions(n)
    assert len({tuple(s) for s in found}) == len(found)
    assert all(is_solution(n, s) for s in found)
    assert found == sorted(found)


def test_small_batches_resume_correctly() -> None:
    assert list(solutions(8, batch=3)) == list(solutions(8))


def test_solutions_is_lazy() -> None:
    first = next(solutions(20))
    assert is_solution(20, first)


@pytest.mark.parametrize("n", [0, -1, 63, 1.5])
def test_bad_sizes(n: object) -> None:
    with pytest.raises(ValueError, match="board size"):
        count_solutions(n)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="board size"):
        next(solutions(n))  # type: ignore[arg-type]


@pytest.mark.parametrize("batch", ["x", 1.5, 0, None])
def test_a_bad_batch_is_named(batch: object) -> None:
    """"x" was "'<' not supported between instances of 'str' and 'int'"."""
    with pytest.raises(ValueError, match="batch must be a whole number of 1 or more, not"):
        next(solutions(8, batch=batch))  # type: ignore[arg-type]


def test_a_cluster_that_is_not_an_address_is_named() -> None:
    """It was AttributeError: 'int' object has no attribute 'strip'."""
    with pytest.raises(TypeError, match="cluster is a Ray address"):
        count_solutions(8, cluster=5)  # type: ignore[arg-type]
