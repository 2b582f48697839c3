"""Games under an opening rule (Swap, Swap2, Soosõrv-8, Yamaguchi, Taraguchi-10, Pro) through
the JSON API, with real engine workers and SQLite: the human's actions, the computer's, the
moves after, and records imported with their opening."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import GAMES, Server, assert_error, created, new_game, play, player, wait_for

from gridgames.gomoku import Board, Rule
from gridgames.gomoku.ai import MAX_LEVEL
from gridgames.gomoku.opening_rules import Opening, OpeningError, OpeningRule, steps_from_centre
from gridgames.store import GameStore
from gridgames.web import create_app
from gridgames.web.engine import EnginePool


def act(client: Any, game_id: str, action: str) -> dict[str, Any]:
    """An opening action that must be accepted."""
    response = client.post(f"{GAMES}/{game_id}/opening", json={"action": action},
                           headers=player(game_id))
    assert response.status_code == 200, response.text
    state: dict[str, Any] = response.json()
    return state


def replayed(state: dict[str, Any]) -> Opening:
    """The game's opening rebuilt from its state, to find actions the opening allows."""
    board = Board(state["width"], state["height"], rule=Rule(state["rule"]))
    opening = state["opening"]
    return Opening.replay(OpeningRule(opening["rule"]), board, opening["history"])


def some_action(state: dict[str, Any]) -> str:
    """An action the opening allows now: a colour if one is to be chosen, else a stone
    near the centre, two 5th moves declared, the first offers, the first offer picked."""
    opening = replayed(state)
    board = opening.board
    name = board.point_name
    allowed = opening.allowed
    if "choose" in allowed:
        return "choose white"
    if allowed == ("declare",):
        return f"declare {min(2, state['opening']['most_offers'])}"
    if allowed == ("offer",):
        groups = opening.fifth_move_classes()[: opening.declared]
        return "offer " + " ".join(name(group[0]) for group in groups)
    if allowed == ("pick",):
        return f"pick {name(opening.offers[0])}"
    for point in sorted(board.legal_moves, key=lambda p: (steps_from_centre(board, p), p)):
        trial = replayed(state)
        try:
            trial.place(point)
        except OpeningError:
            continue  # outside Soosõrv's area for this stone
        return f"place {name(point)}"
    raise AssertionError(f"no action for {allowed}")


def humans_turn_or_done(state: dict[str, Any]) -> bool:
    opening = state["opening"]
    return not state["thinking"] and (opening["done"] or opening["actor"] == "human")


def free_point(state: dict[str, Any]) -> tuple[int, int]:
    """A point the side to move may play (renju's forbidden points left out)."""
    taken = {tuple(p) for p in state["moves"]} | {tuple(p) for p in state["forbidden"]}
    return next((x, y) for y in range(state["height"]) for x in range(state["width"])
                if (x, y) not in taken)


# -- creating ------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["swap", "swap2", "soosorv", "yamaguchi", "taraguchi", "pro",
                                  "longpro"])
def test_create_with_each_opening_rule(client: TestClient, rule: str) -> None:
    state = new_game(client, width=15, height=15, opening=rule, white="computer", level=1)
    opening = state["opening"]
    assert opening["rule"] == rule and not opening["done"]
    assert opening["name"] == {"swap": "Swap", "swap2": "Swap2", "soosorv": "Soosõrv-8",
                               "yamaguchi": "Yamaguchi", "taraguchi": "Taraguchi-10",
                               "pro": "Pro", "longpro": "Long Pro"}[rule]
    assert (opening["to_act"], opening["actor"], opening["allowed"]) == ("first", "human",
                                                                         ["place"])
    assert opening["prompt"].startswith("place the 1st stone (black)")
    assert opening["players"] == {"first": "human", "second": "computer"}
    assert opening["colors"] == {"first": "black", "second": "white"}
    assert (opening["history"], opening["offers"], opening["declared"]) == ([], [], 0)
    assert opening["stones"] == 0 and state["moves"] == [] and state["thinking"] is False
    again = client.get(f"{GAMES}/{state['id']}").json()
    assert again["opening"] == opening


