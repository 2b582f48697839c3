// The N-Queens page: help first, then a board where queens are placed by clicking.
// Conflicts are checked here for instant feedback; solving is the server's job.

import { get, post } from "./api.js";
import { $, showError } from "./ui.js";

const MIN_N = 4;
const MAX_N = 20;
const MAX_COUNT = 16;
const FLASH_MS = 900;
const QUEEN = '<svg viewBox="0 0 64 64" aria-hidden="true"><use href="#queen-icon"/></svg>';
const WATCH_STEPS = 5000;  // the most steps of the backtracking search to show
// The five speeds of watching: a pause between frames, and the steps a frame shows.
const SPEEDS = [[600, 1], [250, 1], [80, 1], [20, 2], [16, 25]];

const files = (col) => String.fromCharCode(97 + col);
const squareName = (n, [row, col]) => `${files(col)}${n - row}`;
const key = (row, col) => `${row},${col}`;
const queensCount = (count) => `${count.toLocaleString("en")} ${count === 1 ? "queen" : "queens"}`;

class QueensView {
  constructor() {
    this.n = 8;
    this.queens = new Map(); // "row,col" -> { row, col, solver }
    this.helpSeen = false;
    this.boardEl = $("#queens-board");
    const size = $("#queens-size");
    for (let n = MIN_N; n <= MAX_N; n++) size.add(new Option(`${n} × ${n}`, n, n === 8, n === 8));
    size.addEventListener("change", () => this.setSize(Number(size.value)));
    $("#queens-continue").addEventListener("click", () => this.showBoard());
    $("#queens-help-button").addEventListener("click", () => this.showHelp());
    $("#queens-restart").addEventListener("click", () => this.restart());
    $("#queens-solve").addEventListener("click", () => this.solve());
    $("#queens-hint").addEventListener("click", () => this.hint());
    $("#queens-watch").addEventListener("click", () => this.watch());
    $("#queens-watch-pause").addEventListener("click", () => this.pauseWatching());
    $("#queens-watch-stop").addEventListener("click", () => this.stopWatching());
    this.boardEl.addEventListener("click", (event) => {
      const cell = event.target.closest(".cell");
      if (cell && this.watching) this.say("The search is running: stop it to place queens.");
      else if (cell) this.toggle(Number(cell.dataset.row), Number(cell.dataset.col));
    });
    // One tab stop for the whole board (else Tab walks through every square before it
    // reaches Solve); the arrows, Home and End move between the squares.
    this.boardEl.addEventListener("keydown", (event) => this.key(event));
    this.boardEl.addEventListener("focusin", (event) => {
      const cell = event.target.closest(".cell");
      if (cell) this.setTabStop(Number(cell.dataset.row), Number(cell.dataset.col));
    });
    this.build();
  }

  show() {
    if (this.helpSeen) this.showBoard();
    else this.showHelp();
  }

  showHelp() {
    $("#queens-help").hidden = false;
    $("#queens-game").hidden = true;
    $("#queens-continue").focus();
  }

  showBoard() {
    this.helpSeen = true;
    $("#queens-help").hidden = true;
    $("#queens-game").hidden = false;
    if (this.countedFor !== this.n) this.count();
  }

  setSize(n) {
    this.n = n;
    this.queens.clear();
    this.build();
    this.count();
    this.say("Place your first queen.");
  }

  restart() {
    this.queens.clear();
    this.update();
    this.say("Board cleared. Place your first queen.");
  }

  build() {
    const n = this.n;
    this.boardEl.style.setProperty("--n", n);
    const cells = [];
    for (let row = 0; row < n; row++) {
      for (let col = 0; col < n; col++) {
        const dark = (row + col) % 2 === 1 ? " dark" : "";
        const rank = col === 0 ? `<span class="label rank">${n - row}</span>` : "";
        const file = row === n - 1 ? `<span class="label file">${files(col)}</span>` : "";
        const stop = row === 0 && col === 0 ? "0" : "-1";
        cells.push(`<button type="button" class="cell${dark}" role="gridcell" tabindex="${stop}" data-row="${row}" data-col="${col}" ` +
          `aria-label="${squareName(n, [row, col])}">${rank}${file}<span class="piece"></span></button>`);
      }
    }
    this.boardEl.innerHTML = cells.join("");
    this.cells = [...this.boardEl.children];
    this.boardEl.style.fontSize = `${Math.max(9, 160 / n)}px`;
    $("#queens-n").textContent = n;
    this.update();
  }

  cell(row, col) {
    return this.cells[row * this.n + col];
  }

  // The square that Tab reaches on the board.
  setTabStop(row, col) {
    for (const cell of this.cells) cell.tabIndex = -1;
    this.cell(row, col).tabIndex = 0;
  }

  key(event) {
    const cell = event.target.closest(".cell");
    if (!cell || event.altKey || event.ctrlKey || event.metaKey) return;
    const last = this.n - 1;
    let row = Number(cell.dataset.row);
    let col = Number(cell.dataset.col);
    const moves = {
      ArrowUp: () => { row = Math.max(0, row - 1); },
      ArrowDown: () => { row = Math.min(last, row + 1); },
      ArrowLeft: () => { col = Math.max(0, col - 1); },
      ArrowRight: () => { col = Math.min(last, col + 1); },
      Home: () => { col = 0; },
      End: () => { col = last; },
    };
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
    this.setTabStop(row, col);
    this.cell(row, col).focus();
  }

