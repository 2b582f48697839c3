"""The review and analysis routes: a real app, real engine workers, a real SQLite file."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import ARTIFACTS, GAMES, Server, created, new_game, play, player

from gridgames.gomoku.notation import parse_position
from gridgames.web import create_app
from review_game import BEST_ANSWERS, BLUNDER, BLUNDER_PLY, IGNORED_THREE


def import_game(client: Any, text: str = IGNORED_THREE) -> dict[str, Any]:
    moves = [list(p) for p in parse_position(text, 15, 15)]
    record = json.dumps({"width": 15, "height": 15, "rule": "freestyle", "moves": moves})
    return created(client.post(f"{GAMES}/import", json={"text": record}))


def wait_for_review(client: Any, game_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        status = client.get(f"{GAMES}/{game_id}/review").json()
        if status["state"] in ("done", "failed"):
            return status
        assert time.monotonic() < deadline, status
        time.sleep(0.1)


def test_review_labels_the_ignored_open_three_and_streams_progress(client):
    game = import_game(client)
    assert client.get(f"{GAMES}/{game['id']}/review").json()["state"] == "none"
    with client.websocket_connect(f"{GAMES}/{game['id']}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        started = client.post(f"{GAMES}/{game['id']}/review", json={"depth": 5},
                              headers=player(game["id"]))
        assert started.status_code == 202, started.text
        assert started.json()["state"] == "running" and started.json()["total"] == 14
        reports = []
        while not reports or reports[-1]["state"] == "running":
            message = ws.receive_json()
            if message["type"] == "review":
                reports.append(message)
    assert reports[-1]["state"] == "done" and reports[-1]["done"] == 14
    assert [r["done"] for r in reports] == sorted(r["done"] for r in reports)

    status = wait_for_review(client, game["id"])
    assert status["state"] == "done" and status["current"] is True
    moves = status["review"]["moves"]
    assert [m["ply"] for m in moves] == list(range(1, 14))
    blunder = moves[BLUNDER_PLY - 1]
    assert blunder["label"] == "blunder" and blunder["color"] == "white"
    assert blunder["move"] == BLUNDER and blunder["best"] in BEST_ANSWERS
    assert blunder["score"] > 20000 and moves[-1]["score"] == 30000
    for move in moves[::2]:
        assert move["color"] == "black" and move["label"] in ("best", "good", "forced")
    summary = status["review"]["summary"]
    assert summary["white"]["blunders"] == 1 and summary["black"]["blunders"] == 0
    assert len(status["review"]["scores"]) == 14


def test_a_review_survives_a_server_restart(tmp_path):
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, workers=1)) as first:
        game = import_game(first, "h8i9h9i10h10")
        first.post(f"{GAMES}/{game['id']}/review", json={"depth": 2}, headers=player(game["id"]))
        labels = [m["label"] for m in wait_for_review(first, game["id"])["review"]["moves"]]
    with TestClient(create_app(db, workers=1)) as second:
        status = second.get(f"{GAMES}/{game['id']}/review").json()
        assert status["state"] == "done" and status["current"] is True
        assert [m["label"] for m in status["review"]["moves"]] == labels
        play(second, game["id"], 0, 0)
        assert second.get(f"{GAMES}/{game['id']}/review").json()["current"] is False
        second.delete(f"{GAMES}/{game['id']}", headers=player(game["id"]))
        assert second.get(f"{GAMES}/{game['id']}/review").status_code == 404


def test_a_server_stopping_mid_review_stops_it_and_a_new_review_can_start(tmp_path):
    db = tmp_path / "games.sqlite3"
    with TestClient(create_app(db, workers=1)) as first:
        game = import_game(first)
        started = first.post(f"{GAMES}/{game['id']}/review", json={"time_ms": 2000},
                             headers=player(game["id"]))
        assert started.json()["state"] == "running"
        leaving = time.monotonic()
    assert time.monotonic() - leaving < 15  # not the half minute the review would take
    with TestClient(create_app(db, workers=1)) as second:
        assert second.get(f"{GAMES}/{game['id']}/review").json()["state"] == "none"
        second.post(f"{GAMES}/{game['id']}/review", json={"depth": 2}, headers=player(game["id"]))
        assert wait_for_review(second, game["id"])["state"] == "done"


def test_review_refuses_an_empty_game_and_an_unknown_one(client):
    game = new_game(client)
    response = client.post(f"{GAMES}/{game['id']}/review", headers=player(game["id"]))
    assert response.status_code == 409
    assert response.json() == {"error": "nothing_to_review",
                               "detail": "the game has no moves to review yet"}
    assert client.post(f"{GAMES}/nope/review").status_code == 404
    assert client.get(f"{GAMES}/nope/review").json()["error"] == "not_found"
    bad = client.post(f"{GAMES}/{game['id']}/review", json={"time_ms": 5},
                      headers=player(game["id"]))
    assert bad.status_code == 422 and "time_ms" in bad.json()["detail"]


def test_only_a_player_may_start_a_review(client):
    game = import_game(client)
    for headers in ({}, {"Authorization": "Bearer not-the-token"}):
        refused = client.post(f"{GAMES}/{game['id']}/review", json={"depth": 2}, headers=headers)
        assert refused.status_code == 403
        assert refused.json()["error"] == "not_a_player"
    assert client.get(f"{GAMES}/{game['id']}/review").json()["state"] == "none"


def test_candidates_for_a_position(client):
    moves = [[7, 7], [8, 8], [7, 8]]
    for count in (1, 5):
        response = client.post("/api/gomoku/analyse",
                               json={"moves": moves, "count": count, "depth": 3})
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["to_move"] == "white" and len(data["candidates"]) == count
        xy = [tuple(c["move_xy"]) for c in data["candidates"]]
        assert len(set(xy)) == count and not {(7, 7), (8, 8), (7, 8)} & set(xy)
        assert all(isinstance(c["score"], int) for c in data["candidates"])


def test_candidates_see_the_five(client):
    moves = [[7, 7], [0, 0], [8, 7], [0, 1], [9, 7], [0, 2], [10, 7], [0, 3]]
    data = client.post("/api/gomoku/analyse", json={"moves": moves, "count": 2,
                                                     "depth": 2}).json()
    assert data["candidates"][0]["move"] in ("g8", "l8")
    assert data["candidates"][0]["score"] > 20000


def test_candidates_bad_input(client):
    cases = [
        ({"moves": [[7, 7], [7, 7]]}, "move 2 is not legal: h8 is occupied"),
        ({"moves": [[7, 7]], "count": 6}, "count"),
        ({"moves": [[20, 7]]}, "move 1 is not legal"),
        ({"moves": [[7, 7]], "rule": "gomoku-9"}, "rule"),
        ({"moves": [[i, 7] if k % 2 == 0 else [i, 0] for i in range(5) for k in (0, 1)][:9]},
         "the game is over"),
    ]
    for body, message in cases:
        response = client.post("/api/gomoku/analyse", json=body)
        assert response.status_code == 422, (body, response.text)
        assert message in response.json()["detail"]


# Black to move under renju, with i8 (8, 7) a double three: d8... h8 across, i6 i7 down.
RENJU_DOUBLE_THREE = [[6, 7], [0, 0], [7, 7], [0, 2], [8, 5], [0, 4], [8, 6], [14, 14]]


def test_a_position_is_judged_under_its_rule(client):
    def position(**body: Any) -> Any:
        return client.post("/api/gomoku/position", json=body)

    renju = position(rule="renju", moves=RENJU_DOUBLE_THREE)
    assert renju.status_code == 200, renju.text
    assert renju.json() == {"to_move": "black", "forbidden": [[8, 7]], "outcome": None}
    foul = position(rule="renju", moves=[*RENJU_DOUBLE_THREE, [8, 7]])
    assert foul.status_code == 422
    assert foul.json()["detail"] == "move 9 is not legal: i8 is forbidden for black: double three"
    # white may play there
    assert position(rule="renju", moves=[*RENJU_DOUBLE_THREE, [1, 1], [8, 7]]).json()[
        "to_move"] == "black"

    five = [[x, 7] if i % 2 == 0 else [x, 0] for x in range(2, 7) for i in (0, 1)][:9]
    won = position(moves=five, width=9, height=9).json()
    assert won["outcome"]["winner"] == "black" and won["outcome"]["result"] == "1-0"
    assert won["outcome"]["line"] == [[x, 7] for x in range(2, 7)]
    over = position(moves=[*five, [8, 8]], width=9, height=9)
    assert over.status_code == 422 and "move 10 is not legal" in over.json()["detail"]
    assert "the game is over" in over.json()["detail"]
    # six in a row is no win under the standard rule
    six = [[x, 7] if i % 2 == 0 else [x, 0] for x in (0, 1, 2, 4, 5, 3) for i in (0, 1)][:11]
    assert position(moves=six, width=9, height=9, rule="standard").json()["outcome"] is None
    assert position(moves=six, width=9, height=9).json()["outcome"]["winner"] == "black"

    for body, words in [({"rule": "chess"}, "rule"), ({"moves": [[1]]}, "moves.0"),
                        ({"moves": [[15, 0]]}, "move 1 is not legal"),
                        ({"width": 65}, "width")]:
        refused = position(**body)
        assert refused.status_code == 422, refused.text
        assert words in refused.json()["detail"]


def test_openapi_documents_the_routes(client):
    schema = client.get("/openapi.json").json()
    review = schema["paths"]["/api/gomoku/games/{game_id}/review"]
    assert set(review) == {"get", "post"}
    assert review["post"]["responses"]["202"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ReviewStatus"}
    assert "/api/gomoku/analyse" in schema["paths"]
    components = schema["components"]["schemas"]
    assert {"ReviewStatus", "ReviewOut", "MoveReviewOut", "AnalyseRequest", "AnalyseOut"} <= set(
        components)
    assert set(components["MoveReviewOut"]["properties"]["label"]["enum"]) == {
        "best", "good", "inaccuracy", "mistake", "blunder", "forced"}


# -- in the browser -----------------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update"]
needs_chromium = pytest.mark.skipif(not CHROMIUM.exists(),
                                    reason="Debian's chromium is not installed (/usr/bin/chromium)")


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Any, Server]]:
    from playwright.sync_api import sync_playwright

    server = Server(tmp_path_factory.mktemp("review") / "games.sqlite3", workers=2)
    errors: list[str] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM),
                                                 args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900},
                                          base_url=server.url)
            tab = context.new_page()
            tab.on("pageerror", lambda error: errors.append(str(error)))
            yield tab, server
            browser.close()
    finally:
        server.stop()
    assert not errors, f"JavaScript errors: {errors}"


def stones(tab: Any) -> int:
    return int(tab.locator("#board .stones-layer .stone").count())


def shot(tab: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    tab.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@needs_chromium
def test_browser_review_graph_navigation_variation_and_candidates(page):
    tab, server = page
    game = import_game(server.http)
    # the page holds the player's token, as it would had it imported the game itself
    tab.goto("/")
    tab.evaluate("([id, token]) => localStorage.setItem('gridgames.gomoku.tokens', "
                 "JSON.stringify({[id]: token}))", [game["id"], game["token"]])
    tab.goto(f"/#/gomoku/{game['id']}")
    tab.wait_for_selector("#board .stones-layer .stone", state="attached")
    assert stones(tab) == 13

    tab.wait_for_selector("#result-dialog[open]")
    tab.click("#dialog-review")  # the game is over: the dialog offers the review
    tab.wait_for_selector("#eval-graph:not([hidden]) .graph-line", timeout=120_000)
    assert tab.locator("#eval-graph .graph-point").count() == 14
    assert tab.locator("#eval-graph .graph-point.blunder").count() >= 1
    assert tab.locator(f'.move-item[data-ply="{BLUNDER_PLY}"] .label-blunder').count() == 1
    assert "better h" in tab.locator(f'.move-item[data-ply="{BLUNDER_PLY}"]').inner_text()
    assert tab.locator("#review-summary .summary-black .accuracy").inner_text().endswith("%")
    shot(tab, "review-done")

    # clicking the graph moves the board to that point of the game
    tab.locator('#eval-graph .graph-point[data-ply="5"] rect').click()
    assert stones(tab) == 5
    assert tab.locator("#nav-where").inner_text() == "move 5 of 13"
    assert tab.locator('.move-item[data-ply="5"]').get_attribute("class").endswith("current")
    tab.locator("#nav-where").click()  # focus off the board: the arrows navigate
    tab.keyboard.press("ArrowLeft")
    assert stones(tab) == 4
    tab.keyboard.press("End")
    assert stones(tab) == 13
    tab.click("#nav-first")
    assert stones(tab) == 0
    tab.click('.move-item[data-ply="9"]')
    assert stones(tab) == 9
    shot(tab, "review-graph-jump")

    # analysis mode: candidates drawn on the board, with the evaluation bar
    tab.check("#analysis-toggle")
    tab.wait_for_selector("#board .overlay-layer .candidate", state="attached")
    tab.wait_for_function("() => document.querySelectorAll('#board .candidate').length === 3")
    assert "black" in tab.locator("#eval-text").inner_text()
    shot(tab, "review-candidates")

    # a different move at an earlier point opens a variation; the game keeps its moves
    box = tab.locator("#board").bounding_box()
    cell = float(tab.locator("#board").get_attribute("data-cell"))
    margin = float(tab.locator("#board").get_attribute("data-margin"))
    view = 2 * margin + 14 * cell
    scale = box["width"] / view
    tab.mouse.click(box["x"] + (margin + 1 * cell) * scale, box["y"] + (margin + 1 * cell) * scale)
    tab.wait_for_selector("#variation-note:not([hidden])")
    assert stones(tab) == 10
    assert len(server.http.get(f"{GAMES}/{game['id']}").json()["moves"]) == 13
    tab.wait_for_function("() => document.querySelectorAll('#board .candidate').length === 3")
    shot(tab, "review-variation")
    tab.click("#variation-close")
    assert stones(tab) == 9
    tab.uncheck("#analysis-toggle")
    assert tab.locator("#board .candidate").count() == 0

    # the review is saved with the game: a reload shows it at once
    tab.reload()
    tab.wait_for_selector("#eval-graph:not([hidden]) .graph-line")
    assert tab.locator(f'.move-item[data-ply="{BLUNDER_PLY}"] .label-blunder').count() == 1


def open_as_player(tab: Any, game: dict[str, Any]) -> None:
    """Open the game in the page, holding its player token."""
    tab.goto("/")
    tab.evaluate("([id, token]) => localStorage.setItem('gridgames.gomoku.tokens', "
                 "JSON.stringify({[id]: token}))", [game["id"], game["token"]])
    tab.goto(f"/#/gomoku/{game['id']}")
    tab.wait_for_selector("#board .grid line", state="attached")


def click_point(tab: Any, x: int, y: int) -> None:
    box = tab.locator("#board").bounding_box()
    cell = float(tab.locator("#board").get_attribute("data-cell"))
    margin = float(tab.locator("#board").get_attribute("data-margin"))
    scale = box["width"] / tab.evaluate("() => document.querySelector('#board').viewBox"
                                        ".baseVal.width")
    tab.mouse.click(box["x"] + (margin + x * cell) * scale, box["y"] + (margin + y * cell) * scale)


@needs_chromium
def test_a_variation_keeps_the_rule_forbidden_points_and_the_five(page):
    tab, server = page
    game = created(server.http.post(GAMES, json={"rule": "renju", "black": "human",
                                                 "white": "human"}))
    for x, y in [*RENJU_DOUBLE_THREE, (2, 12), (12, 2)]:
        play(server.http, game["id"], x, y)
    open_as_player(tab, game)
    tab.wait_for_function("() => document.querySelectorAll('#board .stone').length === 10")
    # an earlier point of the game shows the points forbidden there
    tab.click('.move-item[data-ply="8"]')
    tab.wait_for_selector('#board .forbid[data-x="8"][data-y="7"]', state="attached")
    tab.click('.move-item[data-ply="7"]')  # browse: a click now makes a variation
    click_point(tab, 14, 13)  # white answers elsewhere than in the game
    tab.wait_for_selector("#variation-note:not([hidden])")
    # black to move in the variation: its double three is marked, as in the game
    tab.wait_for_selector('#board .forbid[data-x="8"][data-y="7"]', state="attached")
    click_point(tab, 8, 7)
    tab.wait_for_selector("#toast:not([hidden])")
    assert "i8 is forbidden for black: double three" in tab.locator("#toast").inner_text()
    assert stones(tab) == 8 and tab.locator("#nav-where").inner_text() == "variation, move 8"

    # black makes five along row 8 in the variation: it ends there, as a game would
    for x, y in [(5, 7), (1, 1), (4, 7), (1, 3), (3, 7)]:
        click_point(tab, x, y)
    tab.wait_for_selector("#board .win-line", state="attached")
    assert stones(tab) == 13
    click_point(tab, 10, 10)
    time.sleep(0.5)
    assert stones(tab) == 13 and tab.locator("#nav-where").inner_text() == "variation, move 13"
    tab.check("#analysis-toggle")
    assert tab.locator("#analysis-depth").inner_text() == "five in a row: no moves to analyse"
    tab.uncheck("#analysis-toggle")
    assert len(server.http.get(f"{GAMES}/{game['id']}").json()["moves"]) == 10


@needs_chromium
def test_a_review_is_not_shown_for_moves_played_otherwise_since(page):
    tab, server = page
    game = new_game(server.http)  # 9 × 9, two people
    for x, y in [(2, 4), (0, 0), (3, 4), (1, 0), (4, 4), (2, 0), (5, 4), (3, 0), (6, 4)]:
        play(server.http, game["id"], x, y)
    server.http.post(f"{GAMES}/{game['id']}/review", json={"depth": 2}, headers=player(game["id"]))
    assert wait_for_review(server.http, game["id"])["state"] == "done"
    for _ in range(2):  # back to move 7, then other moves 8 and 9
        assert server.http.post(f"{GAMES}/{game['id']}/undo",
                                headers=player(game["id"])).status_code == 200
    play(server.http, game["id"], 6, 4)
    play(server.http, game["id"], 8, 8)

    open_as_player(tab, game)
    tab.wait_for_selector("#eval-graph:not([hidden]) .graph-line")
    # the review's curve, labels and scores stop where the game left the reviewed moves
    assert tab.locator("#eval-graph .graph-point").count() == 8
    assert tab.locator(".move-item .label").count() == 7
    assert tab.locator("#eval-text").inner_text() == "no evaluation yet"
    tab.click('.move-item[data-ply="7"]')
    assert tab.locator("#eval-text").inner_text() != "no evaluation yet"
    assert tab.locator("#review-start").inner_text() == "Review again"
