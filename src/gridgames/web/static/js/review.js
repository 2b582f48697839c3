// Reviewing a game: move navigation, variations, analysis mode (candidates on the
// board, an evaluation bar), the background review with its labels, accuracy and
// an evaluation graph. The game view hands its board and live state over; this
// module only reads them and draws on top.

import { get, post } from "./api.js";
import { pointName } from "./gomoku-board.js";
import { $, showError } from "./ui.js";

const NS = "http://www.w3.org/2000/svg";
const WIN_BOUND = 29000;  // scores at or beyond are forced wins (mate-style)
const ANALYSIS_STEPS_MS = [250, 1200, 4000];  // analysis refines itself at these times
const REVIEW_TIME_MS = 300;
const BAD = new Set(["inaccuracy", "mistake", "blunder"]);

// A score for people: "+85", or "B wins in 3" for forced wins.
function scoreText(score, mate) {
  if (mate) return `${mate > 0 ? "Black" : "White"} wins in ${Math.abs(mate)}`;
  if (score >= WIN_BOUND) return "Black wins";
  if (score <= -WIN_BOUND) return "White wins";
  return score > 0 ? `+${score}` : String(score);
}

const PANEL = `
  <div class="eval-bar" id="eval-bar" title="Black's winning chance">
    <div class="eval-fill" id="eval-fill"></div><span class="eval-text" id="eval-text">–</span>
  </div>
  <div class="nav-row" role="group" aria-label="Move navigation">
    <button type="button" class="icon-button" id="nav-first" aria-label="First position" title="First (Home)">«</button>
    <button type="button" class="icon-button" id="nav-prev" aria-label="Previous move" title="Previous (←)">‹</button>
    <span class="nav-where" id="nav-where"></span>
    <button type="button" class="icon-button" id="nav-next" aria-label="Next move" title="Next (→)">›</button>
    <button type="button" class="icon-button" id="nav-last" aria-label="Last move" title="Last (End)">»</button>
  </div>
  <div class="variation-note" id="variation-note" hidden>
    <span id="variation-text"></span>
    <button type="button" class="chip" id="variation-close">Back to the game</button>
  </div>
  <div class="analysis-row" id="analysis-row">
    <label class="toggle"><input type="checkbox" id="analysis-toggle"><span>Analysis</span></label>
    <label class="candidate-count">best
      <select id="analysis-count" aria-label="Candidates shown">
        <option>1</option><option>2</option><option selected>3</option><option>4</option><option>5</option>
      </select>
    </label>
    <small class="analysis-depth" id="analysis-depth"></small>
  </div>
  <div class="review-row" id="review-row">
    <button type="button" class="button" id="review-start">Review game</button>
    <progress id="review-progress" max="1" value="0" hidden></progress>
  </div>
  <table class="review-summary" id="review-summary" hidden>
    <thead><tr><th></th><th>Accuracy</th><th title="inaccuracies">?!</th><th title="mistakes">?</th><th title="blunders">??</th></tr></thead>
    <tbody></tbody>
  </table>
  <svg class="eval-graph" id="eval-graph" viewBox="0 0 300 90" role="img"
       aria-label="Evaluation graph" hidden></svg>
  <ol class="move-list" id="move-list" aria-label="Moves"></ol>`;

export class ReviewPanel {
  constructor(view) {
    this.view = view;  // the GameView: its .state, .board, .id, .render()
    this.root = $("#review-panel");
    this.root.innerHTML = PANEL;
    this.ply = null;  // game moves shown; null follows the game
    this.variation = [];  // moves played on top of `ply`
    this.review = null;
    this.reviewState = null;
    this.candidates = null;
    this.analysisToken = 0;
    this.position = null;  // the server's judgement of the shown moves: {key, forbidden, outcome}
    this.checking = Promise.resolve();  // variation moves, checked one after another
    $("#nav-first").addEventListener("click", () => this.goTo(0));
    $("#nav-prev").addEventListener("click", () => this.step(-1));
    $("#nav-next").addEventListener("click", () => this.step(1));
    $("#nav-last").addEventListener("click", () => this.goTo(null));
    $("#variation-close").addEventListener("click", () => this.goTo(this.ply));
    $("#analysis-toggle").addEventListener("change", () => this.positionChanged());
    $("#analysis-count").addEventListener("change", () => this.positionChanged());
    $("#review-start").addEventListener("click", () => this.startReview());
    $("#move-list").addEventListener("click", (event) => {
      const item = event.target.closest("[data-ply]");
      if (item) this.goTo(Number(item.dataset.ply));
    });
    $("#eval-graph").addEventListener("click", (event) => {
      const point = event.target.closest("[data-ply]");
      if (point) this.goTo(Number(point.dataset.ply));
    });
    document.addEventListener("keydown", (event) => this.key(event));
  }

