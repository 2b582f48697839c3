// "Find the win" puzzles: choose one, click your fours, the defender answers.
// The server judges each move from the whole attempt so far (it stores nothing).

import { get, post } from "./api.js";
import { GomokuBoard, pointName } from "./gomoku-board.js";
import { $, showError } from "./ui.js";

let view = null;

// The ids of the puzzles solved in this browser (nothing is stored on the server).
const SOLVED_KEY = "gridgames.puzzles.solved";

function loadSolved() {
  try {
    const ids = JSON.parse(localStorage.getItem(SOLVED_KEY) ?? "[]");
    return new Set(Array.isArray(ids) ? ids.filter(Number.isInteger) : []);
  } catch {
    return new Set();  // storage off or unreadable: progress is kept for this page only
  }
}

function saveSolved(solved) {
  try {
    localStorage.setItem(SOLVED_KEY, JSON.stringify([...solved].sort((a, b) => a - b)));
  } catch {
    // storage full or off: the mark stays until the page is closed
  }
}

class PuzzleView {
  constructor() {
    this.board = new GomokuBoard($("#puzzle-board"), $("#puzzle-board-scroll"), { onPlay: (p) => this.play(p) });
    this.list = [];
    this.puzzle = null;
    this.played = [];
    this.five = [];
    this.forbidden = [];
    this.over = false;  // solved or failed: only Retry or Next go on
    this.waiting = false;
    this.solved = loadSolved();
    $("#puzzle-rule").addEventListener("change", () => this.chooseRule());
    $("#puzzle-select").addEventListener("change", (event) => { location.hash = `#/puzzles/${event.target.value}`; });
    $("#puzzle-retry").addEventListener("click", () => this.restart());
    $("#puzzle-next").addEventListener("click", () => this.next());
    $("#puzzle-hint").addEventListener("click", () => this.hint());
    $("#puzzle-show-solution").addEventListener("click", () => this.showSolution());
  }

  // `id` is the number in the address, or null for none. For an unknown one the first
  // puzzle to try is shown, and the address is made to name it, so the two agree.
  async show(id) {
    try {
      if (!this.list.length) this.list = (await get("/gomoku/puzzles")).puzzles;
      const known = this.list.some((p) => p.id === id);
      const shown = this.shown();
      const wanted = known ? id : (shown.find((p) => !this.solved.has(p.id)) ?? shown[0] ?? this.list[0]).id;
      if (this.puzzle?.id !== wanted) this.puzzle = await get(`/gomoku/puzzles/${wanted}`);
      const rule = $("#puzzle-rule").value;
      if (rule && rule !== this.puzzle.rule) $("#puzzle-rule").value = "";
      this.fillSelect();
      this.restart();
      if (id !== null && !known) {
        history.replaceState(null, "", `#/puzzles/${wanted}`);
        const asked = Number.isInteger(id) ? `puzzle ${id}` : "such puzzle";
        this.say(`There is no ${asked}: here is puzzle ${wanted}.`, "");
      }
    } catch (error) {
      showError(error);
    }
  }

  shown() {
    const rule = $("#puzzle-rule").value;
    return this.list.filter((p) => !rule || p.rule === rule);
  }

  fillSelect() {
    const select = $("#puzzle-select");
    select.innerHTML = "";
    for (const p of this.shown()) {
      const option = document.createElement("option");
      option.value = p.id;
      const themes = p.themes.length ? `, ${p.themes.join(", ")}` : "";
      const mark = this.solved.has(p.id) ? "✓ " : "";
      option.textContent = `${mark}${p.id}. ${p.rule}, win in ${p.length}${themes}`;
      select.append(option);
    }
    if (this.puzzle) select.value = this.puzzle.id;
    const shown = this.shown();
    const done = shown.filter((p) => this.solved.has(p.id)).length;
    $("#puzzle-progress").textContent = `Solved ${done} of ${shown.length} in this browser`;
  }

  chooseRule() {
    const shown = this.shown();
    const first = shown.find((p) => !this.solved.has(p.id)) ?? shown[0];
    if (first) location.hash = `#/puzzles/${first.id}`;
  }

  // The next puzzle not solved yet, wrapping round; the next one when all are solved.
  next() {
    const shown = this.shown();
    const at = shown.findIndex((p) => p.id === this.puzzle?.id);
    const after = [...shown.slice(at + 1), ...shown.slice(0, at + 1)];
    const next = after.find((p) => !this.solved.has(p.id)) ?? after[0];
    if (next) location.hash = `#/puzzles/${next.id}`;
  }