def test_without_an_opening_rule_there_is_no_opening(client: TestClient) -> None:
    state = new_game(client)
    assert state["opening"] is None
    assert new_game(client, opening="free")["opening"] is None
    assert_error(client.post(f"{GAMES}/{state['id']}/opening", json={"action": "place e5"},
                             headers=player(state["id"])), 409, "no_opening", "no opening rule")


def test_options_list_the_opening_rules(client: TestClient) -> None:
    openings = client.get("/api/gomoku/options").json()["openings"]
    assert [o["name"] for o in openings] == ["free", "swap", "swap2", "soosorv", "yamaguchi",
                                             "taraguchi", "pro", "longpro"]
    assert [o["title"] for o in openings] == ["None", "Swap", "Swap2", "Soosõrv-8",
                                              "Yamaguchi", "Taraguchi-10", "Pro", "Long Pro"]
    assert all(o["description"] for o in openings)


# -- two humans ----------------------------------------------------------------------


def test_a_swap2_opening_between_two_humans_then_moves(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, opening="swap2")["id"]
    for action in ["place h8", "place h9", "place j8"]:
        state = act(client, game_id, action)
    opening = state["opening"]
    assert (opening["to_act"], opening["allowed"]) == ("second", ["choose", "place"])
    state = act(client, game_id, "place j9")  # the second player places two more
    state = act(client, game_id, "place k8")
    opening = state["opening"]
    assert (opening["to_act"], opening["allowed"]) == ("first", ["choose"])
    assert opening["prompt"] == "choose a colour: black or white"
    assert opening["renju_opening"] is None  # named under the renju rules only
    assert state["moves"] == [[7, 7], [7, 6], [9, 7], [9, 6], [10, 7]]
    state = act(client, game_id, "choose white")  # the first player takes white
    opening = state["opening"]
    assert opening["done"] and opening["to_act"] is None and opening["actor"] is None
    assert opening["colors"] == {"first": "white", "second": "black"}
    assert opening["history"] == ["place h8", "place h9", "place j8", "place j9", "place k8",
                                  "choose white"]
    assert opening["stones"] == 5 and state["to_move"] == "white"
    # Moves follow from the opening's position.
    state = play(client, game_id, 0, 0)
    state = play(client, game_id, 14, 14)
    assert state["moves"][5:] == [[0, 0], [14, 14]]
    assert_error(client.post(f"{GAMES}/{game_id}/opening", json={"action": "choose black"},
                             headers=player(game_id)), 409, "opening_over")
    # The record holds every stone, the opening's first, and the opening itself.
    record = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).json()
    assert record["moves"] == state["moves"]
    assert (record["opening"], record["opening_actions"]) == ("swap2", opening["history"])


def test_taraguchi_between_two_humans_offers_at_the_fifth(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, rule="renju", opening="taraguchi")["id"]
    for action in ["place h8", "choose black", "place i9", "choose black", "place j8",
                   "choose white", "place g6", "choose white"]:
        state = act(client, game_id, action)
    opening = state["opening"]
    assert (opening["to_act"], opening["allowed"], opening["declared"]) == (
        "first", ["offer", "place"], 10)
    assert opening["prompt"].endswith("or offer 10 5th moves anywhere, no two of them symmetric")
    assert_error(client.post(f"{GAMES}/{game_id}/opening", json={"action": "place m8"},
                             headers=player(game_id)), 422, "invalid_action", "central 9×9")
    state = act(client, game_id, "offer a1 b1 c1 d1 e1 f1 g1 h1 a2 b2")
    assert state["opening"]["offers"][:2] == [[0, 14], [1, 14]]
    state = act(client, game_id, "pick b2")
    opening = state["opening"]
    assert opening["done"] and opening["colors"] == {"first": "black", "second": "white"}
    assert opening["renju_opening"] == "3I Kosei"  # h8, i9, j8
    assert state["moves"][-1] == [1, 13] and state["to_move"] == "white"