  update() {
    for (const cell of this.cells) {
      const queen = this.queens.get(key(Number(cell.dataset.row), Number(cell.dataset.col)));
      cell.querySelector(".piece").innerHTML = queen ? QUEEN : "";
      cell.classList.toggle("queen", Boolean(queen));
      cell.classList.toggle("solver", Boolean(queen?.solver));
      const name = squareName(this.n, [Number(cell.dataset.row), Number(cell.dataset.col)]);
      cell.setAttribute("aria-label", queen ? `${name}, queen` : name);
    }
    $("#queens-placed").textContent = this.queens.size;
  }

  // The board as it stands: an answer to a request about another board is stale.
  boardKey() {
    return `${this.n}:${[...this.queens.keys()].sort().join(" ")}`;
  }

  say(text, tone = "") {
    const status = $("#queens-status");
    status.textContent = text;
    status.className = `status ${tone}`;
  }

  // The queen attacking (row, col) and along which line: the nearest one, checking
  // rows, then columns, then both diagonals (the order the core uses).
  attacker(row, col) {
    const lines = [
      ["row", (q) => q.row === row],
      ["column", (q) => q.col === col],
      ["diagonal", (q) => q.row - q.col === row - col],
      ["anti-diagonal", (q) => q.row + q.col === row + col],
    ];
    for (const [line, test] of lines) {
      const on = [...this.queens.values()].filter(test);
      if (on.length) {
        const distance = (q) => Math.max(Math.abs(q.row - row), Math.abs(q.col - col));
        on.sort((a, b) => distance(a) - distance(b) || a.row - b.row || a.col - b.col);
        return { queen: on[0], line };
      }
    }
    return null;
  }

  toggle(row, col) {
    const k = key(row, col);
    if (this.queens.has(k)) {
      this.queens.delete(k);
      this.update();
      this.say(`Queen removed from ${squareName(this.n, [row, col])}.`);
      return;
    }
    const attack = this.attacker(row, col);
    if (attack) {
      this.flash(row, col, attack.queen);
      const from = squareName(this.n, [attack.queen.row, attack.queen.col]);
      this.say(`Refused: the queen on ${from} attacks ${squareName(this.n, [row, col])} along the ${attack.line}.`, "bad");
      return;
    }
    this.queens.set(k, { row, col, solver: false });
    this.update();
    if (this.queens.size === this.n) this.say(`Solved! All ${this.n} queens are safe.`, "good");
    else this.say(`${this.n - this.queens.size} more to place.`);
  }