  restart() {
    const p = this.puzzle;
    this.played = [];
    this.five = [];
    this.forbidden = p.forbidden;
    this.over = false;
    $("#puzzle-solution").textContent = "";
    const themes = p.themes.length ? ` (${p.themes.join(", ")})` : "";
    $("#puzzle-title").textContent = `Puzzle ${p.id}: ${p.rule}, ${p.width} × ${p.height}${themes}`;
    this.say("", "");
    this.render();
  }

  movesLeft() {
    return this.puzzle.length - this.played.length / 2;
  }

  say(message, kind) {
    const box = $("#puzzle-message");
    box.textContent = message;
    box.className = `puzzle-message ${kind}`;
  }

  // The board's state in the shape of the API's game state.
  state() {
    const p = this.puzzle;
    const moves = [...p.moves, ...this.played];
    const toMove = moves.length % 2 === 0 ? "black" : "white";
    const you = p.to_move;
    const other = you === "black" ? "white" : "black";
    return {
      width: p.width, height: p.height, moves, to_move: toMove,
      forbidden: toMove === "black" ? this.forbidden : [],
      outcome: this.five.length ? { line: this.five, winner: you } : null,
      players: { [you]: this.over ? "computer" : "human", [other]: "computer" },
      thinking: this.waiting,
    };
  }

  render() {
    this.board.render(this.state());
    const p = this.puzzle;
    $("#puzzle-stone").className = `stone-icon ${p.to_move}`;
    const left = this.movesLeft();
    const side = p.to_move[0].toUpperCase() + p.to_move.slice(1);
    $("#puzzle-text").textContent = this.five.length ? `${side} won`
      : this.over ? "Not solved"
        : `${side} to play and win in ${left} move${left === 1 ? "" : "s"}`;
  }

  // Whether the attempt is still at the `moves` played of `played` (Retry and another
  // puzzle start a new one): an answer for a position left behind is dropped.
  current(puzzle, played, moves) {
    return this.puzzle === puzzle && this.played === played && played.length === moves;
  }

  async play(point) {
    if (this.over || this.waiting) return;
    const { puzzle, played } = this;
    const moves = played.length;
    this.waiting = true;
    this.render();
    try {
      const verdict = await post(`/gomoku/puzzles/${puzzle.id}/attempt`, { played, move: point });
      if (!this.current(puzzle, played, moves)) return;
      if (verdict.verdict === "illegal" || verdict.verdict === "unknown") {
        this.say(verdict.message, "failed");
      } else if (verdict.verdict === "win") {
        this.played.push(point);
        this.five = verdict.five;
        this.over = true;
        this.say(`${verdict.message} Try the next one.`, "solved");
        this.solved.add(this.puzzle.id);
        saveSolved(this.solved);
        this.fillSelect();
      } else if (verdict.verdict === "continue") {
        this.played.push(point, verdict.reply);
        this.forbidden = verdict.forbidden;
        const left = verdict.moves_left;
        this.say(`${verdict.message}. ${left} more move${left === 1 ? "" : "s"} to the five.`, "");
      } else {
        this.played.push(point);
        if (verdict.reply) this.played.push(verdict.reply);
        this.over = true;
        this.say(`Not this time: ${verdict.message}. Retry, or show the solution.`, "failed");
      }
    } catch (error) {
      if (this.current(puzzle, played, moves)) showError(error);
    } finally {
      this.waiting = false;
      this.render();
    }
  }

  // After a failed attempt the board goes back to the start, and the hint is for there.
  async hint() {
    if (this.five.length) {
      this.say("This one is already solved: press Next for another puzzle.", "solved");
      return;
    }
    const failed = this.over;
    if (failed) this.restart();
    const { puzzle, played } = this;
    const moves = played.length;
    try {
      const { hint } = await post(`/gomoku/puzzles/${puzzle.id}/hint`, { played });
      if (!this.current(puzzle, played, moves)) return;
      this.say(`${failed ? "Back to the start. " : ""}Hint: ${hint}.`, "");
    } catch (error) {
      showError(error);
    }
  }

  showSolution() {
    const p = this.puzzle;
    const names = p.solution.map((point) => pointName(point, p.height));
    const steps = [];
    for (let i = 0; i < names.length; i += 2) {
      steps.push(`${i / 2 + 1}. ${names[i]}${names[i + 1] ? ` ${names[i + 1]}` : ""}`);
    }
    $("#puzzle-solution").textContent = `Solution: ${steps.join("  ")}`;
  }
}

export function showPuzzles(id) {
  if (!view) view = new PuzzleView();
  view.show(id ?? null);
}