def test_yamaguchi_between_two_humans_declared_before_the_swap(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, rule="renju", opening="yamaguchi")["id"]
    for action in ["place h8", "place h9", "place i9"]:
        state = act(client, game_id, action)
    opening = state["opening"]
    assert (opening["to_act"], opening["allowed"], opening["most_offers"]) == (
        "first", ["declare"], 10)
    state = act(client, game_id, "declare 2")
    assert state["opening"]["prompt"] == ("choose a colour: black or white (the opening is "
                                          "4D Kagetsu; black will offer 2 5th moves)")
    for action in ["choose black", "place k11"]:  # the second player takes black
        state = act(client, game_id, action)
    opening = state["opening"]
    assert (opening["to_act"], opening["allowed"], opening["offer_count"]) == (
        "second", ["offer"], 2)
    state = act(client, game_id, "offer g7 j7")
    state = act(client, game_id, "pick j7")
    opening = state["opening"]
    assert opening["done"] and opening["colors"] == {"first": "white", "second": "black"}
    assert state["moves"][-1] == [9, 8] and state["to_move"] == "white"


def test_pro_refuses_a_board_without_room_and_a_third_stone_too_near(
        client: TestClient) -> None:
    assert_error(client.post(GAMES, json={"width": 7, "height": 7, "opening": "longpro"}),
                 422, "invalid_value", "Long Pro needs a board of 8 or more on a side")
    game_id = new_game(client, width=15, height=15, opening="pro")["id"]
    act(client, game_id, "place h8")
    act(client, game_id, "place j9")
    assert_error(client.post(f"{GAMES}/{game_id}/opening", json={"action": "place j10"},
                             headers=player(game_id)), 422, "invalid_action",
                 "j10 is outside that area", "at least 3 intersections from the centre")
    state = act(client, game_id, "place l8")
    assert state["opening"]["done"] and state["to_move"] == "white"
    assert state["opening"]["colors"] == {"first": "black", "second": "white"}


def test_undo_after_the_opening_stops_at_the_opening_position(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, opening="swap")["id"]
    for action in ["place h8", "place i9", "place g10", "choose black"]:
        state = act(client, game_id, action)
    stones = state["moves"]
    assert state["opening"]["done"] and state["to_move"] == "white"
    play(client, game_id, 0, 0)
    play(client, game_id, 1, 0)
    undo = f"{GAMES}/{game_id}/undo"
    assert client.post(undo, headers=player(game_id)).json()["moves"] == [*stones, [0, 0]]
    assert client.post(undo, headers=player(game_id)).json()["moves"] == stones
    assert_error(client.post(undo, headers=player(game_id)), 409, "nothing_to_undo",
                 "since the opening")
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == stones


def test_the_live_stream_carries_the_opening(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, opening="swap")["id"]
    with client.websocket_connect(f"{GAMES}/{game_id}/ws") as ws:
        assert ws.receive_json()["game"]["opening"]["history"] == []
        act(client, game_id, "place h8")
        pushed = ws.receive_json()["game"]
        assert pushed["opening"]["history"] == ["place h8"] and pushed["moves"] == [[7, 7]]
        assert pushed["opening"]["prompt"] == "place the 2nd stone (white)"


# -- against the computer --------------------------------------------------------------


