"""The text forms shared by the brain and the client."""

from __future__ import annotations

import pytest

from gridgames.gomoku.gomocup.protocol import (
    EngineInfo,
    ProtocolError,
    format_forbid,
    format_search_message,
    parse_about,
    parse_forbid,
    parse_int,
    parse_search_message,
    parse_xy,
)


@pytest.mark.parametrize("text", ["7", "7,", ",7", "a,b", "7;7", "7,7,7", "1.5,2", ""])
def test_parse_xy_rejects_malformed(text: str) -> None:
    with pytest.raises(ProtocolError, match="x,y"):
        parse_xy(text)


def test_parse_xy_accepts_spaces_and_signs() -> None:
    assert parse_xy(" 3 , 4 ") == (3, 4)
    assert parse_xy("-1,-1") == (-1, -1)


def test_parse_int_names_the_value() -> None:
    with pytest.raises(ProtocolError, match="max_memory must be a whole number"):
        parse_int("lots", "max_memory")


def test_forbid_round_trip_and_empty() -> None:
    points = {(0, 0), (14, 14), (3, 10)}
    assert parse_forbid(format_forbid(points)) == points
    assert format_forbid([]) == "FORBID ."
    assert parse_forbid("FORBID .") == set()
    assert parse_forbid("forbid 0102.") == {(1, 2)}
    with pytest.raises(ProtocolError):
        parse_forbid("FORBID 123.")
    with pytest.raises(ProtocolError):
        parse_forbid("7,7")


def test_about_keeps_unpaired_text() -> None:
    assert parse_about('name="x", version="1"') == {"name": "x", "version": "1"}
    assert parse_about("just a name") == {"text": "just a name"}


def test_our_message_reads_back() -> None:
    text = format_search_message(7, -35, None, 123456, 250000, 494, [(7, 7), (8, 9)])
    info = parse_search_message(text)
    assert info == EngineInfo(depth=7, score=-35, nodes=123456, nps=250000, time_ms=494,
                              pv=((7, 7), (8, 9)))
    mate = parse_search_message(format_search_message(3, 0, -2, 1, 1000, 1, []))
    assert (mate.score, mate.mate) == (None, -2)


def test_rapfi_lines() -> None:
    info = parse_search_message("depth 14-25 ev 131 n 2350K n/ms 612 tm 3840 pv H8 I9 J10")
    assert (info.depth, info.seldepth, info.score, info.nodes, info.nps, info.time_ms) == (
        14, 25, 131, 2_350_000, 612_000, 3840)
    assert info.pv == ((7, 7), (8, 8), (9, 9))
    summary = parse_search_message("Speed 1.2M | Depth 9-12 | Eval +M5 | Node 15M | Time 12s")
    assert (summary.mate, summary.nodes, summary.time_ms, summary.nps) == (
        5, 15_000_000, 12_000, 1_200_000)
    assert parse_search_message("Bestline H8 I9").pv == ((7, 7), (8, 8))
    multipv = parse_search_message("depth 5-9 multipv 2 ev -20 n 10K n/ms 5 tm 2 pv 1,1")
    assert multipv.multipv == 2


@pytest.mark.parametrize("text", ["Load config from config.toml", "", "REALTIME BEST 7,7",
                                  "depth", "ev x n y"])
def test_other_messages_give_nothing(text: str) -> None:
    assert parse_search_message(text).is_empty