  // -- the game view's hooks --------------------------------------------------------

  open(id) {
    this.ply = null;
    this.variation = [];
    this.review = null;
    this.reviewState = null;
    this.candidates = null;
    this.position = null;
    this.analysisToken++;
    clearTimeout(this.pollTimer);
    this.loadReview(id);
  }

  close() {
    this.analysisToken++;
    clearTimeout(this.pollTimer);
  }

  // The game changed (a move, an undo): keep the shown position while it still exists.
  gameChanged() {
    const moves = this.view.state.moves.length;
    if (this.ply !== null && this.ply > moves) this.goTo(null);
    else if (this.ply === null) this.positionChanged(false);
  }

  // The moves shown: the game's, up to the shown point, then the variation's.
  shownMoves(state) {
    return [...state.moves.slice(0, this.ply ?? state.moves.length), ...this.variation];
  }

  // The state to draw: the game's, or an earlier point of it, or a variation, with the
  // renju points forbidden there and the five it ends in once the server has said so.
  displayState(state) {
    if (!this.browsing()) return state;
    const moves = this.shownMoves(state);
    const known = this.position?.key === JSON.stringify(moves) ? this.position : null;
    return {
      ...state, moves, to_move: moves.length % 2 === 0 ? "black" : "white",
      outcome: known?.outcome ?? null, forbidden: known?.forbidden ?? [], thinking: false,
      players: { black: "human", white: "human" },
    };
  }

  // The rule's judgement of `moves` (a 422 names a move the rule does not allow).
  async judge(moves) {
    const state = this.view.state;
    const answer = await post("/gomoku/position", { width: state.width, height: state.height, rule: state.rule, moves });
    return { key: JSON.stringify(moves), forbidden: answer.forbidden, outcome: answer.outcome };
  }

  // The shown position's forbidden points, asked for when it is not the game's own. (Only
  // renju has any; a variation's five comes with its last move, see play.)
  async loadPosition() {
    const state = this.view.state;
    const id = this.view.id;
    const moves = this.shownMoves(state);
    const key = JSON.stringify(moves);
    if (!this.browsing() || state.rule !== "renju" || this.position?.key === key) return;
    try {
      const position = await this.judge(moves);
      if (this.view.id !== id || JSON.stringify(this.shownMoves(this.view.state)) !== key) return;
      this.position = position;
      this.view.render();
    } catch (error) {
      if (this.view.id === id) showError(error);
    }
  }

  browsing() {
    return this.ply !== null || this.variation.length > 0;
  }

  // A click on the board: true when it was handled here (a variation), not played in the game.
  // A variation's move is checked by the server first: the rule (renju's forbidden points,
  // the end at a five) holds there as in the game.
  play(point) {
    const state = this.view.state;
    if (!state || !this.browsing()) return false;
    const id = this.view.id;
    // Quick clicks follow one another, each on top of the one before.
    this.checking = this.checking.then(async () => {
      const now = this.view.state;
      if (this.view.id !== id || !this.browsing()) return;
      const shown = JSON.stringify(this.shownMoves(now));
      const base = this.ply ?? now.moves.length;
      const next = now.moves[base];
      if (!this.variation.length && next && next[0] === point[0] && next[1] === point[1]) {
        this.goTo(base + 1);  // the game's own move: just step on
        return;
      }
      let position;
      try {
        position = await this.judge([...this.shownMoves(now), point]);
      } catch (error) {
        if (this.view.id === id) showError(error);
        return;
      }
      // Gone elsewhere meanwhile: the move was for the position left.
      if (this.view.id !== id || JSON.stringify(this.shownMoves(this.view.state)) !== shown) return;
      if (this.ply === null) this.ply = base;
      this.variation.push(point);
      this.position = position;
      this.positionChanged();
    }).catch(showError);  // the next click is still checked
    return true;
  }

