"""Playing levels, limits and score texts."""

from __future__ import annotations

import pytest

from gridgames.gomoku.ai import LEVELS, MAX_LEVEL, Limit, SearchResult, get_level


def test_levels_are_numbered_from_one_to_max() -> None:
    assert [level.number for level in LEVELS] == list(range(1, MAX_LEVEL + 1))
    assert MAX_LEVEL == 6
    assert LEVELS[0].limit.is_greedy
    assert all(not level.limit.is_greedy for level in LEVELS[1:])


@pytest.mark.parametrize(
    ("spec", "number"),
    [(1, 1), (6, 6), ("3", 3), (" 5 ", 5), ("level:3", 3), ("LEVEL:6", 6), ("max", 6), ("Max", 6)],
)
def test_get_level_accepts(spec: int | str, number: int) -> None:
    assert get_level(spec).number == number


@pytest.mark.parametrize("spec", [0, 7, -1, "0", "nine", "level:", "level:x", "", "3.5", True])
def test_get_level_rejects_with_the_allowed_forms(spec: object) -> None:
    with pytest.raises(ValueError, match=r"1\.\.6, 'level:N' or 'max'"):
        get_level(spec)  # type: ignore[arg-type]


def test_limit_for_caps_time() -> None:
    top = get_level("max")
    assert top.limit_for(None) == top.limit
    assert top.limit_for(100).time_ms == 100
    assert top.limit_for(10**6).time_ms == top.limit.time_ms
    assert get_level(3).limit_for(250) == Limit(time_ms=250, nodes=8_000, depth=4)


def test_limit_rejects_values_no_search_can_take() -> None:
    with pytest.raises(ValueError, match="time_ms"):
        Limit(time_ms=-1)
    # past the search's 64-bit counters: refused by name, not an OverflowError from a kernel
    with pytest.raises(ValueError, match=r"Limit\.nodes must be a whole number from 0 to 2\*\*48"):
        Limit(nodes=10**23)
    with pytest.raises(ValueError, match="depth"):
        Limit(depth=True)
    assert Limit(nodes=2**48).nodes == 2**48


@pytest.mark.parametrize(
    ("score", "mate", "text"),
    [(35, None, "+35"), (-120, None, "-120"), (0, None, "0"), (29995, 3, "win in 3"),
     (-29992, -4, "loss in 4")],
)
def test_score_text(score: int, mate: int | None, text: str) -> None:
    result = SearchResult((7, 7), score, mate, 1, ((7, 7),), 10, 1, 10)
    assert result.score_text == text
