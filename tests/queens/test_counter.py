from __future__ import annotations

import itertools

import pytest

from gridgames.queens import count_solutions, solutions
from gridgames.queens.counter import CountProgress, count_progress, count_subproblems, split

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


@pytest.mark.parametrize("n", range(1, 13))
def test_counting_in_steps_ends_with_the_total(n: int) -> None:
    steps = list(count_progress(n, step=1e-6))  # as many steps as the budget allows
    assert steps[-1] == CountProgress(KNOWN[n - 1], 1.0, True)
    assert [step.finished for step in steps] == [False] * (len(steps) - 1) + [True]


def test_progress_grows_step_by_step() -> None:
    steps = list(count_progress(13, step=1e-6))
    assert len(steps) > 10
    shares = [step.searched for step in steps]
    found = [step.solutions for step in steps]
    assert shares == sorted(shares) and 0 < shares[0] < 0.5 and shares[-2] < 1
    assert found == sorted(found) and found[-1] == KNOWN[12]


def test_a_count_stopped_early_is_a_partial_count() -> None:
    steps = count_progress(14, step=1e-6)
    partial = next(itertools.islice(steps, 5, None))
    steps.close()
    assert not partial.finished and 0 < partial.solutions < KNOWN[13]
    assert 0 < partial.searched < 1


def test_the_share_searched_tracks_the_solutions_found() -> None:
    """The parts are searched in a shuffled order, so that the share searched is a fair
    estimate: a count stopped halfway has about half the solutions."""
    for step in count_progress(14, step=1e-3):
        if step.searched >= 0.5:
            break
    assert 0.4 < step.solutions / KNOWN[13] / step.searched < 1.6


@pytest.mark.parametrize("step", [0, -1, "x", float("nan"), None])
def test_a_bad_step_is_named(step: object) -> None:
    with pytest.raises(ValueError, match="step must be a number of seconds above 0, not"):
        next(count_progress(8, step=step))  # type: ignore[arg-type]


@pytest.mark.parametrize("n", [0, 63])
def test_counting_in_steps_checks_the_size(n: int) -> None:
    with pytest.raises(ValueError, match="board size"):
        next(count_progress(n))


def test_every_split_of_the_search_counts_the_same() -> None:
    for n in range(1, 11):
        for rows in range(1, n + 1):
            assert count_subproblems(n, split(n, rows)) == KNOWN[n - 1], (n, rows)
