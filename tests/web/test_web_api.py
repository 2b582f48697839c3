"""The JSON API through FastAPI's TestClient, with real engine workers and SQLite."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_helpers import GAMES, assert_error, created, new_game, play, player, wait_for

from gridgames.gomoku import Board, Color
from gridgames.gomoku.ai import MAX_LEVEL
from gridgames.gomoku.records import GameRecord, to_json

# Black's five along row 4 on a 9 × 9 board, white answering on row 0.
BLACK_WINS = [(2, 4), (0, 0), (3, 4), (1, 0), (4, 4), (2, 0), (5, 4), (3, 0), (6, 4)]


# -- creating, reading, playing --------------------------------------------------


def test_create_and_get(client: TestClient) -> None:
    state = new_game(client, width=19, height=11, rule="renju", white="computer", level=2,
                     time_ms=500)
    assert state["width"] == 19 and state["height"] == 11
    assert state["rule"] == "renju"
    assert state["moves"] == [] and state["to_move"] == "black"
    assert state["outcome"] is None and state["forbidden"] == []
    assert state["players"] == {"black": "human", "white": "computer"}
    assert state["level"] == 2 and state["time_ms"] == 500
    assert state["thinking"] is False
    again = client.get(f"{GAMES}/{state['id']}").json()
    assert again["id"] == state["id"] and again["rule"] == "renju"


def test_defaults(client: TestClient) -> None:
    state = client.post(GAMES, json={}).json()
    assert (state["width"], state["height"], state["rule"]) == (15, 15, "freestyle")
    assert state["players"] == {"black": "human", "white": "computer"}


def test_moves_until_five_in_a_row(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    for x, y in BLACK_WINS[:-1]:
        state = play(client, game_id, x, y)
        assert state["outcome"] is None
    state = play(client, game_id, *BLACK_WINS[-1])
    assert state["moves"] == [list(m) for m in BLACK_WINS]
    assert state["outcome"] == {
        "winner": "black", "line": [[x, 4] for x in range(2, 7)], "result": "1-0",
        "draw_reason": "", "termination": ""}
    assert_error(client.post(f"{GAMES}/{game_id}/moves", json={"x": 8, "y": 8},
                             headers=player(game_id)),
                 409, "game_over")
    assert_error(client.get(f"{GAMES}/{game_id}/hint"), 409, "game_over")


def test_renju_forbidden_point(client: TestClient) -> None:
    game_id = new_game(client, width=15, height=15, rule="renju")["id"]
    # Black (7,7) (8,7) across and (9,8) (9,9) down: (9,7) would make two open threes.
    for move in [(7, 7), (0, 0), (8, 7), (0, 14), (9, 8), (14, 0), (9, 9), (14, 14)]:
        state = play(client, game_id, *move)
    assert [9, 7] in state["forbidden"]
    assert_error(client.post(f"{GAMES}/{game_id}/moves", json={"x": 9, "y": 7},
                             headers=player(game_id)),
                 409, "forbidden")
    white_turn = play(client, game_id, 1, 1)
    assert white_turn["forbidden"] == []  # only black has forbidden points


def test_bad_moves(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    play(client, game_id, 4, 4)
    moves = f"{GAMES}/{game_id}/moves"
    me = player(game_id)
    assert_error(client.post(moves, headers=me, json={"x": 4, "y": 4}), 409, "occupied")
    assert_error(client.post(moves, headers=me, json={"x": 9, "y": 0}), 422, "off_board")
    assert_error(client.post(moves, headers=me, json={"x": -1, "y": 0}), 422, "invalid_request")
    assert_error(client.post(moves, headers=me, json={"x": "a", "y": 0}), 422, "invalid_request")
    assert_error(client.post(moves, headers=me, json={"x": 1}), 422, "invalid_request")
    assert_error(client.post(moves, headers=me, json={"x": 1, "y": 1, "z": 1}),
                 422, "invalid_request")
    assert_error(client.post(moves, content=b"{not json",
                             headers={"content-type": "application/json", **player(game_id)}),
                 400, "malformed_json")
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == [[4, 4]]


@pytest.mark.parametrize("body", [
    {"width": 4}, {"height": 65}, {"width": "wide"}, {"rule": "chess"},
    {"black": "robot"}, {"level": 0}, {"level": 99}, {"time_ms": 1}, {"colour": "red"},
])
def test_bad_new_game(client: TestClient, body: dict[str, Any]) -> None:
    assert_error(client.post(GAMES, json=body), 422, "invalid_request")


def test_unknown_game(client: TestClient) -> None:
    missing = f"{GAMES}/no-such-game"
    assert_error(client.get(missing), 404, "not_found")
    assert_error(client.post(f"{missing}/moves", json={"x": 0, "y": 0}), 404, "not_found")
    assert_error(client.post(f"{missing}/undo"), 404, "not_found")
    assert_error(client.get(f"{missing}/hint"), 404, "not_found")
    assert_error(client.get(f"{missing}/record"), 404, "not_found")
    assert_error(client.delete(missing), 404, "not_found")
    assert_error(client.get("/api/no/such/route"), 404, "not_found")
    # a long id is not echoed back whole
    long = client.get(f"{GAMES}/{'x' * 5000}")
    assert_error(long, 404, "not_found")
    assert long.json()["detail"] == f"there is no game '{'x' * 40}'..."
    with client.websocket_connect(f"{missing}/ws") as ws, \
            pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4404


def test_websocket_ignores_what_the_client_sends(client: TestClient) -> None:
    """A binary frame once ended the handler with KeyError: 'text' (a server traceback)."""
    game_id = new_game(client)["id"]
    with client.websocket_connect(f"{GAMES}/{game_id}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_bytes(b"\xff\x00binary")
        ws.send_text("hello")
        play(client, game_id, 4, 4)
        assert ws.receive_json()["game"]["moves"] == [[4, 4]]


# -- the computer ----------------------------------------------------------------


def test_computer_reply_does_not_block(client: TestClient) -> None:
    game_id = new_game(client, white="computer", level=1)["id"]
    started = time.monotonic()
    state = play(client, game_id, 4, 4)
    assert time.monotonic() - started < 2
    assert state["moves"] == [[4, 4]] and state["to_move"] == "white"
    state = wait_for(client, game_id, lambda s: len(s["moves"]) == 2)
    assert state["thinking"] is False and state["to_move"] == "black"
    assert state["last_search"]["move"] == state["moves"][1]


def test_computer_opens_as_black(client: TestClient) -> None:
    game_id = new_game(client, black="computer", level=1)["id"]
    state = wait_for(client, game_id, lambda s: len(s["moves"]) == 1)
    assert state["to_move"] == "white"
    # The only human move can be taken back; the computer's first move cannot.
    assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)),
                 409, "nothing_to_undo")


def test_move_and_undo_while_the_computer_thinks(client: TestClient) -> None:
    game_id = new_game(client, white="computer", level=MAX_LEVEL, time_ms=5000)["id"]
    state = play(client, game_id, 4, 4)
    assert state["thinking"] is True
    assert_error(client.post(f"{GAMES}/{game_id}/moves", json={"x": 0, "y": 0},
                             headers=player(game_id)),
                 409, "not_your_turn")
    assert_error(client.get(f"{GAMES}/{game_id}/hint"), 409, "not_your_turn")
    undone = client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)).json()
    assert undone["moves"] == [] and undone["thinking"] is False
    time.sleep(0.5)  # a stopped search must not sneak its move in
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == []


def test_undo(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)),
                 409, "nothing_to_undo")
    play(client, game_id, 1, 1)
    play(client, game_id, 2, 2)
    undone = client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)).json()
    assert undone["moves"] == [[1, 1]]

    vs_computer = new_game(client, white="computer", level=1)["id"]
    play(client, vs_computer, 4, 4)
    wait_for(client, vs_computer, lambda s: len(s["moves"]) == 2)
    state = client.post(f"{GAMES}/{vs_computer}/undo", headers=player(vs_computer)).json()
    assert state["moves"] == [] and state["to_move"] == "black"  # the reply went too


def test_undo_after_game_over(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    for move in BLACK_WINS:
        play(client, game_id, *move)
    state = client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)).json()
    assert state["outcome"] is None and len(state["moves"]) == len(BLACK_WINS) - 1


def test_a_resignation_is_not_taken_back(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    play(client, game_id, 1, 1)
    play(client, game_id, 2, 2)
    resigned = client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id)).json()
    assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)),
                 409, "game_over", "resigned", "cannot be taken back")
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == resigned["moves"] == [[1, 1],
                                                                                      [2, 2]]


def test_hint(client: TestClient) -> None:
    game_id = new_game(client)["id"]
    for move in [(4, 4), (0, 0), (4, 5), (0, 1), (4, 6), (0, 8)]:
        play(client, game_id, *move)
    hint = client.get(f"{GAMES}/{game_id}/hint").json()
    # Black has three in a column: the hint extends it.
    assert tuple(hint["move"]) in {(4, 3), (4, 7)}
    assert isinstance(hint["score"], int) and hint["score_text"]
    assert hint["pv"][0] == hint["move"]


def test_computer_vs_computer_finishes(client: TestClient) -> None:
    game_id = new_game(client, width=7, height=7, black="computer", white="computer",
                       level=1)["id"]
    state = wait_for(client, game_id, lambda s: s["outcome"] is not None, timeout=90)
    assert state["thinking"] is False
    winner = state["outcome"]["winner"]
    assert winner in {"black", "white", None}
    if winner:
        assert len(state["outcome"]["line"]) >= 5


def test_delete_stops_a_game(client: TestClient) -> None:
    game_id = new_game(client, black="computer", white="computer", level=1)["id"]
    assert client.delete(f"{GAMES}/{game_id}", headers=player(game_id)).status_code == 204
    assert_error(client.get(f"{GAMES}/{game_id}"), 404, "not_found")


# -- live updates ----------------------------------------------------------------


def test_websocket_sends_every_change(client: TestClient) -> None:
    game_id = new_game(client, white="computer", level=1)["id"]
    with client.websocket_connect(f"{GAMES}/{game_id}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["game"]["moves"] == []
        play(client, game_id, 4, 4)
        seen = []
        while True:
            game = ws.receive_json()["game"]
            seen.append(game)
            if len(game["moves"]) == 2 and not game["thinking"]:
                break
        assert any(g["thinking"] for g in seen)


# -- records ---------------------------------------------------------------------


def test_record_download_and_import(client: TestClient) -> None:
    game_id = new_game(client, rule="standard")["id"]
    for move in BLACK_WINS[:5]:
        play(client, game_id, *move)
    psq = client.get(f"{GAMES}/{game_id}/record", params={"format": "psq"})
    assert psq.status_code == 200
    assert psq.headers["content-disposition"] == f'attachment; filename="gomoku-{game_id}.psq"'
    assert psq.text.startswith("Piskvorky 9x9")
    as_json = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"})
    assert as_json.json()["rule"] == "standard"

    from_psq = client.post(f"{GAMES}/import", json={"text": psq.text, "rule": "standard"})
    from_json = client.post(f"{GAMES}/import", json={"text": as_json.text})
    for response in (from_psq, from_json):
        assert response.status_code == 201, response.text
        state = response.json()
        assert state["moves"] == [list(m) for m in BLACK_WINS[:5]]
        assert state["rule"] == "standard" and state["id"] != game_id
        assert state["players"] == {"black": "human", "white": "human"}
    assert_error(client.get(f"{GAMES}/{game_id}/record", params={"format": "sgf"}),
                 422, "invalid_request")


@pytest.mark.parametrize(("result", "winner", "over"), [
    ("0-1", "white", "the game is over: black lost in a way not recorded, white wins"),
    ("1/2-1/2", None, "the game is over: a draw, in a way not recorded"),
])
def test_an_imported_record_with_a_result_but_no_ending_is_over(
        client: TestClient, result: str, winner: str | None, over: str) -> None:
    """It was once a game in progress, its result forgotten: the computer even moved on."""
    text = json.dumps({"width": 9, "height": 9, "moves": [[4, 4], [5, 5], [3, 3]],
                       "result": result})
    state = created(client.post(f"{GAMES}/import", json={"text": text, "white": "computer",
                                                           "level": 1}))
    game_id = state["id"]
    assert state["outcome"] == {
        "winner": winner, "line": [], "result": result, "termination": "unknown",
        "draw_reason": "" if winner else "the record does not say how"}
    assert not state["thinking"]
    for response in (client.post(f"{GAMES}/{game_id}/moves", json={"x": 0, "y": 0},
                                 headers=player(game_id)),
                     client.post(f"{GAMES}/{game_id}/resign", headers=player(game_id))):
        assert_error(response, 409, "game_over", over)
    assert_error(client.post(f"{GAMES}/{game_id}/undo", headers=player(game_id)),
                 409, "game_over", over, "cannot be taken back")
    record = client.get(f"{GAMES}/{game_id}/record", params={"format": "json"}).json()
    assert (record["result"], record["termination"]) == (result, "unknown")
    assert client.get(f"{GAMES}/{game_id}").json()["moves"] == [[4, 4], [5, 5], [3, 3]]


def test_an_imported_resignation_is_over(client: TestClient) -> None:
    board = Board(9)
    board.push_many([(4, 4), (5, 5)])
    text = to_json(GameRecord.from_board(board, loser=Color.WHITE, termination="resignation"))
    state = created(client.post(f"{GAMES}/import", json={"text": text}))
    assert (state["outcome"]["winner"], state["outcome"]["termination"]) == (
        "black", "resignation")


def test_import_continues_against_the_computer(client: TestClient) -> None:
    text = "Piskvorky 9x9, 0:0, 0\n5,5,0\n"
    response = client.post(f"{GAMES}/import", json={"text": text, "white": "computer",
                                                      "level": 1})
    game_id = response.json()["id"]
    wait_for(client, game_id, lambda s: len(s["moves"]) == 2)


@pytest.mark.parametrize("text", [
    "", "hello", "Piskvorky 9x9, 0:0, 0\n5,5,0\n5,5,0\n", "Piskvorky 99x99, 0:0, 0\n",
    '{"width": 9, "moves": [[1, 1], [1, 1]]}', '{"width": 9, "moves": "e5"}', "[1, 2]",
    "[" * 100_000,  # nested too deeply for the JSON reader: once a 500
])
def test_import_bad_records(client: TestClient, text: str) -> None:
    assert_error(client.post(f"{GAMES}/import", json={"text": text}), 422, "bad_record")


def test_import_a_psq_file_with_a_byte_order_mark(client: TestClient) -> None:
    text = "\ufeffPiskvorky 9x9, 0:0, 0\n5,5,0\n6,6,0\n"
    game = created(client.post(f"{GAMES}/import", json={"text": text}))
    assert game["moves"] == [[4, 4], [5, 5]]


# -- N-Queens ----------------------------------------------------------------------


def test_queens(client: TestClient) -> None:
    solved = client.post("/api/queens/solve", json={"n": 8, "queens": [[0, 0]]}).json()
    assert len(solved["solution"]) == 8 and [0, 0] in solved["solution"]
    assert solved["elapsed_ms"] >= 0
    rows = {r for r, _ in solved["solution"]}
    cols = {c for _, c in solved["solution"]}
    assert rows == cols == set(range(8))
    assert len({r - c for r, c in solved["solution"]}) == 8
    assert len({r + c for r, c in solved["solution"]}) == 8

    empty = client.post("/api/queens/solve", json={"n": 20}).json()
    assert len(empty["solution"]) == 20
    stuck = client.post("/api/queens/solve", json={"n": 8, "queens": [[0, 0], [1, 2]]})
    assert stuck.status_code == 200 and stuck.json()["solution"] is None
    assert client.post("/api/queens/solve", json={"n": 3}).json()["solution"] is None

    assert_error(client.post("/api/queens/solve", json={"n": 8, "queens": [[0, 0], [1, 1]]}),
                 422, "queen_conflict")
    assert_error(client.post("/api/queens/solve", json={"n": 8, "queens": [[8, 0]]}),
                 422, "invalid_value")
    assert_error(client.post("/api/queens/solve", json={"n": 0}), 422, "invalid_request")
    assert_error(client.post("/api/queens/solve", json={"n": 500}), 422, "invalid_request")

    hint = client.post("/api/queens/hint", json={"n": 8, "queens": [[0, 0]]}).json()
    assert hint["square"][0] == 1
    none = client.post("/api/queens/hint", json={"n": 8, "queens": [[0, 0], [1, 2]]}).json()
    assert none["square"] is None


def test_queens_backtrack(client: TestClient) -> None:
    run = client.post("/api/queens/backtrack", json={"n": 6}).json()
    assert run["finished"] and run["solution"] == [[0, 1], [1, 3], [2, 5], [3, 0], [4, 2], [5, 4]]
    # Replaying the steps gives the solution, and every queen placed was safe then.
    board: set[tuple[int, int]] = set()
    for step in run["steps"]:
        row, col = step["square"]
        if step["kind"] == "place":
            assert all(r != row and c != col and abs(r - row) != abs(c - col) for r, c in board)
            board.add((row, col))
        else:
            board.remove((row, col))
    assert sorted(board) == [tuple(q) for q in run["solution"]]
    # A queen of the player's is kept; a board nothing completes is proven so.
    kept = client.post("/api/queens/backtrack", json={"n": 6, "queens": [[0, 2]]}).json()
    assert [0, 2] in kept["solution"] and all(s["square"] != [0, 2] for s in kept["steps"])
    none = client.post("/api/queens/backtrack", json={"n": 4, "queens": [[0, 0]]}).json()
    assert none["finished"] and none["solution"] is None and none["steps"]
    # The limit stops a long search, and says so.
    cut = client.post("/api/queens/backtrack", json={"n": 20, "limit": 50}).json()
    assert len(cut["steps"]) == 50 and not cut["finished"] and cut["solution"] is None
    for body, code, says in [({"n": 8, "limit": 0}, "invalid_request", "limit"),
                             ({"n": 8, "limit": 10**6}, "invalid_request", "limit"),
                             ({"n": 8, "queens": [[0, 0], [1, 1]]}, "queen_conflict", "attacks"),
                             ({"n": 8, "queens": [[0, 9]]}, "invalid_value", "off the 8×8")]:
        assert_error(client.post("/api/queens/backtrack", json=body), 422, code, says)


def test_queens_count(client: TestClient) -> None:
    assert client.get("/api/queens/count", params={"n": 8}).json()["solutions"] == 92
    assert client.get("/api/queens/count", params={"n": 1}).json()["solutions"] == 1
    too_big = client.get("/api/queens/count", params={"n": 17})
    assert_error(too_big, 422, "invalid_request")
    assert "16" in too_big.json()["detail"]
    assert_error(client.get("/api/queens/count"), 422, "invalid_request")


# -- the rest ----------------------------------------------------------------------


def test_options_and_pages(client: TestClient) -> None:
    options = client.get("/api/gomoku/options").json()
    assert {r["name"] for r in options["rules"]} >= {"freestyle", "renju", "caro"}
    assert options["levels"][0]["number"] == 1
    assert (options["min_size"], options["max_size"]) == (5, 64)
    page = client.get("/")
    assert page.status_code == 200 and "<title>gridgames</title>" in page.text
    assert client.get("/js/main.js").headers["content-type"].startswith("text/javascript")
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/gomoku/games", "/api/gomoku/games/{game_id}/moves",
            "/api/queens/solve", "/api/queens/count"} <= set(paths)