def test_soosorv_under_renju_against_the_computer(client: TestClient) -> None:
    """The computer is the first player: it places the opening by itself, the human
    answers each of its turns, and the game goes on in the colours the opening gave."""
    state = new_game(client, width=15, height=15, rule="renju", opening="soosorv",
                     black="computer", white="human", level=2, time_ms=500)
    game_id = state["id"]
    assert state["opening"]["players"] == {"first": "computer", "second": "human"}
    assert state["thinking"] is True
    state = wait_for(client, game_id, humans_turn_or_done)
    history = state["opening"]["history"]
    assert len(history) == 3 and all(a.startswith("place ") for a in history)
    assert history[0] == "place h8" and state["opening"]["to_act"] == "second"
    actions = 0
    while not state["opening"]["done"]:
        state = act(client, game_id, some_action(state))
        actions += 1
        state = wait_for(client, game_id, humans_turn_or_done)
        assert actions < 10
    opening = state["opening"]
    assert opening["history"][-1].startswith("pick ") and opening["stones"] == 5
    assert len(opening["offers"]) == opening["declared"] >= 1
    # The players' colours are the opening's.
    for seat in ("first", "second"):
        assert state["players"][opening["colors"][seat]] == opening["players"][seat]
    computer = opening["colors"]["first"]
    # White plays the 6th stone: the computer has, by itself, or the human does.
    if computer == "white":
        assert len(state["moves"]) == 6 and state["to_move"] == "black"
    else:
        assert len(state["moves"]) == 5 and state["to_move"] == "white"
        play(client, game_id, *free_point(state))
        state = wait_for(client, game_id, lambda s: len(s["moves"]) == 7 and not s["thinking"])
    search = state["last_search"]
    index = state["moves"].index(search["move"])
    assert index >= 5 and ("black" if index % 2 == 0 else "white") == computer
    # Undo takes back the human's moves and the computer's replies, never the opening.
    stones = state["moves"][:5]
    undo = f"{GAMES}/{game_id}/undo"
    while True:
        response = client.post(undo, headers=player(game_id))
        if response.status_code != 200:
            assert_error(response, 409, "nothing_to_undo", "since the opening")
            break
    state = client.get(f"{GAMES}/{game_id}").json()
    assert state["moves"][:5] == stones and len(state["moves"]) <= 6


def test_the_computer_as_second_player_answers_swap2(client: TestClient) -> None:
    state = new_game(client, width=15, height=15, opening="swap2", white="computer", level=1,
                     time_ms=500)
    game_id = state["id"]
    for action in ["place h8", "place i9", "place g10"]:
        state = act(client, game_id, action)
    assert state["opening"]["actor"] == "computer" and state["thinking"] is True
    state = wait_for(client, game_id, humans_turn_or_done)
    if not state["opening"]["done"]:  # it placed two more: the human chooses
        assert state["opening"]["allowed"] == ["choose"] and len(state["moves"]) == 5
        state = act(client, game_id, "choose black")
    assert state["opening"]["done"]
    human = state["opening"]["colors"]["first"]
    assert state["players"][human] == "human"
    if state["to_move"] != human:  # the computer moves first, by itself
        state = wait_for(client, game_id, lambda s: s["to_move"] == human and not s["thinking"])
    moves = len(state["moves"])
    play(client, game_id, *free_point(state))
    wait_for(client, game_id, lambda s: len(s["moves"]) == moves + 2)