  onMessage(message) {
    if (message.type !== "review" || message.game_id !== this.view.id) return;
    this.showProgress(message.done, message.total);
    if (message.state !== "running") this.loadReview(this.view.id);
  }

  // -- navigation ------------------------------------------------------------------

  goTo(ply) {
    const moves = this.view.state?.moves.length ?? 0;
    this.variation = [];
    this.ply = ply === null || ply >= moves ? null : Math.max(0, ply);
    this.positionChanged();
  }

  step(delta) {
    const state = this.view.state;
    if (!state) return;
    if (this.variation.length) {
      if (delta < 0) this.variation.pop();
      this.positionChanged();
      return;
    }
    this.goTo((this.ply ?? state.moves.length) + delta);
  }

  key(event) {
    if ($("#view-game").hidden || !this.view.state || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target.closest?.("input, select, textarea, #board")) return;  // the board's arrows move its cursor
    const actions = {
      ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1),
      Home: () => this.goTo(0), End: () => this.goTo(null),
    };
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  }

  shownPly() {
    return (this.ply ?? this.view.state.moves.length) + this.variation.length;
  }

  positionChanged(redraw = true) {
    this.candidates = null;
    this.analysisToken++;
    this.loadPosition();
    if ($("#analysis-toggle").checked) this.analyse();
    if (redraw) this.view.render();
    else this.render();
  }

  // -- analysis mode -----------------------------------------------------------------

  // Why the shown position has no moves to analyse (the game's end on the board), or null.
  // A game lost on time or by resignation ends with moves left: those are analysed.
  nothingToAnalyse() {
    const outcome = this.displayState(this.view.state).outcome;
    if (!outcome || outcome.termination) return null;
    return outcome.winner ? "five in a row: no moves to analyse" : "a draw: no moves to analyse";
  }

  async analyse() {
    const token = this.analysisToken;
    const state = this.displayState(this.view.state);
    if (this.nothingToAnalyse()) return;
    const count = Number($("#analysis-count").value);
    for (const time_ms of ANALYSIS_STEPS_MS) {
      let answer;
      try {
        answer = await post("/gomoku/analyse", {
          width: state.width, height: state.height, rule: state.rule, moves: state.moves, count, time_ms,
        });
      } catch (error) {
        if (token === this.analysisToken) showError(error);
        return;
      }
      if (token !== this.analysisToken) return;
      this.candidates = answer.candidates;
      this.render();
    }
  }

  // -- the review --------------------------------------------------------------------

  async loadReview(id) {
    try {
      const status = await get(`/gomoku/games/${id}/review`);
      if (id !== this.view.id) return;
      this.reviewState = status.state;
      if (status.review) this.review = status.review;
      this.showProgress(status.done, status.total);
      if (status.state === "running") this.poll(id);
      if (status.state === "failed") showError(new Error(`The review failed: ${status.error}`));
      this.render();
    } catch (error) {
      if (error.code !== "not_found") showError(error);
    }
  }

  // The socket carries the progress; this is the fallback if a report is missed.
  poll(id) {
    clearTimeout(this.pollTimer);
    this.pollTimer = setTimeout(() => { if (this.view.id === id) this.loadReview(id); }, 1500);
  }

  async startReview() {
    const id = this.view.id;
    $("#review-start").disabled = true;
    try {
      const status = await post(`/gomoku/games/${id}/review`, { time_ms: REVIEW_TIME_MS },
        this.view.token);
      this.reviewState = status.state;
      this.showProgress(status.done, status.total);
      this.poll(id);
    } catch (error) {
      showError(error);
    }
    this.render();
  }

  showProgress(done, total) {
    const bar = $("#review-progress");
    bar.max = Math.max(1, total);
    bar.value = done;
    bar.hidden = this.reviewState !== "running";
  }

  // -- drawing -----------------------------------------------------------------------

  render() {
    const state = this.view.state;
    if (!state) return;
    const shown = this.shownPly();
    const moves = state.moves.length;
    $("#nav-first").disabled = $("#nav-prev").disabled = shown === 0;
    $("#nav-next").disabled = !this.variation.length && this.ply === null;
    $("#nav-last").disabled = !this.browsing();
    $("#nav-where").textContent = this.variation.length
      ? `variation, move ${shown}` : `move ${this.ply ?? moves} of ${moves}`;
    $("#variation-note").hidden = !this.variation.length;
    if (this.variation.length) {
      const names = this.variation.map((p) => pointName(p, state.height)).join(" ");
      $("#variation-text").textContent = `After move ${this.ply}: ${names}`;
    }
    // On two devices the engine's view waits for the end of the game, as hints do.
    const live = Boolean(state.friend) && !state.outcome;
    for (const id of ["#eval-bar", "#analysis-row", "#review-row"]) $(id).hidden = live;
    if (live) $("#analysis-toggle").checked = false;
    const running = this.reviewState === "running";
    $("#review-start").hidden = !this.view.canReview();
    $("#review-start").disabled = running || moves === 0;
    $("#review-start").textContent = running ? "Reviewing…" : this.review ? "Review again" : "Review game";
    $("#review-progress").hidden = !running;
    this.drawCandidates(state);
    this.drawEvalBar();
    this.drawMoveList(state);
    this.drawSummary();
    this.drawGraph();
  }

  drawCandidates(state) {
    const layer = this.view.board.overlayLayer;
    if (!layer) return;
    layer.querySelectorAll(".candidate").forEach((node) => node.remove());
    const depth = $("#analysis-depth");
    if (!this.candidates || !$("#analysis-toggle").checked) {
      depth.textContent = $("#analysis-toggle").checked ? this.nothingToAnalyse() ?? "thinking…" : "";
      return;
    }
    depth.textContent = `depth ${this.candidates[0]?.depth ?? 0}`;
    const svg = this.view.board.svg;
    const cell = Number(svg.dataset.cell);
    const margin = Number(svg.dataset.margin);
    const toMove = this.displayState(state).to_move;
    const sign = toMove === "black" ? 1 : -1;
    this.candidates.forEach((c, rank) => {
      const [x, y] = c.move_xy;
      const group = document.createElementNS(NS, "g");
      group.setAttribute("class", `candidate${rank === 0 ? " first" : ""}`);
      group.dataset.x = x;
      group.dataset.y = y;
      const cx = margin + x * cell;
      const cy = margin + y * cell;
      const mine = c.mate ? sign * c.mate : null;
      const label = mine ? (mine > 0 ? `W${mine}` : `L${-mine}`) : String(Math.round(100 * (sign > 0
        ? c.win_probability : 1 - c.win_probability)));
      group.innerHTML = `<circle cx="${cx}" cy="${cy}" r="${cell * 0.42}"/>` +
        `<text x="${cx}" y="${cy}" font-size="${cell * 0.34}">${label}</text>`;
      const title = document.createElementNS(NS, "title");
      title.textContent = `${rank + 1}. ${c.move}: ${scoreText(c.score, c.mate)} (black's view), ` +
        `${toMove}'s winning chance ${label}${mine ? "" : "%"}`;
      group.appendChild(title);
      layer.appendChild(group);
    });
  }

  // The shown position's score and black's chance (both from the server, which owns
  // the curve): the analysis's best line, else the review's.
  shownScore() {
    if (this.candidates?.length && $("#analysis-toggle").checked) {
      const best = this.candidates[0];
      return { score: best.score, mate: best.mate, chance: best.win_probability };
    }
    if (this.review && !this.variation.length) {
      const ply = this.ply ?? this.view.state.moves.length;
      if (ply <= this.reviewedPlies()) {
        const move = this.review.moves[ply - 1];
        return { score: this.review.scores[ply], mate: move ? move.mate : null,
          chance: this.review.win_probabilities[ply] };
      }
    }
    return null;
  }

  drawEvalBar() {
    const shown = this.shownScore();
    const bar = $("#eval-bar");
    bar.classList.toggle("empty", !shown);
    const share = shown ? shown.chance : 0.5;
    $("#eval-fill").style.width = `${(100 * share).toFixed(1)}%`;
    $("#eval-text").textContent = shown
      ? `${scoreText(shown.score, shown.mate)} · black ${Math.round(100 * share)}%` : "no evaluation yet";
  }

  // How many of the game's moves the saved review judged: those played as they were
  // when it ran (a move taken back and played otherwise since starts a new line).
  reviewedPlies() {
    const moves = this.view.state.moves;
    const judged = this.review?.moves ?? [];
    let ply = 0;
    while (ply < judged.length && ply < moves.length && judged[ply].move_xy[0] === moves[ply][0]
      && judged[ply].move_xy[1] === moves[ply][1]) ply++;
    return ply;
  }

  drawMoveList(state) {
    const list = $("#move-list");
    const reviewed = this.review?.moves ?? [];
    const judged = this.reviewedPlies();
    const current = this.ply ?? state.moves.length;
    list.innerHTML = state.moves.map((move, i) => {
      const r = reviewed[i];
      const same = i < judged;
      const label = same ? `<span class="label label-${r.label}">${r.label}</span>` : "";
      const better = same && BAD.has(r.label) && r.best ? `<span class="better">better ${r.best}</span>` : "";
      const colour = i % 2 === 0 ? "black" : "white";
      const active = i + 1 === current && !this.variation.length ? " current" : "";
      return `<li><button type="button" class="move-item ${colour}${active}" data-ply="${i + 1}">` +
        `<span class="move-no">${i + 1}.</span> ${pointName(move, state.height)} ${label}${better}</button></li>`;
    }).join("");
    // Scroll the list alone: scrolling the side panel too would hide the game's status
    // and the opening's prompt above it.
    const item = list.querySelector(".current");
    if (item) {
      const box = item.getBoundingClientRect();
      const frame = list.getBoundingClientRect();
      if (box.top < frame.top) list.scrollTop -= frame.top - box.top;
      else if (box.bottom > frame.bottom) list.scrollTop += box.bottom - frame.bottom;
    }
  }

  drawSummary() {
    const table = $("#review-summary");
    table.hidden = !this.review;
    if (!this.review) return;
    table.querySelector("tbody").innerHTML = ["black", "white"].map((colour) => {
      const s = this.review.summary[colour];
      const accuracy = s.accuracy === null ? "–" : `${s.accuracy.toFixed(1)}%`;
      return `<tr class="summary-${colour}"><th>${colour[0].toUpperCase()}${colour.slice(1)}</th>` +
        `<td class="accuracy">${accuracy}</td><td>${s.inaccuracies}</td><td>${s.mistakes}</td><td>${s.blunders}</td></tr>`;
    }).join("");
  }

  drawGraph() {
    const svg = $("#eval-graph");
    svg.toggleAttribute("hidden", !this.review);  // an SVG element has no .hidden
    if (!this.review) return;
    // The curve of the moves still played as reviewed.
    const scores = this.review.scores.slice(0, this.reviewedPlies() + 1);
    const chances = this.review.win_probabilities;
    const w = 300;
    const h = 90;
    const last = Math.max(1, scores.length - 1);
    const x = (ply) => (ply / last) * w;
    const y = (ply) => h - chances[ply] * h;
    const line = scores.map((_, ply) => `${x(ply).toFixed(1)},${y(ply).toFixed(1)}`).join(" ");
    const shown = this.variation.length ? null : this.ply ?? this.view.state.moves.length;
    const parts = [
      `<rect class="graph-bg" width="${w}" height="${h}"/>`,
      `<polygon class="graph-area" points="0,${h} ${line} ${w},${h}"/>`,
      `<line class="graph-mid" x1="0" y1="${h / 2}" x2="${w}" y2="${h / 2}"/>`,
      `<polyline class="graph-line" points="${line}"/>`,
    ];
    if (shown !== null && shown < scores.length) {
      parts.push(`<line class="graph-now" x1="${x(shown)}" y1="0" x2="${x(shown)}" y2="${h}"/>`);
    }
    scores.forEach((_, ply) => {
      const move = this.review.moves[ply - 1];
      const mark = move && BAD.has(move.label) ? ` ${move.label}` : "";
      const title = move ? `${ply}. ${move.move}: ${move.label}, ${scoreText(move.score, move.mate)}` : "start";
      // a wide invisible hit area per move, and a visible dot for the marked ones
      parts.push(`<g class="graph-point${mark}" data-ply="${ply}"><title>${title}</title>` +
        `<rect x="${x(ply) - w / last / 2}" y="0" width="${w / last}" height="${h}"/>` +
        `<circle cx="${x(ply)}" cy="${y(ply)}" r="${mark ? 4 : 2}"/></g>`);
    });
    svg.innerHTML = parts.join("");
  }
}
