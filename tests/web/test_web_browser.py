"""The pages in a real headless Chromium (Debian's), against `gridgames serve`.

Screenshots go to test-artifacts/ for a person to look at.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import ARTIFACTS, Server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 390, "height": 844}

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


def start_game(page: Any, mode: str, size: int, level: int = 1) -> None:
    page.goto("/#/gomoku")
    page.locator(f'input[name="mode"][value="{mode}"]').check()
    page.fill("#rows", str(size))
    page.fill("#columns", str(size))
    if mode != "hh":
        page.select_option("#level", str(level))
        page.select_option("#time-ms", "500")
    page.click("#start-game")
    page.wait_for_selector("#view-game:not([hidden])")
    page.wait_for_selector("#board .grid line", state="attached")


def intersection(page: Any, x: int, y: int) -> tuple[float, float]:
    """Where the intersection (x, y) is on the screen."""
    box = page.locator("#board").bounding_box()
    data = page.evaluate("""() => {
        const svg = document.querySelector('#board');
        return {cell: +svg.dataset.cell, margin: +svg.dataset.margin,
                width: svg.viewBox.baseVal.width};
    }""")
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
    start_game(page, "hh", 60)
    page.mouse.click(*intersection(page, 30, 30))
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 1")
    before = page.locator("#board").bounding_box()["width"]
    page.click("#zoom-in")
    after = page.locator("#board").bounding_box()["width"]
    assert after > before * 1.4
    shot(page, "gomoku-60x60-zoomed", full_page=False)


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
    record = Path(download.path()).read_text()
    assert record.startswith("Piskvorky 9x9")
    first_url = page.url
    page.set_input_files("#game-load", files=[
        {"name": "game.psq", "mimeType": "text/plain", "buffer": record.encode()}])
    page.wait_for_function("url => location.href !== url", arg=first_url)
    page.wait_for_function("() => document.querySelectorAll('#board circle.stone').length == 3")
    assert page.locator("#move-number").inner_text() == "3"