def test_the_move_found_while_choosing_is_played_without_a_second_search(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    # Black's stones in two corners, white's in the centre: the computer, second player,
    # keeps white and plays the fourth stone its choice's search found.
    engine = client.app.state.engine  # type: ignore[attr-defined]
    searched_for: list[str] = []
    real_search = engine.search

    async def counted_search(*args: Any, **kwargs: Any) -> Any:
        searched_for.append(kwargs.get("key", ""))
        return await real_search(*args, **kwargs)

    monkeypatch.setattr(engine, "search", counted_search)
    game_id = new_game(client, width=15, height=15, opening="swap", white="computer",
                       level=3, time_ms=500)["id"]
    for action in ["place a1", "place h8", "place o15"]:
        state = act(client, game_id, action)
    state = wait_for(client, game_id, lambda s: len(s["moves"]) == 4 and not s["thinking"])
    opening = state["opening"]
    assert opening["history"][-1] == "choose white"
    assert opening["colors"] == {"first": "black", "second": "white"}
    assert state["to_move"] == "black" and state["players"]["black"] == "human"
    assert game_id not in searched_for  # no search after the choice's own
    assert state["last_search"]["move"] == state["moves"][3]  # the choice's search shown


def test_a_hint_in_the_opening_is_an_action_the_opening_takes(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, rule="renju", opening="soosorv")["id"]
    hints = []
    for _ in range(9):  # two humans through Soosõrv: every step's hint taken as it is
        state = client.get(f"{GAMES}/{game_id}").json()
        if state["opening"]["done"]:
            break
        response = client.get(f"{GAMES}/{game_id}/opening/hint")
        assert response.status_code == 200, response.text
        hint = response.json()
        kind, *_ = hint["actions"][0].split()
        assert kind in state["opening"]["allowed"]
        named = {"place", "offer", "pick"}
        assert bool(hint["points"]) == (kind in named)
        for action in hint["actions"]:
            state = act(client, game_id, action)
        hints.append(kind)
    assert state["opening"]["done"] and len(state["moves"]) == 5
    assert hints[:3] == ["place", "choose", "place"]  # the first three stones at once
    assert_error(client.get(f"{GAMES}/{game_id}/opening/hint"), 409, "opening_over")
    free = new_game(client)["id"]
    assert_error(client.get(f"{GAMES}/{free}/opening/hint"), 409, "no_opening")


# -- refusals ------------------------------------------------------------------------


def test_bad_opening_requests_are_refused_with_what_is_wrong(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, rule="renju", opening="soosorv")["id"]
    url = f"{GAMES}/{game_id}/opening"
    me = player(game_id)

    def refused(action: str, *words: str) -> None:
        assert_error(client.post(url, json={"action": action}, headers=me), 422,
                     "invalid_action", *words)

    refused("choose black", "cannot choose now", "place the 1st stone")
    refused("place a1", "outside that area", "h8")
    refused("place z99", "z99")
    refused("place", "name a point")
    refused("jump h8", "unknown action", "place, choose")
    act(client, game_id, "place h8")
    refused("place h8", "occupied")
    refused("place k10", "outside that area", "central 3×3")
    for action in ["place h9", "place j10", "choose black"]:
        act(client, game_id, action)
    act(client, game_id, "place a1")  # white's 4th stone goes anywhere
    refused("declare many", "declare a number")
    refused("declare 99", "declare 1 to 8")
    act(client, game_id, "declare 2")
    act(client, game_id, "choose black")
    refused("offer g7", "offer exactly 2")
    refused("offer h7 h7", "the same point")
    act(client, game_id, "offer g7 l12")
    refused("pick o15", "pick one of the offers", "g7, l12")
    # The game is unchanged by every refusal.
    state = client.get(f"{GAMES}/{game_id}").json()
    assert state["opening"]["allowed"] == ["pick"] and len(state["moves"]) == 4

    assert_error(client.post(url, json={"action": ""}, headers=me), 422, "invalid_request")
    assert_error(client.post(url, json={"action": "pick g7", "x": 1}, headers=me),
                 422, "invalid_request")
    assert_error(client.post(url, json={}, headers=me), 422, "invalid_request")
    assert_error(client.post(url, json={"action": "pick g7"}), 403, "not_a_player")
    assert_error(client.post(f"{GAMES}/missing/opening", json={"action": "pick g7"}),
                 404, "not_found")


def test_moves_hints_and_undo_wait_for_the_opening(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, opening="swap2")["id"]
    act(client, game_id, "place h8")
    me = player(game_id)
    assert_error(client.post(f"{GAMES}/{game_id}/moves", json={"x": 1, "y": 1}, headers=me),
                 409, "opening_under_way", "Swap2", "place the 2nd stone",
                 f"/api/gomoku/games/{game_id}/opening")
    assert_error(client.get(f"{GAMES}/{game_id}/hint"), 409, "opening_under_way")
    assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=me), 409, "nothing_to_undo",
                 "cannot be taken back")
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == [[7, 7]]


def test_acting_in_the_computers_turn_is_refused(client: TestClient) -> None:
    state = new_game(client, width=15, height=15, opening="swap", black="computer",
                     white="human", level=MAX_LEVEL, time_ms=1000)
    game_id = state["id"]
    assert state["opening"]["actor"] == "computer"
    assert_error(client.post(f"{GAMES}/{game_id}/opening", json={"action": "place h8"},
                             headers=player(game_id)), 409, "not_your_turn", "computer's turn")
    assert client.delete(f"{GAMES}/{game_id}", headers=player(game_id)).status_code == 204


@pytest.mark.parametrize("opening", ["swapp", 2, None])
def test_a_bad_opening_rule_names_the_choices(client: TestClient, opening: Any) -> None:
    assert_error(client.post(GAMES, json={"opening": opening}), 422, "invalid_request",
                 "opening", "'free', 'swap', 'swap2', 'soosorv', 'yamaguchi', 'taraguchi', "
                 "'pro' or 'longpro'")


