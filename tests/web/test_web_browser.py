"""The pages in a real headless Chromium (Debian's), against `gridgames serve`.

Screenshots go to test-artifacts/ for a person to look at. Those the documentation
shows go to docs/img/ as well when GRIDGAMES_DOCS_IMAGES=1 (``make screenshots``).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import ARTIFACTS, GAMES, Server, new_game, play, player

from gridgames.gomoku.ai import MAX_LEVEL

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}
# Black's five along row 4 on a 9 × 9 board, white answering on row 0.
BLACK_WINS = [(2, 4), (0, 0), (3, 4), (1, 0), (4, 4), (2, 0), (5, 4), (3, 0), (6, 4)]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian's chromium is not installed (/usr/bin/chromium)"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("browser") / "games.sqlite3", workers=2)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser: Any, server: Server) -> Iterator[Any]:
    context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def shot(page: Any, name: str, *, full_page: bool = True) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)


DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "img"


def docs_shot(page: Any, name: str) -> None:
    """A screenshot the documentation shows (``docs/img/NAME.png``, on request)."""
    shot(page, name, full_page=False)
    if os.environ.get("GRIDGAMES_DOCS_IMAGES") == "1":
        shutil.copyfile(ARTIFACTS / f"{name}.png", DOCS_IMAGES / f"{name}.png")


def start_game(page: Any, mode: str, size: int, level: int = 1, *, rule: str | None = None,
               opening: str | None = None) -> None:
    page.goto("/#/gomoku")
    page.wait_for_selector(f"#opening option[value='{opening or 'free'}']", state="attached")
    page.locator(f'input[name="mode"][value="{mode}"]').check()
    if opening is not None:
        page.select_option("#opening", opening)
    if rule is not None:
        page.select_option("#rule", rule)
    page.fill("#columns", str(size))
    page.fill("#rows", str(size))
    if mode != "hh":
        page.select_option("#level", str(level))
        page.select_option("#time-ms", "500")
    page.click("#start-game")
    page.wait_for_selector("#view-game:not([hidden])")
    page.wait_for_selector("#board .grid line", state="attached")


def start_renju_opening(page: Any, opening: str) -> None:
    """A renju game on 15×15 between two people under ``opening``."""
    start_game(page, "hh", 15, rule="renju", opening=opening)


def intersection(page: Any, x: int, y: int, board: str = "#board") -> tuple[float, float]:
    """Where the intersection (x, y) of the ``board`` SVG is on the screen."""
    box = page.locator(board).bounding_box()
    data = page.evaluate("""(board) => {
        const svg = document.querySelector(board);
        return {cell: +svg.dataset.cell, margin: +svg.dataset.margin,
                width: svg.viewBox.baseVal.width};
    }""", board)
    scale = box["width"] / data["width"]
    return (box["x"] + (data["margin"] + x * data["cell"]) * scale,
            box["y"] + (data["margin"] + y * data["cell"]) * scale)


def stones(page: Any) -> set[tuple[int, int]]:
    points = page.eval_on_selector_all(
        "#board circle.stone", "els => els.map(e => [+e.dataset.x, +e.dataset.y])")
    return {(x, y) for x, y in points}


def result_shown(page: Any) -> bool:
    return bool(page.evaluate("() => document.querySelector('#result-dialog').open"))


def test_home_and_setup(page: Any) -> None:
    page.goto("/")
    assert page.locator("#choose-gomoku").is_visible()
    assert page.locator("#choose-queens").is_visible()
    shot(page, "home-desktop")
    page.click("#choose-gomoku")
    page.wait_for_selector("#rule option[value='renju']", state="attached")
    shot(page, "gomoku-setup-desktop")
    page.locator('input[name="mode"][value="hh"]').check()
    assert page.locator("#computer-fields").is_hidden()


def test_human_vs_computer_game_to_the_end(page: Any) -> None:
    start_game(page, "hc", 7)
    # The cursor snaps to the nearest intersection.
    x, y = intersection(page, 3, 3)
    page.mouse.move(x + 9, y - 8)
    cursor = page.locator("#board .cursor")
    assert cursor.get_attribute("visibility") == "visible"
    centre = page.evaluate("() => +document.querySelector('#board').dataset.margin + 3 * 40")
    assert float(cursor.get_attribute("cx")) == float(cursor.get_attribute("cy")) == centre

    order = [(3, 3), (2, 2), (4, 4), (2, 4), (4, 2), (3, 2), (3, 4), (2, 3), (4, 3)]
    order += [(x, y) for y in range(7) for x in range(7) if (x, y) not in order]
    deadline = time.monotonic() + 90
    while not result_shown(page):
        assert time.monotonic() < deadline, "the game did not end"
        if page.locator("#board.playable").count():
            taken = stones(page)
            point = next(p for p in order if p not in taken)
            page.mouse.click(*intersection(page, *point))
            page.wait_for_function(
                "n => document.querySelectorAll('#board circle.stone').length > n"
                " || document.querySelector('#result-dialog').open", arg=len(taken))
        else:
            page.wait_for_timeout(50)
    title = page.locator("#result-title").inner_text()
    assert title in {"You win!", "The computer wins", "Draw"}
    if title != "Draw":
        assert page.locator("#board .win-ring").count() >= 5
    shot(page, "gomoku-human-vs-computer-end")
    page.click("#result-dialog button[value='review']")
    assert "wins" in page.locator("#status-text").inner_text() or "Draw" in title
    shot(page, "gomoku-human-vs-computer-board")


def test_computer_vs_computer_game_to_the_end(page: Any) -> None:
    start_game(page, "cc", 7)
    page.wait_for_function("() => document.querySelector('#result-dialog').open",
                           timeout=90_000)
    assert page.locator("#board circle.stone").count() >= 9
    shot(page, "gomoku-computer-vs-computer-end")


def test_undo_hint_and_numbers(page: Any) -> None:
    start_game(page, "hc", 15, level=2)
    page.mouse.click(*intersection(page, 7, 7))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 2")
    page.click("#hint")
    page.wait_for_selector("#board .hint-ring")
    assert page.locator("#hint-text").inner_text().startswith("Hint:")
    page.check("#show-numbers")
    assert page.locator("#board text.num").count() == 2
    shot(page, "gomoku-hint-numbers")
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 0")


def test_big_board_zoom(page: Any) -> None:
    start_game(page, "hh", 64)  # the largest board
    page.mouse.click(*intersection(page, 32, 32))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    assert stones(page) == {(32, 32)}
    before = page.locator("#board").bounding_box()["width"]
    page.click("#zoom-in")
    after = page.locator("#board").bounding_box()["width"]
    assert after > before * 1.4
    shot(page, "gomoku-64x64-zoomed", full_page=False)


def test_keyboard_play_on_a_zoomed_big_board(page: Any, server: Server) -> None:
    game = new_game(server.http, width=64, height=64)
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem('gridgames.gomoku.tokens', "
                  "JSON.stringify({[id]: token}))", [game["id"], game["token"]])
    page.goto(f"/#/gomoku/{game['id']}")
    page.wait_for_selector("#board .grid line", state="attached")
    for _ in range(3):
        page.click("#zoom-in")
    page.focus("#zoom-in")
    page.keyboard.press("Tab")  # onto the board: the cursor shows where Enter plays
    cursor = page.locator("#board .cursor")
    assert cursor.get_attribute("visibility") == "visible"
    assert page.evaluate("() => document.activeElement.id") == "board"
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    # the board scrolled to keep the cursor in sight
    frame = page.locator("#board-scroll").bounding_box()
    box = cursor.bounding_box()
    centre = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert frame["x"] < centre[0] < frame["x"] + frame["width"], (centre, frame)
    assert frame["y"] < centre[1] < frame["y"] + frame["height"], (centre, frame)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length === 1")
    assert stones(page) == {(62, 32)}


def test_queens_refusal_and_solve(page: Any) -> None:
    page.goto("/#/queens")
    assert page.locator("#queens-help").is_visible()
    shot(page, "queens-help")
    page.click("#queens-continue")
    cell = "#queens-board .cell[data-row='{}'][data-col='{}']"
    page.click(cell.format(0, 1))
    page.click(cell.format(2, 3))  # on the queen's diagonal: refused
    assert "flash-attacker" in page.get_attribute(cell.format(0, 1), "class")
    assert "flash-line" in page.get_attribute(cell.format(1, 2), "class")
    assert "refused" in page.get_attribute(cell.format(2, 3), "class")
    assert "Refused" in page.locator("#queens-status").inner_text()
    assert page.locator("#queens-board .cell.queen").count() == 1
    shot(page, "queens-refused")
    page.click("#queens-solve")
    page.wait_for_function("() => document.querySelectorAll('#queens-board .queen').length == 8")
    assert "Solved in" in page.locator("#queens-status").inner_text()
    assert "queen" in (page.get_attribute(cell.format(0, 1), "class") or "")
    page.wait_for_function(
        "() => document.querySelector('#queens-total').textContent.includes('92')")
    shot(page, "queens-solved")

    page.click("#queens-restart")
    page.click(cell.format(0, 0))
    page.click(cell.format(1, 2))
    page.click("#queens-solve")
    page.wait_for_function(
        "() => document.querySelector('#queens-status').textContent.includes('No solution')")


@pytest.mark.parametrize("button", ["solve", "hint"])
def test_queens_placed_while_the_server_answers_are_not_overrun(page: Any, button: str) -> None:
    # The server's answer is held back (a busy server): meanwhile the player places a queen.
    held: list[Any] = []
    page.route(f"**/api/queens/{button}", lambda route: held.append(route))
    page.goto("/#/queens")
    page.click("#queens-continue")
    cell = "#queens-board .cell[data-row='{}'][data-col='{}']"
    page.click(cell.format(0, 0))
    page.click(f"#queens-{button}")
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the request never left the page"
        page.wait_for_timeout(50)
    page.click(cell.format(1, 2))
    route = held[0]
    route.fulfill(response=route.fetch())  # the real answer, for the board with one queen
    page.wait_for_function(
        "() => document.querySelector('#queens-status').textContent.includes('changed')")
    # the answer was for the old board: the player's two queens stay as they are
    queens = page.eval_on_selector_all(
        "#queens-board .cell.queen", "cells => cells.map(c => [+c.dataset.row, +c.dataset.col])")
    assert sorted(queens) == [[0, 0], [1, 2]]
    assert page.locator("#queens-placed").inner_text() == "2"
    assert page.locator("#queens-board .cell.flash-line").count() == 0


def test_queens_board_by_keyboard_is_one_tab_stop(page: Any) -> None:
    page.goto("/#/queens")
    page.click("#queens-continue")
    focused = ("() => { const e = document.activeElement; "
               "return e.id || `${e.dataset.row},${e.dataset.col}`; }")
    page.focus("#queens-board .cell[data-row='0'][data-col='0']")
    for key in ["ArrowRight", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowDown"]:
        page.keyboard.press(key)
    assert page.evaluate(focused) == "1,1"
    page.keyboard.press("Enter")
    assert page.locator("#queens-placed").inner_text() == "1"
    page.keyboard.press("End")
    assert page.evaluate(focused) == "1,7"
    page.keyboard.press("Home")
    # Tab leaves the board for the controls beside it, Shift+Tab comes back to the square
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "queens-size"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == "1,0"
    page.keyboard.press("Space")
    assert "Refused" in page.locator("#queens-status").inner_text()


def test_phone_layout(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server.url, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto("/")
    shot(page, "home-phone")
    start_game(page, "hc", 15, level=1)
    page.mouse.click(*intersection(page, 7, 7))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 2")
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], "the page scrolls sideways on a phone"
    shot(page, "gomoku-phone")
    page.goto("/#/queens")
    page.click("#queens-continue")
    page.click("#queens-board .cell[data-row='3'][data-col='3']")
    shot(page, "queens-phone")
    context.close()


def test_download_and_load_record(page: Any) -> None:
    start_game(page, "hh", 9)
    for point in [(4, 4), (3, 3), (5, 5)]:
        page.mouse.click(*intersection(page, *point))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    page.click("#download")
    with page.expect_download() as download_info:
        page.click("#download-psq")
    download = download_info.value
    assert download.suggested_filename.endswith(".psq")
    # The menu closes once a format is picked: the button opens it again.
    assert page.locator("#download-menu").is_hidden()
    page.click("#download")
    assert page.locator("#download-menu").is_visible()
    page.click("#download")
    record = Path(download.path()).read_text()
    assert record.startswith("Piskvorky 9x9")
    first_url = page.url
    page.set_input_files("#game-load", files=[
        {"name": "game.psq", "mimeType": "text/plain", "buffer": record.encode()}])
    page.wait_for_function("url => location.href !== url", arg=first_url)
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    assert page.locator("#move-number").inner_text() == "3"


def test_engine_progress_while_the_computer_thinks(page: Any) -> None:
    start_game(page, "hc", 15, level=MAX_LEVEL)
    # Record what the page shows during the search: it may be short.
    page.evaluate("""() => {
        window.seen = {texts: [], marks: 0};
        new MutationObserver(() => {
            const text = document.querySelector('#thinking-progress').textContent;
            if (text && !document.querySelector('#thinking').hidden) window.seen.texts.push(text);
            window.seen.marks = Math.max(window.seen.marks,
                document.querySelectorAll('#board .think-mark').length);
        }).observe(document.querySelector('main'), {subtree: true, childList: true,
                                                    characterData: true, attributes: true});
    }""")
    page.mouse.click(*intersection(page, 7, 7))
    # Generous: on a cold, busy machine the engine workers may still be warming up.
    page.wait_for_function("() => window.seen.texts.length > 0", timeout=60_000)
    shot(page, "gomoku-engine-progress", full_page=False)
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 2",
                           timeout=60_000)
    seen = page.evaluate("() => window.seen")
    progress = r"depth \d+ · score \S+ for white · \S+ nodes( · \S+/s)? · best [a-o]\d+"
    assert any(re.fullmatch(progress, text) for text in seen["texts"]), seen
    assert seen["marks"] == 1
    # The final score says whose view it is.
    assert re.fullmatch(r"(\S+|win in \d+|loss in \d+) for white · depth \d+ · [\d.]+ s",
                        page.locator("#engine-eval").inner_text())
    # The search is over: no progress and no faint stone are left behind.
    assert page.locator("#thinking").is_hidden()
    assert page.locator("#board .think-mark").count() == 0


def test_queens_messages_for_empty_and_full_boards(page: Any) -> None:
    page.goto("/#/queens")
    page.click("#queens-continue")
    page.select_option("#queens-size", "20")
    page.click("#queens-solve")
    page.wait_for_function("() => document.querySelectorAll('#queens-board .queen').length == 20",
                           timeout=60_000)
    status = page.locator("#queens-status")
    assert re.fullmatch(r"Solved in [\d.]+ m?s\.", status.inner_text())  # no "your 0 queens"
    page.click("#queens-solve")
    assert status.inner_text().startswith("The board is already complete")
    # The rank and file labels stay legible on the biggest board.
    size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.cell .label')).fontSize)")
    assert size >= 9
    shot(page, "queens-20-solved", full_page=False)


# Each rank and file label of the queens board with its WCAG contrast ratio against
# what shows under it (its own background if any, over its square).
QUEENS_LABEL_CONTRASTS = """() => {
    const rgba = (css) => {
        const [r, g, b, a = 1] = css.match(/[\\d.]+/g).map(Number);
        return [r, g, b, a];
    };
    const over = ([r, g, b, a], [R, G, B]) =>
        [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
    const luminance = (rgb) => {
        const [r, g, b] = rgb.map((c) => c / 255)
            .map((c) => c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    return [...document.querySelectorAll('#queens-board .label')].map((label) => {
        const style = getComputedStyle(label);
        const opacity = Number(style.opacity);
        const faded = (css) => { const [r, g, b, a] = rgba(css); return [r, g, b, a * opacity]; };
        const square = rgba(getComputedStyle(label.closest('.cell')).backgroundColor);
        const behind = over(faded(style.backgroundColor), square);
        const ink = luminance(over(faded(style.color), behind));
        const [light, dark] = [ink, luminance(behind)].sort((a, b) => b - a);
        return [label.textContent, (light + 0.05) / (dark + 0.05)];
    });
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_queens_labels_are_readable_on_light_and_dark_squares(browser: Any, server: Server,
                                                             viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport, base_url=server.url)
    page = context.new_page()
    page.goto("/#/queens")
    page.click("#queens-continue")
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme)
        for n in ["8", "20"]:
            page.select_option("#queens-size", n)
            contrasts = page.evaluate(QUEENS_LABEL_CONTRASTS)
            assert len(contrasts) == 2 * int(n)
            faint = [(text, round(ratio, 2)) for text, ratio in contrasts if ratio < 4.5]
            assert not faint, f"{n} × {n}, {scheme}: labels below 4.5:1: {faint}"
    shot(page, f"queens-20-labels-{'phone' if viewport is PHONE else 'desktop'}", full_page=False)
    context.close()


def test_watching_the_backtracking_search(page: Any) -> None:
    page.goto("/#/queens")
    page.click("#queens-continue")
    page.select_option("#queens-size", "6")
    cell = "#queens-board .cell[data-row='{}'][data-col='{}']"
    page.click(cell.format(0, 2))  # the player's queen, which the search keeps
    speed = "value => { document.querySelector('#queens-speed').value = value; }"
    page.evaluate(speed, "2")  # slow: it can be caught, paused and stopped
    page.click("#queens-watch")
    page.wait_for_selector("#queens-board.searching .cell.last-place")
    assert page.locator("#queens-solve").is_disabled()
    page.click("#queens-watch-pause")
    assert page.locator("#queens-watch-pause").inner_text() == "Resume"
    shot(page, "queens-watching")
    page.click(cell.format(5, 5))
    assert "stop it to place queens" in page.locator("#queens-status").inner_text()
    page.click("#queens-watch-stop")
    assert page.locator("#queens-board .queen").count() == 1
    assert "queen" in (page.get_attribute(cell.format(0, 2), "class") or "")
    assert page.locator("#queens-watch-panel").is_hidden()
    # Fastest, to the end: the first solution that keeps the queen on c6.
    page.evaluate(speed, "5")
    page.click("#queens-watch")
    page.wait_for_function(
        "() => document.querySelector('#queens-status').textContent.includes('found a solution')")
    queens = {(int(q.get_attribute("data-row")), int(q.get_attribute("data-col")))
              for q in page.locator("#queens-board .cell.queen").all()}
    assert queens == {(0, 2), (1, 5), (2, 1), (3, 4), (4, 0), (5, 3)}
    assert not page.locator("#queens-watch").is_disabled()
    # A board nothing completes: the search proves it and gives the queens back.
    page.click("#queens-restart")
    page.select_option("#queens-size", "4")
    page.click(cell.format(0, 0))
    page.click("#queens-watch")
    page.wait_for_function(
        "() => document.querySelector('#queens-status').textContent.includes('No solution')")
    assert page.locator("#queens-board .queen").count() == 1


def test_phone_big_board_opens_on_its_centre(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server.url, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    start_game(page, "hh", 60)
    x, y = intersection(page, 30, 30)
    # Zoomed in for touch, the board scrolls inside its frame and opens on its centre,
    # in the middle of the screen, with the status still on screen below it.
    assert PHONE["width"] / 3 < x < PHONE["width"] * 2 / 3, x
    assert PHONE["height"] / 4 < y < PHONE["height"] * 2 / 3, y
    assert page.locator("#status").bounding_box()["y"] < PHONE["height"]
    page.mouse.click(x, y)
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    assert stones(page) == {(30, 30)}
    shot(page, "gomoku-phone-60x60", full_page=False)
    context.close()


def test_phone_big_board_opens_again_where_the_game_is(browser: Any, server: Server) -> None:
    game = new_game(server.http, width=64, height=64)
    for x, y in [(5, 58), (7, 56), (6, 58)]:  # near a corner, far from the centre
        play(server.http, game["id"], x, y)
    context = browser.new_context(viewport=PHONE, base_url=server.url, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(f"/#/gomoku/{game['id']}")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    # the last move is in sight in the board's frame, not the empty centre
    frame = page.locator("#board-scroll").bounding_box()
    x, y = intersection(page, 6, 58)
    assert frame["x"] < x < frame["x"] + frame["width"], (x, frame)
    assert frame["y"] < y < frame["y"] + frame["height"], (y, frame)
    context.close()


@pytest.mark.parametrize("width, height", [(10, 60), (5, 64)])
def test_phone_tall_board_opens_with_stones_big_enough_to_tap(browser: Any, server: Server,
                                                             width: int, height: int) -> None:
    context = browser.new_context(viewport=PHONE, base_url=server.url, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    game = new_game(server.http, width=width, height=height)
    page.goto("/")
    page.evaluate("([id, token]) => localStorage.setItem('gridgames.gomoku.tokens', "
                  "JSON.stringify({[id]: token}))", [game["id"], game["token"]])
    page.goto(f"/#/gomoku/{game['id']}")
    page.wait_for_selector("#board .grid line", state="attached")
    (x0, y0), (x1, y1) = intersection(page, 2, 30), intersection(page, 3, 31)
    assert x1 - x0 > 21.5 and y1 - y0 > 21.5, (x1 - x0, y1 - y0)  # 22 px, the touch minimum
    page.mouse.click(*intersection(page, 2, 30))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    assert stones(page) == {(2, 30)}
    context.close()


def test_playing_white_against_the_computer(page: Any) -> None:
    page.goto("/#/gomoku")
    page.wait_for_selector("#rule option", state="attached")
    page.locator('input[name="mode"][value="hc"]').check()
    page.locator('input[name="colour"][value="white"]').check()
    page.select_option("#level", "1")
    page.click("#start-game")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    page.wait_for_selector("#board.playable")
    assert page.locator("#status-text").inner_text() == "White to move · your turn"
    # the status, read out by screen readers as it changes, names the move (not shown)
    assert page.locator("#status-move").text_content() == "Black played h8. "
    # level 1 looks no move ahead: its move has no score to show (a wait for a free
    # engine, if any, is told after it)
    assert re.fullmatch(r"no look-ahead · [\d.]+ s( \(waited [\d.]+ s\))?",
                        page.locator("#engine-eval").inner_text())
    assert page.locator("#status").get_attribute("aria-live") == "polite"
    assert page.locator("#status-move").bounding_box()["width"] <= 1
    # Only the computer has moved: there is nothing of yours to take back.
    assert page.locator("#undo").is_disabled()
    page.mouse.click(*intersection(page, 0, 0))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    page.wait_for_selector("#board.playable")
    assert page.locator("#status-move").text_content().startswith("Black played ")
    assert page.locator("#undo").is_enabled()
    page.click("#undo")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    assert page.locator("#undo").is_disabled()


def test_quick_clicks_are_not_lost_on_a_slow_server(page: Any) -> None:
    # Every move request takes 400 ms: the players click faster than that.
    page.add_init_script("""(() => {
        const fetch = window.fetch;
        window.fetch = (url, options) => String(url).endsWith('/moves')
            ? new Promise((done) => setTimeout(done, 400)).then(() => fetch(url, options))
            : fetch(url, options);
    })()""")
    start_game(page, "hh", 9)
    for point in [(4, 4), (3, 3), (5, 5)]:
        page.mouse.click(*intersection(page, *point))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    assert page.locator("#board circle.stone.stone-black").count() == 2
    assert page.locator("#move-number").inner_text() == "3"


def test_switching_games_does_not_show_or_play_on_the_old_board(page: Any) -> None:
    start_game(page, "hh", 9)
    page.mouse.click(*intersection(page, 4, 4))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    first = page.evaluate("location.hash")
    start_game(page, "hh", 15)
    second = page.evaluate("location.hash")
    # Loading the first game again is slow; meanwhile the second game's board is gone.
    page.evaluate("""() => {
        const fetch = window.fetch;
        window.fetch = (url, options) => String(url).includes('/games/') && !options?.body
            ? new Promise((done) => setTimeout(done, 1500)).then(() => fetch(url, options))
            : fetch(url, options);
    }""")
    page.evaluate("hash => { location.hash = hash; }", first)
    page.wait_for_function(
        "() => document.querySelector('#status-text').textContent === 'Loading…'")
    assert page.locator("#board circle.stone").count() == 0
    assert page.locator("#board.playable").count() == 0
    assert page.locator("#game-title").inner_text() == ""
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    assert "9×9" in page.locator("#game-title").inner_text()
    assert second != first


def test_a_json_record_keeps_its_rule_and_a_psq_takes_the_chosen_one(page: Any) -> None:
    start_game(page, "hh", 15)
    game_id = page.evaluate("location.hash").split("/")[-1]
    record = page.request.get(f"/api/gomoku/games/{game_id}/record?format=json").json()
    record.update(rule="renju", moves=[[7, 7], [0, 0], [8, 7]])
    page.goto("/#/gomoku")
    page.wait_for_selector("#rule option", state="attached")
    page.select_option("#rule", "caro")  # what the form happens to show
    page.set_input_files("#setup-load", files=[{
        "name": "game.json", "mimeType": "application/json", "buffer": json.dumps(record).encode(),
    }])
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    assert page.locator("#game-title").inner_text().startswith("Renju 15×15")

    psq = "Piskvorky 15x15, 0:0, 0\n8,8,0\n1,1,0\n"
    page.goto("/#/gomoku")
    page.select_option("#rule", "caro")
    page.set_input_files("#setup-load", files=[
        {"name": "game.psq", "mimeType": "text/plain", "buffer": psq.encode()}])
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 2")
    assert page.locator("#game-title").inner_text().startswith("Caro 15×15")


def test_games_to_continue_say_how_far_they_got(page: Any) -> None:
    start_game(page, "hh", 9)
    for point in BLACK_WINS:
        page.mouse.click(*intersection(page, *point))
    page.wait_for_function("() => document.querySelector('#result-dialog').open")
    start_game(page, "hh", 9)
    page.mouse.click(*intersection(page, 4, 4))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    page.goto("/")
    items = page.locator("#recent-list li").all_inner_texts()
    assert items[0].startswith("Freestyle 9×9 · Human vs Human · 1 move\n"), items
    assert items[1].startswith("Freestyle 9×9 · Human vs Human · 9 moves · Black won\n"), items


@pytest.mark.parametrize("viewport", [PHONE, {"width": 800, "height": 1000}, DESKTOP,
                                      {"width": 844, "height": 390},  # a phone held sideways
                                      {"width": 1280, "height": 440}])
def test_a_board_fits_its_frame_without_scrolling(browser: Any, server: Server,
                                                  viewport: dict[str, int]) -> None:
    context = browser.new_context(viewport=viewport, base_url=server.url)
    page = context.new_page()
    start_game(page, "hh", 15)
    sizes = page.evaluate("""() => {
        const s = document.querySelector('#board-scroll');
        return [s.scrollWidth, s.clientWidth, s.scrollHeight, s.clientHeight];
    }""")
    assert sizes[0] <= sizes[1] and sizes[2] <= sizes[3], sizes
    context.close()


def test_solving_a_puzzle_by_clicking_its_fours(page: Any) -> None:
    from gridgames.gomoku.puzzles import load_puzzles

    puzzle = next(p for p in load_puzzles() if p.length == 3)
    page.goto("/#/")
    page.click(".topbar nav a[href='#/puzzles']")
    page.wait_for_selector("#view-puzzles:not([hidden])")
    page.select_option("#puzzle-select", str(puzzle.id))
    page.wait_for_function(
        "id => document.querySelector('#puzzle-title').textContent.startsWith(`Puzzle ${id}:`)",
        arg=puzzle.id)
    assert page.locator(".topbar nav a.active").inner_text() == "Puzzles"
    side = puzzle.to_move.label.capitalize()
    assert page.locator("#puzzle-text").inner_text() == f"{side} to play and win in 3 moves"
    stones_now = len(puzzle.moves)
    for index, (x, y) in enumerate(puzzle.solution[::2]):
        page.mouse.click(*intersection(page, x, y, "#puzzle-board"))
        if index < 2:  # a four, and the defender's block
            stones_now += 2
            page.wait_for_function(
                "n => document.querySelectorAll('#puzzle-board circle.stone').length === n",
                arg=stones_now)
            assert "makes a four" in page.locator("#puzzle-message").inner_text()
    page.wait_for_selector("#puzzle-message.solved")
    assert "makes five: solved!" in page.locator("#puzzle-message").inner_text()
    assert page.locator("#puzzle-board .win-ring").count() >= 5
    assert page.locator("#puzzle-text").inner_text() == f"{side} won"
    page.click("#puzzle-show-solution")
    assert page.locator("#puzzle-solution").inner_text().startswith("Solution: 1. ")
    shot(page, "puzzle-solved")
    # Solved puzzles are marked, counted and remembered by the browser.
    option = f"#puzzle-select option[value='{puzzle.id}']"
    total = len(load_puzzles())
    assert page.locator("#puzzle-progress").inner_text() == f"Solved 1 of {total} in this browser"
    assert page.locator(option).inner_text().startswith("✓ ")
    page.reload()
    page.wait_for_function(
        "id => document.querySelector('#puzzle-title').textContent.startsWith(`Puzzle ${id}:`)",
        arg=puzzle.id)
    assert page.locator(option).inner_text().startswith("✓ ")
    page.click("#puzzle-next")  # the next one not solved
    page.wait_for_function(
        "id => !document.querySelector('#puzzle-title').textContent.startsWith(`Puzzle ${id}:`)",
        arg=puzzle.id)
    now = page.evaluate("document.querySelector('#puzzle-select').value")
    assert not page.locator(f"#puzzle-select option[value='{now}']").inner_text().startswith("✓")


def wait_for_puzzle(page: Any, puzzle_id: int) -> None:
    page.wait_for_function(
        "id => document.querySelector('#puzzle-title').textContent.startsWith(`Puzzle ${id}:`)",
        arg=puzzle_id)


def test_a_hint_after_a_failed_attempt_starts_the_puzzle_again(page: Any) -> None:
    from gridgames.gomoku.puzzles import hint, judge, load_puzzles

    puzzle = next(p for p in load_puzzles() if p.length >= 2)
    points = [(x, y) for y in range(puzzle.height) for x in range(puzzle.width)]
    wrong = next(p for p in points if judge(puzzle, [], p).kind == "fail")
    page.goto(f"/#/puzzles/{puzzle.id}")
    wait_for_puzzle(page, puzzle.id)
    page.mouse.click(*intersection(page, *wrong, "#puzzle-board"))
    page.wait_for_selector("#puzzle-message.failed")
    assert page.locator("#puzzle-text").inner_text() == "Not solved"
    page.click("#puzzle-hint")
    message = page.locator("#puzzle-message")
    page.wait_for_function(
        "() => document.querySelector('#puzzle-message').textContent.includes('Hint:')")
    assert message.inner_text() == f"Back to the start. Hint: {hint(puzzle)}."
    assert page.locator("#puzzle-board circle.stone").count() == len(puzzle.moves)
    assert page.locator("#puzzle-text").inner_text().endswith(
        f"to play and win in {puzzle.length} moves")
    # Once solved, the hint button says so rather than nothing.
    stones_now = len(puzzle.moves)
    for index, (x, y) in enumerate(puzzle.solution[::2]):
        stones_now += 1 if index == puzzle.length - 1 else 2  # the five has no reply
        page.mouse.click(*intersection(page, x, y, "#puzzle-board"))
        page.wait_for_function(
            "n => document.querySelectorAll('#puzzle-board circle.stone').length === n",
            arg=stones_now)
    page.wait_for_selector("#puzzle-message.solved")
    page.click("#puzzle-hint")
    assert "already solved" in message.inner_text()


def test_a_puzzle_answer_for_an_attempt_left_behind_is_dropped(page: Any) -> None:
    from gridgames.gomoku.puzzles import load_puzzles

    first, second = [p for p in load_puzzles() if p.length >= 2][:2]
    held: list[Any] = []
    page.route("**/api/gomoku/puzzles/*/attempt", lambda route: held.append(route))
    page.goto(f"/#/puzzles/{first.id}")
    wait_for_puzzle(page, first.id)
    page.mouse.click(*intersection(page, *first.solution[0], "#puzzle-board"))
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the move was never sent"
        page.wait_for_timeout(50)
    page.select_option("#puzzle-select", str(second.id))  # another puzzle meanwhile
    wait_for_puzzle(page, second.id)
    route = held.pop()
    route.fulfill(response=route.fetch())  # the real verdict: a four on the first puzzle
    page.wait_for_function("() => document.querySelector('#puzzle-board').classList"
                           ".contains('playable')")
    # the second puzzle shows its own position, and its attempt starts from there
    assert page.locator("#puzzle-board circle.stone").count() == len(second.moves)
    assert page.locator("#puzzle-message").inner_text() == ""
    page.unroute("**/api/gomoku/puzzles/*/attempt")
    page.mouse.click(*intersection(page, *second.solution[0], "#puzzle-board"))
    page.wait_for_function(
        "n => document.querySelectorAll('#puzzle-board circle.stone').length === n",
        arg=len(second.moves) + 2)
    assert "makes a four" in page.locator("#puzzle-message").inner_text()


def test_a_link_to_a_missing_puzzle_opens_another_and_says_so(page: Any) -> None:
    from gridgames.gomoku.puzzles import load_puzzles

    first, second = load_puzzles()[:2]
    message = "document.querySelector('#puzzle-message').textContent"
    for link, missing in [("#/puzzles/9999", "There is no puzzle 9999"),
                          ("#/puzzles/abc", "There is no such puzzle")]:
        page.goto(f"/#/puzzles/{second.id}")
        wait_for_puzzle(page, second.id)
        page.evaluate("link => { location.hash = link; }", link)
        page.wait_for_function(f"text => {message}.startsWith(text)", arg=missing)
        # The address, the board and the list all name the puzzle shown.
        wait_for_puzzle(page, first.id)
        assert page.evaluate("location.hash") == f"#/puzzles/{first.id}"
        assert page.locator("#puzzle-select").input_value() == str(first.id)
        assert page.evaluate(message) == f"{missing}: here is puzzle {first.id}."
        shot(page, "puzzle-missing")
        page.go_back()  # the missing link was replaced, not added to the history
        wait_for_puzzle(page, second.id)
        assert page.evaluate("location.hash") == f"#/puzzles/{second.id}"


def test_screenshots_for_the_docs(page: Any) -> None:
    """A renju game against the computer a few moves in, and a solved queens board."""
    page.goto("/#/gomoku")
    page.locator('input[name="mode"][value="hc"]').check()
    page.select_option("#rule", "renju")
    page.select_option("#level", "3")
    page.select_option("#time-ms", "500")
    page.click("#start-game")
    page.wait_for_selector("#view-game:not([hidden])")
    page.wait_for_selector("#board .grid line", state="attached")
    assert page.locator("#board .grid line").count() == 30  # 15 x 15 by default
    for count, point in enumerate([(7, 7), (8, 6), (6, 8), (7, 5)], start=1):
        # the computer may have taken the point, or (renju) it may be forbidden to black
        unplayable = stones(page) | {(x, y) for x, y in page.eval_on_selector_all(
            "#board path.forbid", "els => els.map(e => [+e.dataset.x, +e.dataset.y])")}
        if point in unplayable:
            point = next((x, y) for x in range(4, 11) for y in range(4, 11)
                         if (x, y) not in unplayable)
        page.mouse.click(*intersection(page, *point))
        page.wait_for_function(
            "n => document.querySelectorAll('#board circle.stone').length == n"
            " && document.querySelector('#board.playable')", arg=2 * count, timeout=60_000)
        assert point in stones(page)
    assert not result_shown(page)
    docs_shot(page, "web-gomoku")

    page.goto("/#/queens")
    page.click("#queens-continue")
    page.click("#queens-board .cell[data-row='0'][data-col='2']")
    page.click("#queens-solve")
    page.wait_for_function("() => document.querySelectorAll('#queens-board .queen').length == 8")
    assert "Solved in" in page.locator("#queens-status").inner_text()
    docs_shot(page, "web-queens")


def test_a_shared_link_watches_live_without_playing(browser: Any, server: Server) -> None:
    player_context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    player_context.grant_permissions(["clipboard-read", "clipboard-write"])
    watcher_context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    blocked: list[str] = []
    try:
        def note_blocked(message: Any) -> None:
            if "Content Security Policy" in message.text:
                blocked.append(message.text)

        player_page = player_context.new_page()
        player_page.on("console", note_blocked)
        start_game(player_page, "hh", 9)
        assert player_page.locator("#watching").is_hidden()
        player_page.click("#share-watch")
        link = player_page.evaluate("() => navigator.clipboard.readText()")
        game_id = player_page.evaluate("location.hash").split("/")[-1]
        assert link.endswith(f"#/gomoku/{game_id}")

        watcher = watcher_context.new_page()
        watcher.on("console", note_blocked)
        watcher.goto(link)
        watcher.wait_for_selector("#watching:not([hidden])")
        assert watcher.locator("#undo").is_disabled() and watcher.locator("#hint").is_disabled()
        assert watcher.locator("#board.playable").count() == 0
        watcher.mouse.click(*intersection(watcher, 2, 2))
        watcher.wait_for_timeout(300)
        assert stones(watcher) == set()

        # The player's moves reach the watcher live.
        player_page.mouse.click(*intersection(player_page, 4, 4))
        watcher.wait_for_function("() => document.querySelectorAll('#board circle.stone')"
                                  ".length === 1")
        assert stones(watcher) == {(4, 4)}
        shot(watcher, "gomoku-watching")
    finally:
        player_context.close()
        watcher_context.close()
    assert not blocked, blocked


def test_busy_server_note_and_waiting_for_an_engine(browser: Any, tmp_path: Path) -> None:
    """One worker, one move allowed to wait: the page's move is refused (429), retried
    with a note, then waits for the engine, saying so."""
    busy = Server(tmp_path / "games.sqlite3", workers=1, options=("--queue-limit", "1"))
    context = browser.new_context(viewport=DESKTOP, base_url=busy.url)
    try:
        http = busy.http
        others = []
        for _ in range(2):
            game = http.post("/api/gomoku/games", json={
                "width": 9, "height": 9, "white": "computer", "level": MAX_LEVEL,
                "time_ms": 20_000}).json()
            auth = {"Authorization": f"Bearer {game['token']}"}
            assert http.post(f"/api/gomoku/games/{game['id']}/moves", json={"x": 4, "y": 4},
                             headers=auth).status_code == 200
            others.append((game["id"], auth))
        page = context.new_page()
        start_game(page, "hc", 9, level=MAX_LEVEL)
        page.mouse.click(*intersection(page, 4, 4))
        page.wait_for_selector("#busy:not([hidden])")
        assert "busy" in page.locator("#busy").inner_text()
        assert stones(page) == set()
        # The waiting game leaves the queue: the page's move gets in, and waits its turn.
        waiting_id, waiting_auth = others[1]
        http.post(f"/api/gomoku/games/{waiting_id}/undo", headers=waiting_auth)
        page.wait_for_selector("#busy", state="hidden", timeout=30_000)
        page.wait_for_function("() => document.querySelector('#thinking-label').textContent"
                               ".includes('Waiting for a free engine')", timeout=10_000)
        assert stones(page) == {(4, 4)}
        shot(page, "gomoku-waiting-for-an-engine")
        running_id, running_auth = others[0]
        http.post(f"/api/gomoku/games/{running_id}/undo", headers=running_auth)
        page.wait_for_function("() => document.querySelectorAll('#board circle.stone')"
                               ".length === 2", timeout=30_000)
    finally:
        context.close()
        busy.stop()


def wait_for_stones(page: Any, count: int, timeout: float = 30_000) -> None:
    page.wait_for_function("n => document.querySelectorAll('#board circle.stone').length == n",
                           arg=count, timeout=timeout)


def wait_for_stone_at(page: Any, point: tuple[int, int]) -> None:
    page.wait_for_selector(f"#board circle.stone[data-x='{point[0]}'][data-y='{point[1]}']")


def game_title(page: Any) -> str:
    """The title once the game's state has arrived: the view shows before it does."""
    page.wait_for_function("() => document.querySelector('#game-title').textContent !== ''")
    return str(page.locator("#game-title").inner_text())


def test_the_setup_asks_for_columns_then_rows_as_the_titles_show_them(page: Any) -> None:
    """The form once asked for rows first, while every title shows columns × rows."""
    page.goto("/#/gomoku")
    page.wait_for_selector("#level option", state="attached")
    page.locator('input[name="mode"][value="hh"]').check()
    size_fields = page.locator("fieldset:has(legend:text-is('Board')) input[type=number]")
    labels = [size_fields.nth(i).evaluate("field => field.closest('label').textContent.trim()")
              for i in range(size_fields.count())]
    assert labels == ["Columns", "Rows"]
    size_fields.nth(0).fill("12")  # filled in the order the form asks
    size_fields.nth(1).fill("9")
    page.click("#start-game")
    page.wait_for_selector("#view-game:not([hidden])")
    assert game_title(page).startswith("Freestyle 12×9 · ")
    game_id = page.evaluate("location.hash").split("/")[-1]
    state = page.request.get(f"/api/gomoku/games/{game_id}").json()
    assert (state["width"], state["height"]) == (12, 9)


def test_a_game_on_a_clock_against_the_computer(page: Any) -> None:
    page.goto("/#/gomoku")
    page.wait_for_selector("#level option", state="attached")
    page.locator('input[name="mode"][value="hc"]').check()
    page.fill("#columns", "15")
    page.fill("#rows", "15")
    page.select_option("#level", "1")
    page.select_option("#clock", "1+0")
    # on a clock the computer decides its own time for each move
    assert page.locator("#time-ms").is_disabled() and page.locator("#time-ms-clock").is_visible()
    page.click("#start-game")
    page.wait_for_selector("#view-game:not([hidden])")
    page.wait_for_selector("#board .grid line", state="attached")
    assert game_title(page).startswith("Freestyle 15×15 · 1+0 · ")
    state = page.request.get(f"/api/gomoku/games/{page.url.rsplit('/', 1)[-1]}").json()
    assert state["time_ms"] is None and state["clock"]["text"] == "1+0"
    page.wait_for_selector("#clocks:not([hidden])")
    assert "running" in (page.locator("#clock-black").get_attribute("class") or "")
    page.wait_for_function("() => document.querySelector('#clock-black .time').textContent"
                           " < '0:59'")  # counting down between the server's states
    assert page.locator("#clock-white .time").inner_text() == "1:00"
    page.mouse.click(*intersection(page, 7, 7))
    wait_for_stones(page, 2)
    page.wait_for_selector("#clock-black.running")
    assert page.locator("#undo").is_disabled()  # no take-backs under a clock
    white_left = page.locator("#clock-white .time").inner_text()
    assert re.fullmatch(r"0:5\d|1:00", white_left), white_left
    docs_shot(page, "web-clock")


def test_resigning_from_the_button(page: Any) -> None:
    start_game(page, "hh", 9)
    assert page.locator("#resign").is_enabled()
    page.mouse.click(*intersection(page, 4, 4))
    wait_for_stones(page, 1)
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#result-dialog[open]")
    assert page.locator("#result-text").inner_text() == "White resigned after 1 move."
    assert page.locator("#status-text").inner_text() == "Black wins by resignation"
    assert page.locator("#resign").is_disabled()


@pytest.mark.parametrize(("result", "told", "status"), [
    ("1-0", "White lost after 3 moves, as the record says; it does not say how.",
     "Black wins (as recorded)"),
    ("1/2-1/2", "A draw after 3 moves, as the record says; it does not say how.", "Draw"),
])
def test_a_loaded_record_with_a_result_but_no_ending_is_over(page: Any, result: str, told: str,
                                                             status: str) -> None:
    record = {"width": 9, "height": 9, "moves": [[4, 4], [5, 5], [3, 3]], "result": result}
    page.goto("/#/gomoku")
    page.wait_for_selector("#level option", state="attached")
    page.locator('input[name="mode"][value="hh"]').check()
    page.set_input_files("#setup-load", files=[
        {"name": "game.json", "mimeType": "application/json",
         "buffer": json.dumps(record).encode()}])
    page.wait_for_selector("#result-dialog[open]")
    assert page.locator("#result-text").inner_text() == told
    assert page.locator("#status-text").inner_text() == status
    assert page.locator("#resign").is_disabled()


def test_a_friend_invited_plays_one_side_on_their_own_device(browser: Any,
                                                            server: Server) -> None:
    host_context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    host_context.grant_permissions(["clipboard-read", "clipboard-write"])
    friend_context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    try:
        host = host_context.new_page()
        start_game(host, "hh", 9)
        host.click("#invite")
        assert host.locator("#invite-seat option[value=second]").inner_text() == "plays white"
        host.select_option("#invite-seat", "second")
        host.click("#invite-send")
        host.wait_for_selector("#hint-text:has-text('Link for your friend')")
        link = host.evaluate("() => navigator.clipboard.readText()")
        assert "/join/" in link and link in host.locator("#hint-text").inner_text()
        assert host.locator("#undo").is_disabled()
        assert host.locator("#invite").inner_text() == "New invitation link"
        assert "not opened the link" in host.locator("#white-player").inner_text()

        friend = friend_context.new_page()
        friend.goto(link)
        friend.wait_for_selector("#status-text:has-text('your friend')")
        assert "/join/" not in friend.evaluate("location.hash")  # the token leaves the bar
        assert friend.locator("#watching").is_hidden() and friend.locator("#invite").is_hidden()
        assert friend.locator("#white-player").inner_text() == "You"
        # No engine help on either page while the game is played: no hint, no analysis.
        for page in (friend, host):
            assert page.locator("#hint").is_hidden()
            assert page.locator("#analysis-row").is_hidden()
            assert page.locator("#eval-bar").is_hidden()
        host.wait_for_selector("#white-player:text-is('Your friend')")  # they are here
        # Black is the host's move: the friend's click is refused here.
        friend.mouse.click(*intersection(friend, 2, 2))
        friend.wait_for_selector("#toast:not([hidden])")
        assert "your friend's turn" in friend.locator("#toast").inner_text()
        host.mouse.click(*intersection(host, 4, 4))
        wait_for_stones(friend, 1)
        # the host's status follows the server's answer to its move, which may come later
        host.wait_for_selector("#status-text:text-is(\"White to move · your friend's turn\")")
        assert friend.locator("#status-text").inner_text() == "White to move · your turn"
        assert host.locator("#status-text").inner_text() == "White to move · your friend's turn"
        assert friend.title().startswith("● Your turn") and not host.title().startswith("●")
        friend.mouse.click(*intersection(friend, 5, 5))
        wait_for_stones(host, 2)
        assert host.title().startswith("● Your turn")
        assert stones(host) == {(4, 4), (5, 5)}
        # The friend resigns their own side.
        friend.once("dialog", lambda dialog: dialog.accept())
        friend.click("#resign")
        host.wait_for_selector("#result-dialog[open]")
        assert host.locator("#result-text").inner_text() == "Your friend resigned after 2 moves."
        assert host.locator("#result-title").inner_text() == "You win!"
        assert friend.locator("#result-title").inner_text() == "Your friend wins"
        assert host.locator("#analysis-row").is_visible()  # once it is over, it is back
        # A rematch: the host asks, the friend's page is told and follows; sides change.
        first = host.evaluate("location.hash")
        host.click("#dialog-rematch")
        host.wait_for_function("first => location.hash !== first", arg=first)
        friend.wait_for_selector("#dialog-rematch:text-is('Play the rematch')")
        assert friend.locator("#result-text").inner_text() == (
            "You resigned after 2 moves. A rematch is ready for you both.")
        shot(friend, "friend-rematch-ready", full_page=False)
        friend.click("#dialog-rematch")
        friend.wait_for_selector("#black-player:text-is('You')")
        host.wait_for_selector("#black-player:text-is('Your friend')")
        assert friend.evaluate("location.hash") == host.evaluate("location.hash")
        friend.mouse.click(*intersection(friend, 4, 4))
        wait_for_stones(host, 1)
        host.mouse.click(*intersection(host, 5, 5))
        wait_for_stones(friend, 2)
        assert stones(friend) == {(4, 4), (5, 5)}
    finally:
        host_context.close()
        friend_context.close()


def test_a_rematch_against_the_computer_changes_sides(page: Any) -> None:
    rematch_requests: list[str] = []

    def answer_late(route: Any) -> None:
        # The live update naming the rematch reaches the page before the answer does.
        rematch_requests.append(route.request.url)
        response = route.fetch()
        time.sleep(0.5)
        route.fulfill(response=response)

    page.route("**/rematch", answer_late)
    start_game(page, "hc", 9)  # the human plays black
    first = page.evaluate("location.hash")
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    page.wait_for_selector("#result-dialog[open]")
    page.click("#dialog-rematch")
    page.wait_for_function("first => location.hash !== first", arg=first)
    page.wait_for_timeout(1000)
    assert len(rematch_requests) == 1, rematch_requests
    assert page.locator("#toast.error").is_hidden()
    assert not result_shown(page)
    page.wait_for_selector("#black-player:has-text('Computer')")
    assert page.locator("#white-player").inner_text() == "Human"
    wait_for_stones(page, 1)  # the computer, black now, moves first
    game_id = page.evaluate("location.hash").split("/")[-1]
    state = page.evaluate("id => fetch(`/api/gomoku/games/${id}`).then((r) => r.json())",
                          game_id)
    assert (state["width"], state["height"], state["level"]) == (9, 9, 1)
    assert state["players"] == {"black": "computer", "white": "human"}


def test_the_pages_follow_a_dark_system_theme(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP, base_url=server.url, color_scheme="dark")
    try:
        page = context.new_page()
        start_game(page, "hc", 15)
        page.mouse.click(*intersection(page, 7, 7))
        wait_for_stones(page, 2)

        def brightness(selector: str, prop: str) -> float:
            colour = page.eval_on_selector(
                selector, "(e, p) => getComputedStyle(e).getPropertyValue(p)", prop)
            red, green, blue = (float(v) for v in colour[colour.index("(") + 1:
                                                          colour.index(")")].split(",")[:3])
            return (red + green + blue) / 3

        assert brightness("main .panel", "background-color") < 60  # the panels are dark
        assert brightness("main .panel", "color") > 180  # and their text light
        assert brightness("#undo", "background-color") < 60
        shot(page, "gomoku-dark")
        page.goto("/#/gomoku")
        page.wait_for_selector("#start-game")
        assert brightness("#columns", "background-color") < 60
        shot(page, "setup-dark")
    finally:
        context.close()


def test_a_flag_falls_while_the_page_watches(page: Any, server: Server) -> None:
    game = server.http.post("/api/gomoku/games", json={
        "width": 9, "height": 9, "black": "human", "white": "human", "clock": "0.05"}).json()
    page.goto(f"/#/gomoku/{game['id']}")
    page.wait_for_selector("#clock-black.running")
    page.wait_for_selector("#result-dialog[open]", timeout=20_000)
    assert page.locator("#result-text").inner_text() == "Black's time ran out after 0 moves."
    assert page.locator("#status-text").inner_text() == "White wins on time"
    assert page.locator("#clock-black .time").inner_text() == "0.0"


def test_a_swap2_opening_by_clicks_and_buttons_against_the_computer(page: Any) -> None:
    page.goto("/#/gomoku")
    page.wait_for_selector("#opening option[value='swap2']", state="attached")
    page.locator('input[name="mode"][value="hc"]').check()
    assert page.locator("#seat-row").is_hidden() and page.locator("#colour-row").is_visible()
    page.select_option("#opening", "swap2")
    assert page.locator("#seat-row").is_visible() and page.locator("#colour-row").is_hidden()
    assert page.locator("#opening-description").inner_text().startswith("Swap2: ")
    page.locator('input[name="seat"][value="first"]').check()
    page.fill("#columns", "15")
    page.fill("#rows", "15")
    page.select_option("#level", "1")
    page.select_option("#time-ms", "500")
    page.click("#start-game")
    page.wait_for_selector("#view-game:not([hidden])")
    page.wait_for_selector("#board.playable")
    assert "Swap2" in page.locator("#game-title").inner_text()
    assert page.locator("#opening-prompt").inner_text() == "You: place the 1st stone (black)"
    assert page.locator("#status-text").inner_text() == "Opening (Swap2) · your turn"
    assert page.locator("#undo").is_disabled()
    # A hint in the opening: what the computer would place, marked on the board.
    page.click("#hint")
    page.wait_for_function("() => document.querySelector('#hint-text').textContent"
                           ".startsWith('Hint: place ')")
    assert page.locator("#board .hint-ring").count() == 1
    # The first player's three stones, by clicks.
    for point in [(7, 7), (8, 6), (6, 5)]:
        page.wait_for_selector("#board.playable")
        page.mouse.click(*intersection(page, *point))
        wait_for_stone_at(page, point)  # the computer's answer may follow at once
    # The computer, the second player, answers by itself: a colour, or two more stones
    # and the choice of colour left to the human.
    page.wait_for_function("() => !document.querySelector('#opening-choose').hidden"
                           " || document.querySelector('#opening-panel').hidden",
                           timeout=60_000)
    if page.locator("#opening-choose").is_visible():
        assert len(stones(page)) == 5
        assert page.locator("#opening-prompt").inner_text() == (
            "You: choose a colour: black or white")
        assert page.locator("#board.playable").count() == 0  # only a colour to choose now
        shot(page, "gomoku-opening-swap2-choose", full_page=False)
        page.click("#opening-white")
        page.wait_for_selector("#opening-panel", state="hidden")
        assert page.locator("#white-player").inner_text() == "Human"
        assert page.locator("#black-player").inner_text().startswith("Computer")
    page.wait_for_selector("#opening-panel", state="hidden")
    # Normal play from the opening's stones, in the colours the opening gave.
    page.wait_for_selector("#board.playable", timeout=60_000)
    assert page.locator("#status-text").inner_text().endswith("to move · your turn")
    assert page.locator("#opening-fact").inner_text().startswith("Swap2 · you are the first "
                                                                 "player (")
    taken = stones(page)
    point = next((x, y) for x in range(15) for y in range(15) if (x, y) not in taken)
    page.mouse.click(*intersection(page, *point))
    wait_for_stones(page, len(taken) + 2, timeout=60_000)
    assert point in stones(page)
    page.wait_for_selector("#board.playable")
    assert page.locator("#undo").is_enabled()


def test_taraguchi_fifth_stone_placed_rather_than_offered(page: Any) -> None:
    start_renju_opening(page, "taraguchi")
    # each stone a ring further out, the other player keeping its colour after each
    for count, point in enumerate([(7, 7), (8, 6), (9, 7), (6, 9)], start=1):
        page.wait_for_selector("#board.playable")
        page.mouse.click(*intersection(page, *point))
        wait_for_stones(page, count)
        page.wait_for_selector("#opening-choose:not([hidden])")
        page.click("#opening-black" if count % 2 else "#opening-white")
        page.wait_for_selector("#opening-choose", state="hidden")
    page.wait_for_selector("#opening-offer:not([hidden])")
    place = page.locator("#opening-place-button")
    assert place.is_visible() and place.is_disabled()
    page.mouse.click(*intersection(page, 3, 3))  # in the 9×9: the 5th placed, not offered
    page.wait_for_function("() => !document.querySelector('#opening-place-button').disabled")
    assert page.locator("#opening-offer-count").inner_text() == (
        "1 chosen: place one, or offer 10")
    assert page.locator("#opening-offer-button").is_disabled()
    place.click()
    wait_for_stones(page, 5)
    page.wait_for_selector("#opening-choose:not([hidden])")  # a last chance to swap
    page.click("#opening-white")
    page.wait_for_selector("#opening-panel", state="hidden")
    assert page.locator("#status-text").inner_text() == "White to move · human"
    assert (3, 3) in stones(page)


def test_yamaguchi_declared_by_the_first_player_before_the_swap(page: Any) -> None:
    start_renju_opening(page, "yamaguchi")
    page.wait_for_selector("#board.playable")
    for count, point in enumerate([(7, 7), (7, 6), (8, 6)], start=1):
        page.mouse.click(*intersection(page, *point))
        wait_for_stones(page, count)
    page.wait_for_selector("#opening-declare:not([hidden])")
    assert page.locator("#opening-prompt").inner_text() == (
        "First player: declare how many 5th moves black must offer (1 to 10)")
    page.fill("#opening-count", "1")
    page.click("#opening-declare-button")
    page.wait_for_selector("#opening-choose:not([hidden])")
    assert page.locator("#opening-prompt").inner_text() == (
        "Second player: choose a colour: black or white (the opening is 4D Kagetsu; "
        "black will offer 1 5th move)")
    page.click("#opening-white")  # the second player keeps white and places the 4th
    page.wait_for_selector("#opening-choose", state="hidden")
    page.mouse.click(*intersection(page, 0, 14))
    wait_for_stones(page, 4)
    page.wait_for_selector("#opening-offer:not([hidden])")  # no second swap
    page.mouse.click(*intersection(page, 6, 8))
    assert page.locator("#opening-offer-count").inner_text() == "1 of 1 chosen"
    page.click("#opening-offer-button")
    page.wait_for_selector("#board .offer-mark.offered")
    page.mouse.click(*intersection(page, 6, 8))
    page.wait_for_selector("#opening-panel", state="hidden")
    wait_for_stones(page, 5)
    assert page.locator("#opening-fact").inner_text() == (
        "Yamaguchi · 4D Kagetsu · the first player is black")


def test_a_soosorv_opening_between_two_humans_with_every_control(page: Any) -> None:
    page.goto("/#/gomoku")
    page.wait_for_selector("#opening option[value='soosorv']", state="attached")
    page.locator('input[name="mode"][value="hh"]').check()
    page.select_option("#opening", "soosorv")
    assert page.locator("#seat-row").is_hidden()
    page.select_option("#rule", "renju")
    page.fill("#columns", "15")
    page.fill("#rows", "15")
    page.click("#start-game")
    page.wait_for_selector("#board.playable")
    assert page.locator("#opening-prompt").inner_text() == (
        "First player: place the 1st stone (black) at the centre, h8")
    # The server's refusal shows in the error message.
    page.mouse.click(*intersection(page, 0, 0))
    page.wait_for_selector("#toast.error:not([hidden])")
    assert "outside that area" in page.locator("#toast").inner_text()
    for count, point in enumerate([(7, 7), (7, 6), (9, 5)], start=1):
        page.mouse.click(*intersection(page, *point))
        wait_for_stones(page, count)
    page.wait_for_selector("#opening-choose:not([hidden])")
    assert page.locator("#opening-prompt").inner_text().startswith("Second player: choose")
    page.click("#opening-black")  # the second player takes black
    page.wait_for_function("() => document.querySelector('#opening-prompt').textContent"
                           ".includes('4th stone')")
    page.mouse.click(*intersection(page, 0, 14))  # white's 4th stone goes anywhere
    page.wait_for_selector("#opening-declare:not([hidden])")
    page.fill("#opening-count", "2")
    page.click("#opening-declare-button")
    page.wait_for_function("() => document.querySelector('#opening-prompt').textContent"
                           ".startsWith('Second player: choose')")
    page.click("#opening-black")  # black stays with the second player
    page.wait_for_selector("#opening-offer:not([hidden])")
    offer = page.locator("#opening-offer-button")
    assert offer.is_disabled()
    for point in [(6, 8), (5, 9)]:
        page.mouse.click(*intersection(page, *point))
    page.wait_for_function("() => document.querySelectorAll('#board .offer-mark').length == 2")
    page.mouse.click(*intersection(page, 5, 9))  # clicked again: no longer offered
    page.mouse.click(*intersection(page, 11, 3))
    assert page.locator("#board .offer-mark").count() == 2 and offer.is_enabled()
    assert {(x, y) for x, y in page.eval_on_selector_all(
        "#board .offer-mark", "els => els.map(e => [+e.dataset.x, +e.dataset.y])")} == {
        (6, 8), (11, 3)}
    assert page.locator("#opening-offer-count").inner_text() == "2 of 2 chosen"
    page.evaluate("document.querySelector('#toast').hidden = true")  # the refusal above
    docs_shot(page, "web-opening-soosorv")
    offer.click()
    page.wait_for_selector("#board .offer-mark.offered")
    assert page.locator("#opening-prompt").inner_text() == (
        "First player: pick black's 5th move from the offers: g7, l12")
    page.mouse.click(*intersection(page, 11, 3))
    page.wait_for_selector("#opening-panel", state="hidden")
    wait_for_stones(page, 5)
    assert page.locator("#board .offer-mark").count() == 0
    assert page.locator("#status-text").inner_text() == "White to move · human"
    assert page.locator("#opening-fact").inner_text() == (
        "Soosõrv-8 · 3D Sosei · the first player is white")
    page.mouse.click(*intersection(page, 14, 0))
    wait_for_stones(page, 6)


def clock_seconds(text: str) -> float:
    """A clock's "4:05" (or "9.3" under ten seconds) in seconds."""
    minutes, _, seconds = text.rpartition(":")
    return 60 * int(minutes or 0) + float(seconds)


def test_redrawing_the_page_gives_no_time_back(page: Any, server: Server) -> None:
    game_id = new_game(server.http, clock="1+0")["id"]  # black's time runs at once
    page.goto(f"/#/gomoku/{game_id}")
    page.wait_for_function("() => ['0:55', '0:54'].includes("
                           "document.querySelector('#clock-black .time').textContent)")
    page.check("#show-numbers")  # a redraw, and no new state from the server
    shown = clock_seconds(page.locator("#clock-black .time").inner_text())
    left = server.http.get(f"{GAMES}/{game_id}").json()["clock"]["black_ms"] / 1000
    assert left - 1.5 < shown <= left + 0.5  # the whole seconds left, as the server counts


def invite_friend(server: Server, game_id: str, seat: str = "second") -> str:
    """The token of a friend invited to ``seat`` of a game made through the API."""
    response = server.http.post(f"{GAMES}/{game_id}/invite", json={"seat": seat},
                                headers=player(game_id))
    assert response.status_code == 200, response.text
    return str(response.json()["token"])


def test_a_watcher_is_told_the_game_neutrally_and_offered_no_review(page: Any,
                                                                   server: Server) -> None:
    # Against the computer: the human is not the watcher.
    game_id = new_game(server.http, white="computer", level=1)["id"]
    page.goto(f"/#/gomoku/{game_id}")
    page.wait_for_selector("#watching:not([hidden])")
    assert page.locator("#status-text").inner_text() == "Black to move · human"
    server.http.post(f"{GAMES}/{game_id}/resign", headers=player(game_id))
    page.wait_for_selector("#result-dialog[open]")
    assert page.locator("#result-title").inner_text() == "White wins!"
    assert page.locator("#result-text").inner_text() == "Black resigned after 0 moves."
    # Only the players may start a review or a rematch.
    assert page.locator("#dialog-review").is_hidden()
    assert page.locator("#dialog-rematch").is_hidden()
    page.click("#result-dialog button[value='review']")
    assert page.locator("#status-text").inner_text() == "White wins by resignation"
    assert page.locator("#review-start").is_hidden()

    # Two people on two devices: neither is the watcher, nor the watcher's friend.
    game_id = new_game(server.http)["id"]
    friend = {"Authorization": f"Bearer {invite_friend(server, game_id)}"}
    page.goto(f"/#/gomoku/{game_id}")
    page.wait_for_selector("#status-text:text-is('Black to move · human')")
    assert page.locator("#black-player").inner_text() == "Human"
    assert page.locator("#white-player").inner_text() == "Human"
    for number, (x, y) in enumerate(BLACK_WINS):
        headers = player(game_id) if number % 2 == 0 else friend
        response = server.http.post(f"{GAMES}/{game_id}/moves", json={"x": x, "y": y},
                                    headers=headers)
        assert response.status_code == 200, response.text
    page.wait_for_selector("#result-dialog[open]")
    assert page.locator("#result-title").inner_text() == "Black wins!"
    assert page.locator("#result-text").inner_text() == "Black made 5 in a row in 9 moves."
    assert page.locator("#dialog-review").is_hidden()


def test_on_two_devices_the_side_waiting_in_the_opening_is_not_asked_to_act(
        browser: Any, server: Server) -> None:
    host_context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    host_context.grant_permissions(["clipboard-read", "clipboard-write"])
    friend_context = browser.new_context(viewport=DESKTOP, base_url=server.url)
    try:
        host = host_context.new_page()
        start_game(host, "hh", 15, opening="swap2")
        host.wait_for_selector("#board.playable")
        host.click("#invite")
        host.select_option("#invite-seat", "second")
        host.click("#invite-send")
        host.wait_for_selector("#hint-text:has-text('Link for your friend')")
        friend = friend_context.new_page()
        friend.goto(host.evaluate("() => navigator.clipboard.readText()"))
        friend.wait_for_selector("#status-text:text-is(\"Opening (Swap2) · your friend's turn\")")
        assert friend.locator("#opening-prompt").inner_text() == (
            "Waiting for your friend to place the 1st stone (black)…")
        assert friend.locator("#board.playable").count() == 0
        assert host.locator("#opening-prompt").inner_text() == "You: place the 1st stone (black)"
        for count, point in enumerate([(7, 7), (8, 6), (6, 5)], start=1):
            host.mouse.click(*intersection(host, *point))
            wait_for_stones(host, count)
        friend.wait_for_selector("#opening-choose:not([hidden])")
        choice = ("choose black, choose white (and play the 4th stone), "
                  "or place two more stones")
        assert friend.locator("#opening-prompt").inner_text() == f"You: {choice}"
        host.wait_for_selector("#status-text:text-is(\"Opening (Swap2) · your friend's turn\")")
        assert host.locator("#opening-prompt").inner_text() == (
            f"Waiting for your friend to {choice}…")
        assert host.locator("#opening-choose").is_hidden()
        assert host.locator("#board.playable").count() == 0
    finally:
        host_context.close()
        friend_context.close()


def test_an_invitation_link_no_longer_valid_leaves_the_page_watching(
        browser: Any, server: Server) -> None:
    game_id = new_game(server.http)["id"]
    token = invite_friend(server, game_id)
    watching = "This invitation link is no longer valid"
    mistyped = browser.new_context(viewport=DESKTOP, base_url=server.url)
    replaced = browser.new_context(viewport=DESKTOP, base_url=server.url)
    try:
        page = mistyped.new_page()
        page.goto(f"/#/gomoku/{game_id}/join/NOTATOKEN")
        page.wait_for_selector("#watching:not([hidden])")
        assert page.locator("#watching").inner_text().startswith(watching)
        assert page.locator("#status-text").inner_text() == "Black to move · human"
        assert page.locator("#resign").is_disabled()

        # The friend's page is playing when a new invitation replaces theirs.
        page = replaced.new_page()
        page.goto(f"/#/gomoku/{game_id}/join/{token}")
        page.wait_for_selector("#white-player:text-is('You')")
        assert page.locator("#watching").is_hidden()
        invite_friend(server, game_id)
        page.wait_for_selector("#watching:not([hidden])")
        assert page.locator("#watching").inner_text().startswith(watching)
        assert page.locator("#white-player").inner_text() == "Human"
        assert page.locator("#resign").is_disabled()
        assert page.locator("#board.playable").count() == 0
        shot(page, "gomoku-invitation-no-longer-valid", full_page=False)
    finally:
        mistyped.close()
        replaced.close()


def test_a_link_to_a_missing_game_says_so_and_offers_a_new_one(page: Any,
                                                              server: Server) -> None:
    game_id = new_game(server.http)["id"]
    page.goto(f"/#/gomoku/{game_id}")
    page.wait_for_selector("#black-player:text-is('Human')")
    page.goto("/#/gomoku/doesnotexist")
    page.wait_for_selector("#status-text:text-is('Game not found')")
    assert page.locator("#black-player").is_hidden()  # nothing left of the last game
    for button in ("#undo", "#hint", "#resign", "#share-watch", "#download"):
        assert page.locator(button).is_disabled(), button
    shot(page, "gomoku-game-not-found", full_page=False)
    page.click("#new-game")
    page.wait_for_selector("#view-setup:not([hidden])")
    page.goto(f"/#/gomoku/{game_id}")  # a game found again is shown whole
    page.wait_for_selector("#black-player:text-is('Human')")
    assert page.locator("#board").is_visible() and page.locator("#download").is_enabled()


def test_a_game_deleted_while_shown_says_so(page: Any, server: Server) -> None:
    game = new_game(server.http)
    play(server.http, game["id"], 4, 4)
    page.goto(f"/#/gomoku/{game['id']}")
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    deleted = server.http.delete(f"{GAMES}/{game['id']}", headers=player(game["id"]))
    assert deleted.status_code == 204
    page.wait_for_selector("#status-text:text-is('Game not found')", timeout=10_000)
    assert page.locator("#board").is_hidden()
    for button in ("#undo", "#hint", "#resign", "#download"):
        assert page.locator(button).is_disabled(), button


@pytest.mark.parametrize("link", ["abc%", "%E0%A4%A", "abc%zz/join/t%"])
def test_a_mistyped_game_link_says_there_is_no_such_game(page: Any, link: str) -> None:
    page.goto(f"/#/gomoku/{link}")
    page.wait_for_selector("#status-text:text-is('Game not found')")
    assert "No game has this link" in page.locator("#hint-text").inner_text()


def test_analysis_of_a_finished_games_last_position(page: Any, server: Server) -> None:
    game_id = new_game(server.http)["id"]
    for x, y in BLACK_WINS:
        play(server.http, game_id, x, y)
    page.goto(f"/#/gomoku/{game_id}")
    page.wait_for_selector("#result-dialog[open]")
    page.click("#result-dialog button[value='review']")
    page.check("#analysis-toggle")
    page.wait_for_selector("#analysis-depth:text-is('five in a row: no moves to analyse')")
    page.click("#nav-prev")  # the position before the five has moves
    page.wait_for_selector("#analysis-depth:text-matches('^depth [0-9]+$')")
    # A resigned game ends with moves left: its last position is analysed.
    game_id = new_game(server.http)["id"]
    play(server.http, game_id, 4, 4)
    server.http.post(f"{GAMES}/{game_id}/resign", headers=player(game_id))
    page.goto(f"/#/gomoku/{game_id}")
    page.wait_for_selector("#result-dialog[open]")
    page.click("#result-dialog button[value='review']")
    assert page.locator("#analysis-toggle").is_checked()
    page.wait_for_selector("#analysis-depth:text-matches('^depth [0-9]+$')")