  // Red flash on the attacking queen and the line between it and the refused square.
  flash(row, col, queen) {
    const steps = Math.max(Math.abs(queen.row - row), Math.abs(queen.col - col));
    const dr = Math.sign(row - queen.row);
    const dc = Math.sign(col - queen.col);
    const flashed = [];
    for (let i = 1; i < steps; i++) flashed.push([this.cell(queen.row + dr * i, queen.col + dc * i), "flash-line"]);
    flashed.push([this.cell(queen.row, queen.col), "flash-attacker"]);
    flashed.push([this.cell(row, col), "refused"]);
    for (const [cell, cls] of flashed) cell.classList.add(cls);
    clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      for (const cell of this.cells) cell.classList.remove("flash-line", "flash-attacker", "refused");
    }, FLASH_MS);
  }

  async solve() {
    const queens = [...this.queens.values()].map((q) => [q.row, q.col]);
    if (queens.length === this.n) {
      this.say("The board is already complete. Restart to play again.", "good");
      return;
    }
    const button = $("#queens-solve");
    button.disabled = true;
    const asked = this.boardKey();
    try {
      const result = await post("/queens/solve", { n: this.n, queens });
      // Queens placed or removed (or N changed) while the answer came: it is not for this board.
      if (this.boardKey() !== asked) {
        this.say("The board changed while it was being solved: press Solve again.");
        return;
      }
      const ms = formatMs(result.elapsed_ms);
      if (!result.solution) {
        this.say(`No solution keeps these queens (searched in ${ms}). Remove some and try again.`, "bad");
        return;
      }
      for (const [row, col] of result.solution) {
        if (!this.queens.has(key(row, col))) this.queens.set(key(row, col), { row, col, solver: true });
      }
      this.update();
      const kept = queens.length === 0 ? "" : queens.length === 1 ? " Your queen was kept." : ` Your ${queens.length} queens were kept.`;
      this.say(`Solved in ${ms}.${kept}`, "good");
    } catch (error) {
      showError(error);
    } finally {
      button.disabled = false;
    }
  }

  async hint() {
    const queens = [...this.queens.values()].map((q) => [q.row, q.col]);
    if (queens.length === this.n) {
      this.say("The board is already complete.", "good");
      return;
    }
    const asked = this.boardKey();
    try {
      const { square } = await post("/queens/hint", { n: this.n, queens });
      if (this.boardKey() !== asked) {
        this.say("The board changed while a hint was found: press Hint again.");
        return;
      }
      if (!square) {
        this.say("No queen can go anywhere that still leads to a solution. Remove a queen.", "bad");
        return;
      }
      const cell = this.cell(square[0], square[1]);
      cell.focus();
      this.say(`Try a queen on ${squareName(this.n, square)}.`);
      cell.classList.add("flash-line");
      setTimeout(() => cell.classList.remove("flash-line"), FLASH_MS);
    } catch (error) {
      showError(error);
    }
  }

  // The textbook backtracking search from the player's queens, shown step by step.
  async watch() {
    const queens = [...this.queens.values()].map((q) => [q.row, q.col]);
    if (queens.length === this.n) {
      this.say("The board is already complete. Remove some queens to watch the search.", "good");
      return;
    }
    let run;
    try {
      run = await post("/queens/backtrack", { n: this.n, queens, limit: WATCH_STEPS });
    } catch (error) {
      showError(error);
      return;
    }
    this.watching = { run, next: 0, placed: 0, removed: 0, paused: false, kept: new Map(this.queens) };
    this.setWatching(true);
    this.say(queens.length ? "Watching the search complete your board, row by row from the top."
      : "Watching the search, row by row from the top.");
    this.frame();
  }

  setWatching(on) {
    this.boardEl.classList.toggle("searching", on);
    $("#queens-watch-panel").hidden = !on;
    for (const id of ["#queens-solve", "#queens-hint", "#queens-restart", "#queens-watch", "#queens-size"]) {
      $(id).disabled = on;
    }
    $("#queens-watch-pause").textContent = "Pause";
    if (!on) {
      clearTimeout(this.watching?.timer);
      this.watching = null;
      for (const cell of this.cells) cell.classList.remove("last-place", "last-remove");
    }
  }

  // Shows the next steps, then waits as long as the speed says.
  frame() {
    const w = this.watching;
    if (!w || w.paused) return;
    const [pause, batch] = SPEEDS[Number($("#queens-speed").value) - 1];
    for (const cell of this.cells) cell.classList.remove("last-place", "last-remove");
    for (let i = 0; i < batch && w.next < w.run.steps.length; i++) {
      const { kind, square: [row, col] } = w.run.steps[w.next++];
      if (kind === "place") {
        this.queens.set(key(row, col), { row, col, solver: true });
        w.placed++;
      } else {
        this.queens.delete(key(row, col));
        w.removed++;
      }
      if (i === batch - 1 || w.next === w.run.steps.length) {
        this.cell(row, col).classList.add(kind === "place" ? "last-place" : "last-remove");
      }
    }
    this.update();
    $("#queens-watch-count").textContent =
      `Step ${w.next.toLocaleString("en")} of ${w.run.steps.length.toLocaleString("en")}: ` +
      `${queensCount(w.placed)} placed, ${w.removed.toLocaleString("en")} taken back`;
    if (w.next < w.run.steps.length) w.timer = setTimeout(() => this.frame(), pause);
    else this.endWatching();
  }

  endWatching() {
    const { run, placed, removed, kept } = this.watching;
    const tally = `${queensCount(placed)} placed and ${removed.toLocaleString("en")} taken back`;
    this.setWatching(false);
    if (run.solution) {
      this.say(`The search found a solution: ${tally}.`, "good");
      return;
    }
    this.queens = kept;  // no solution on the board: the player's queens come back
    this.update();
    this.say(run.finished
      ? `No solution keeps your queens: the search tried every way (${tally}). Remove some and try again.`
      : `The search had not finished after ${run.steps.length.toLocaleString("en")} steps (${tally}): ` +
        "on this board plain backtracking takes very long. Solve uses a faster method.", "bad");
  }

  pauseWatching() {
    const w = this.watching;
    if (!w) return;
    w.paused = !w.paused;
    $("#queens-watch-pause").textContent = w.paused ? "Resume" : "Pause";
    if (w.paused) clearTimeout(w.timer);
    else this.frame();
  }

  stopWatching() {
    const w = this.watching;
    if (!w) return;
    this.queens = w.kept;
    this.setWatching(false);
    this.update();
    this.say("Search stopped: your queens are as they were.");
  }

  async count() {
    const n = this.n;
    this.countedFor = n;
    const total = $("#queens-total");
    if (n > MAX_COUNT) {
      total.textContent = `N = ${n} has too many solutions to count quickly here.`;
      return;
    }
    total.textContent = "Counting solutions…";
    try {
      const result = await get(`/queens/count?n=${n}`);
      if (this.n === n) {
        total.textContent = `The ${n} × ${n} board has ${result.solutions.toLocaleString("en")} solutions.`;
      }
    } catch (error) {
      total.textContent = "";
      showError(error);
    }
  }
}

function formatMs(ms) {
  return ms < 1 ? `${ms.toFixed(2)} ms` : ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

let view = null;

export function showQueens() {
  view ??= new QueensView();
  view.show();
}