def test_an_imported_record_cannot_have_an_opening_rule(client: TestClient) -> None:
    response = client.post(f"{GAMES}/import", json={"text": "Piskvorky 9x9, 0:0, 0\n5,5,0\n",
                                                    "opening": "swap2"})
    assert_error(response, 422, "opening_needs_empty_board", "empty board", "Swap2")
    imported = created(client.post(f"{GAMES}/import", json={
        "text": "Piskvorky 9x9, 0:0, 0\n5,5,0\n", "opening": "free"}))
    assert imported["opening"] is None


def test_a_json_record_is_imported_with_its_opening(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, opening="swap2")["id"]
    for action in ["place h8", "place h9", "place j8", "choose black"]:
        act(client, game_id, action)  # the second player takes black: the first is white
    play(client, game_id, 0, 0)
    text = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).text
    imported = created(client.post(f"{GAMES}/import", json={"text": text, "black": "computer",
                                                            "white": "human"}))
    opening = imported["opening"]
    assert opening["rule"] == "swap2" and opening["done"] and opening["stones"] == 3
    assert opening["history"] == ["place h8", "place h9", "place j8", "choose black"]
    # black and white name the colours' players: the human holds white, the first
    assert opening["players"] == {"first": "human", "second": "computer"}
    assert opening["colors"] == {"first": "white", "second": "black"}
    assert imported["moves"][3] == [0, 0] and imported["to_move"] == "black"
    # undo takes back the human's move (and the computer's reply, if it came) and stops
    # at the opening's stones
    state = imported
    while True:
        response = client.post(f"{GAMES}/{imported['id']}/undo", headers=player(imported["id"]))
        if response.status_code != 200:
            break
        state = response.json()
    assert len(state["moves"]) == 3


def test_a_json_record_saved_during_the_opening_goes_on_from_it(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, rule="renju", opening="soosorv")["id"]
    for action in ["place h8", "place h9", "place i9", "choose white", "place j10"]:
        act(client, game_id, action)
    text = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).text
    imported = created(client.post(f"{GAMES}/import", json={"text": text}))
    opening = imported["opening"]
    assert (opening["done"], opening["to_act"], opening["allowed"]) == (
        False, "second", ["declare"])
    state = act(client, imported["id"], "declare 2")
    assert state["opening"]["allowed"] == ["choose"]
    # actions that did not place the record's stones are refused
    record = json.loads(text)
    record["opening_actions"][1] = "place i9"
    record["opening_actions"][2] = "place h9"
    assert_error(client.post(f"{GAMES}/import", json={"text": json.dumps(record)}), 422,
                 "bad_record", "not the game's first moves")


# -- lasting ---------------------------------------------------------------------------


OLD_SCHEMA = """
CREATE TABLE gomoku_games (
    id TEXT PRIMARY KEY, width INTEGER NOT NULL, height INTEGER NOT NULL,
    rule TEXT NOT NULL, black TEXT NOT NULL, white TEXT NOT NULL, level INTEGER NOT NULL,
    time_ms INTEGER, moves TEXT NOT NULL, times_ms TEXT NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0, created REAL NOT NULL, updated REAL NOT NULL,
    token_hash TEXT NOT NULL DEFAULT ''
)
"""


