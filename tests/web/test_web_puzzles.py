"""The puzzle routes through FastAPI's TestClient, judged by real engine workers."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from gridgames.gomoku.puzzles import VcfProver, get_puzzle, load_puzzles

PUZZLES = "/api/gomoku/puzzles"


def assert_error(response: Any, status: int, code: str, detail: str = "") -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"] == code
    assert detail in body["detail"]


def pairs(points: Any) -> list[list[int]]:
    return [list(p) for p in points]


def test_the_list(client: TestClient) -> None:
    listed = client.get(PUZZLES).json()["puzzles"]
    assert len(listed) == len(load_puzzles())
    first = get_puzzle(1)
    assert listed[0] == {"id": 1, "rule": first.rule.value, "width": first.width,
                         "height": first.height, "to_move": first.to_move.label,
                         "length": first.length, "themes": list(first.themes)}
    assert {p["rule"] for p in listed} == {"freestyle", "standard", "renju", "caro"}


def test_a_position(client: TestClient) -> None:
    puzzle = get_puzzle(2)
    body = client.get(f"{PUZZLES}/2").json()
    assert body["moves"] == pairs(puzzle.moves)
    assert body["solution"] == pairs(puzzle.solution)
    assert body["length"] == puzzle.length and body["to_move"] == puzzle.to_move.label
    assert body["forbidden"] == pairs(sorted(puzzle.board().forbidden_points()))


def test_solving_a_puzzle_move_by_move(client: TestClient) -> None:
    puzzle = next(p for p in load_puzzles() if p.length >= 4)
    line = pairs(puzzle.solution)
    for index in range(0, len(line) - 1, 2):
        verdict = client.post(f"{PUZZLES}/{puzzle.id}/attempt",
                              json={"played": line[:index], "move": line[index]}).json()
        assert verdict["verdict"] == "continue", verdict
        assert verdict["reply"] == line[index + 1]
        assert verdict["moves_left"] == puzzle.length - index // 2 - 1
    won = client.post(f"{PUZZLES}/{puzzle.id}/attempt",
                      json={"played": line[:-1], "move": line[-1]}).json()
    assert won["verdict"] == "win" and won["reply"] is None
    assert line[-1] in won["five"] and len(won["five"]) >= 5
    assert "solved" in won["message"]


def test_a_wrong_move_and_an_illegal_one(client: TestClient) -> None:
    puzzle = get_puzzle(1)
    board = puzzle.board()
    fours = set(VcfProver(board).fours(puzzle.to_move))
    quiet = next(p for p in board.legal_moves if p not in fours)
    failed = client.post(f"{PUZZLES}/1/attempt", json={"move": list(quiet)}).json()
    assert failed["verdict"] == "fail" and "not a four" in failed["message"]
    taken = client.post(f"{PUZZLES}/1/attempt", json={"move": list(puzzle.moves[0])}).json()
    assert taken["verdict"] == "illegal" and "is occupied" in taken["message"]
    off = client.post(f"{PUZZLES}/1/attempt", json={"move": [99, 0]}).json()
    assert off["verdict"] == "illegal" and "off the board" in off["message"]


def test_a_hint(client: TestClient) -> None:
    body = client.post(f"{PUZZLES}/1/hint", json={}).json()
    assert body["hint"].startswith("make a four on the ")


def test_errors_are_clear_json(client: TestClient) -> None:
    assert_error(client.get(f"{PUZZLES}/0"), 404, "not_found", "no puzzle 0; the puzzles are")
    assert_error(client.get(f"{PUZZLES}/99999"), 404, "not_found", "no puzzle 99999")
    assert_error(client.get(f"{PUZZLES}/abc"), 422, "invalid_request", "puzzle_id")
    assert_error(client.post(f"{PUZZLES}/99999/attempt", json={"move": [7, 7]}), 404,
                 "not_found")
    puzzle = get_puzzle(1)
    url = f"{PUZZLES}/1/attempt"
    assert_error(client.post(url, json={}), 422, "invalid_request", "move: Field required")
    assert_error(client.post(url, json={"move": [7]}), 422, "invalid_request", "move")
    assert_error(client.post(url, json={"move": [7, 7], "extra": 1}), 422, "invalid_request")
    assert_error(client.post(url, json={"played": [[0, 0]] * 17, "move": [7, 7]}), 422,
                 "invalid_request", "played: List should have at most 16 items")
    assert_error(client.post(url, json={"played": [[0, 0]], "move": [7, 7]}), 422,
                 "invalid_value", "must be pairs")
    assert_error(client.post(url, json={"played": [list(puzzle.moves[0]), [0, 0]],
                                        "move": [7, 7]}),
                 409, "illegal_move", "move 1 of the moves so far")
    too_many = [[x, 0] for x in range(2 * puzzle.length)]
    assert_error(client.post(url, json={"played": too_many, "move": [7, 7]}), 422,
                 "invalid_value", "too many moves so far")
    assert_error(client.post(url, content=b"{", headers={"content-type": "application/json"}),
                 400, "malformed_json")