def test_a_database_from_before_openings_gets_the_new_columns(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    with sqlite3.connect(db) as old:
        old.execute(OLD_SCHEMA)
        old.execute("INSERT INTO gomoku_games VALUES ('old', 9, 9, 'freestyle', 'human', "
                    "'human', 1, NULL, '[[4, 4]]', '[0]', 0, 1.0, 1.0, '')")
    old.close()
    store = GameStore(db)
    saved = store.get("old")
    assert (saved.opening, saved.opening_actions, saved.first_player) == ("free", [], "")
    store.close()
    with sqlite3.connect(db) as reopened:
        columns = {row[1] for row in reopened.execute("PRAGMA table_info(gomoku_games)")}
    reopened.close()
    assert {"opening", "opening_actions", "first_player"} <= columns
    with TestClient(create_app(db, workers=1)) as client:
        state = client.get(f"{GAMES}/old").json()
        assert state["opening"] is None and state["moves"] == [[4, 4]]
        assert client.post(f"{GAMES}/old/moves", json={"x": 0, "y": 0}).status_code == 200
        game_id = new_game(client, opening="swap")["id"]
        act(client, game_id, "place e5")
    with TestClient(create_app(db, workers=1)) as client:
        assert client.get(f"{GAMES}/{game_id}").json()["opening"]["history"] == ["place e5"]


def test_openings_survive_a_killed_server(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    server = Server(db)
    try:
        http = server.http
        two_humans = created(http.post(GAMES, json={
            "width": 15, "height": 15, "black": "human", "white": "human",
            "opening": "swap2"}))["id"]
        for action in ["place h8", "place h9", "place j8", "place j9"]:
            assert http.post(f"{GAMES}/{two_humans}/opening", json={"action": action},
                             headers=player(two_humans)).is_success
        # The computer is deciding its Swap2 answer when the server dies.
        thinking = created(http.post(GAMES, json={
            "width": 15, "height": 15, "white": "computer", "opening": "swap2",
            "level": MAX_LEVEL, "time_ms": 3000}))["id"]
        for action in ["place h8", "place i9", "place g10"]:
            state = http.post(f"{GAMES}/{thinking}/opening", json={"action": action},
                              headers=player(thinking)).json()
        assert state["thinking"] is True and state["opening"]["actor"] == "computer"
    finally:
        server.kill()

    server = Server(db)
    try:
        http = server.http
        state = http.get(f"{GAMES}/{two_humans}").json()
        opening = state["opening"]
        assert opening["history"] == ["place h8", "place h9", "place j8", "place j9"]
        assert opening["allowed"] == ["place"] and opening["to_act"] == "second"
        assert state["moves"] == [[7, 7], [7, 6], [9, 7], [9, 6]]
        assert http.post(f"{GAMES}/{two_humans}/opening", json={"action": "place a1"},
                         headers=player(two_humans)).json()["opening"]["allowed"] == ["choose"]
        # The computer took its decision up again and answers.
        state = wait_for(http, thinking, humans_turn_or_done, timeout=60)
        assert len(state["opening"]["history"]) > 3
        assert state["moves"][:3] == [[7, 7], [8, 6], [6, 5]]
    finally:
        server.stop()


def test_a_killed_worker_does_not_lose_the_opening(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", workers=1)) as client:
        engine: EnginePool = client.app.state.engine  # type: ignore[attr-defined]
        state = new_game(client, width=15, height=15, opening="swap", black="computer",
                         white="human", level=MAX_LEVEL, time_ms=2000)
        game_id = state["id"]
        wait_for(client, game_id, lambda s: not s["waiting"], timeout=30)
        time.sleep(0.3)
        [pid] = engine.worker_pids()
        os.kill(pid, signal.SIGKILL)
        state = wait_for(client, game_id, humans_turn_or_done, timeout=60)
        assert engine.restarts == 1 and engine.worker_pids() != [pid]
        assert len(state["opening"]["history"]) == 3
        assert state["opening"]["allowed"] == ["choose"]
        act(client, game_id, "choose white")


def test_a_deleted_games_opening_decision_stops_at_once(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "games.sqlite3", workers=1)) as one_worker:
        # the computer's Swap2 opening, given a minute, takes the only engine...
        long = new_game(one_worker, width=15, height=15, black="computer", white="human",
                        opening="swap2", level=MAX_LEVEL, time_ms=60_000)
        wait_for(one_worker, long["id"], lambda s: s["thinking"] and not s["waiting"])
        time.sleep(0.5)
        assert one_worker.delete(f"{GAMES}/{long['id']}",
                                 headers=player(long["id"])).status_code == 204
        # ...and frees it as soon as the game is gone: a hint elsewhere does not wait
        other = new_game(one_worker)
        play(one_worker, other["id"], 4, 4)
        started = time.monotonic()
        response = one_worker.get(f"{GAMES}/{other['id']}/hint", headers=player(other["id"]))
        assert response.status_code == 200, response.text
        assert time.monotonic() - started < 10
