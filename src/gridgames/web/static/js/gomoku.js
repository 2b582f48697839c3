// Gomoku pages: the setup form and the game (board, live updates, buttons).

import { get, post } from "./api.js";
import { GomokuBoard, pointName } from "./gomoku-board.js";
import { ReviewPanel } from "./review.js";
import { $, toast, showError, readFile } from "./ui.js";

const SETTINGS_KEY = "gridgames.gomoku.settings";
const RECENT_KEY = "gridgames.gomoku.recent";
const NUMBERS_KEY = "gridgames.gomoku.numbers";
const TOKENS_KEY = "gridgames.gomoku.tokens";
const FRIEND_KEY = "gridgames.gomoku.friend";  // games this browser plays as the invited friend
const RULE_NAMES = {
  freestyle: "Freestyle", standard: "Standard", renju: "Renju", caro: "Caro", "caro-exact": "Caro (exact five)",
};

let options = null;

async function loadOptions() {
  options ??= await get("/gomoku/options");
  return options;
}

// -- recent games (kept in this browser) ----------------------------------------

export function recentGames() {
  try {
    return JSON.parse(localStorage.getItem(RECENT_KEY)) ?? [];
  } catch {
    return [];
  }
}

// How far a game has got, for the list of games to continue.
function progressOf(state) {
  const moves = `${state.moves.length} ${state.moves.length === 1 ? "move" : "moves"}`;
  if (!state.outcome) return moves;
  return `${moves} · ${state.outcome.winner ? `${capital(state.outcome.winner)} won` : "draw"}`;
}

function remember(state) {
  const entry = { id: state.id, title: `${describe(state)} · ${progressOf(state)}`, when: Date.now() };
  const list = [entry, ...recentGames().filter((g) => g.id !== state.id)].slice(0, 6);
  localStorage.setItem(RECENT_KEY, JSON.stringify(list));
}

function forget(id) {
  localStorage.setItem(RECENT_KEY, JSON.stringify(recentGames().filter((g) => g.id !== id)));
  forgetToken(id);
}

// -- player tokens: a game's link without its token only watches --------------------

function tokens() {
  try {
    return JSON.parse(localStorage.getItem(TOKENS_KEY)) ?? {};
  } catch {
    return {};
  }
}

function tokenOf(id) {
  return tokens()[id] ?? null;
}

function keepToken(state) {
  if (state.token) localStorage.setItem(TOKENS_KEY, JSON.stringify({ ...tokens(), [state.id]: state.token }));
}

function friendGames() {
  try {
    return JSON.parse(localStorage.getItem(FRIEND_KEY)) ?? [];
  } catch {
    return [];
  }
}

function playAsFriend(id) {
  localStorage.setItem(FRIEND_KEY, JSON.stringify([...friendGames().filter((g) => g !== id), id]));
}

function forgetToken(id) {
  const { [id]: _gone, ...kept } = tokens();
  localStorage.setItem(TOKENS_KEY, JSON.stringify(kept));
  localStorage.setItem(FRIEND_KEY, JSON.stringify(friendGames().filter((g) => g !== id)));
}

// The game whose invitation link this page was refused: it is watched, and says why.
let refusedInvitation = null;

// An invitation link (#/gomoku/ID/join/TOKEN): this browser plays the friend's seat, or
// watches if the link is no longer valid (mistyped, or replaced by a new invitation).
export async function joinGame(id, token) {
  const link = location.hash;
  let valid = true;
  try {
    await post(`/gomoku/games/${encodeURIComponent(id)}/join`, undefined, token);
  } catch (error) {
    valid = error.code !== "not_a_player";
    if (valid && error.code !== "not_found") showError(error);
  }
  if (location.hash !== link) return;  // the player went elsewhere meanwhile
  if (valid) {
    keepToken({ id, token });
    playAsFriend(id);
  }
  refusedInvitation = valid ? null : id;
  view?.close();  // opened anew, as the friend or as a watcher
  location.replace(`#/gomoku/${encodeURIComponent(id)}`);
}

const OTHER_SEAT = { first: "second", second: "first" };

function playerName(state, colour) {
  return state.players[colour] === "human" ? "Human" : `Computer (level ${state.level})`;
}

// 4:05, or 9.3 under ten seconds.
function clockText(ms) {
  if (ms < 10_000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function describe(state) {
  const mode = `${playerName(state, "black")} vs ${playerName(state, "white")}`;
  const opening = state.opening ? ` · ${state.opening.name}` : "";
  const clock = state.clock ? ` · ${state.clock.text}` : "";
  return `${RULE_NAMES[state.rule] ?? state.rule} ${state.width}×${state.height}${opening}${clock} · ${mode}`;
}

// -- setup -------------------------------------------------------------------------

function savedSettings() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY)) ?? {};
  } catch {
    return {};
  }
}

// Under an opening rule the API's black and white are the first and the second player.
function formSettings(form) {
  const data = new FormData(form);
  const mode = data.get("mode");
  const colour = data.get("colour");
  const seat = data.get("seat");
  const opening = data.get("opening") || "free";
  const humanFirst = opening === "free" ? colour === "black" : seat === "first";
  const players = {
    hh: ["human", "human"],
    cc: ["computer", "computer"],
    hc: humanFirst ? ["human", "computer"] : ["computer", "human"],
  }[mode];
  return {
    mode, colour, seat,
    width: Number(data.get("width")),
    height: Number(data.get("height")),
    rule: data.get("rule"),
    opening,
    black: players[0],
    white: players[1],
    level: Number(data.get("level")),
    // On a clock the computer spends its own time: no cap per move.
    time_ms: data.get("clock") ? null : Number(data.get("time_ms")),
    clock: data.get("clock") || null,
  };
}

function updateSetupVisibility(form) {
  const { mode, opening } = formSettings(form);
  $("#colour-row").hidden = mode !== "hc" || opening !== "free";
  $("#seat-row").hidden = mode !== "hc" || opening === "free";
  $("#computer-fields").hidden = mode === "hh";
  const clock = Boolean(form.clock.value);
  form.time_ms.disabled = clock;
  $("#time-ms-clock").hidden = !clock;
  const rule = options?.rules.find((r) => r.name === form.rule.value);
  $("#rule-description").textContent = rule ? `${RULE_NAMES[rule.name]}: ${rule.description}.` : "";
  const openingRule = options?.openings.find((o) => o.name === opening);
  $("#opening-description").textContent = openingRule ? `${openingRule.title}: ${openingRule.description}.` : "";
  const level = options?.levels.find((l) => l.number === Number(form.level.value));
  $("#level-description").textContent = level ? `${level.name}: ${level.description}.` : "";
}

let setupReady = false;

export async function showSetup() {
  const form = $("#setup-form");
  try {
    await loadOptions();
  } catch (error) {
    showError(error);
    return;
  }
  if (!setupReady) {
    setupReady = true;
    form.rule.innerHTML = options.rules
      .map((r) => `<option value="${r.name}">${RULE_NAMES[r.name] ?? r.name}</option>`).join("");
    form.level.innerHTML = options.levels
      .map((l) => `<option value="${l.number}">${l.number} · ${l.name}</option>`).join("");
    form.opening.innerHTML = options.openings
      .map((o) => `<option value="${o.name}">${o.title}</option>`).join("");
    form.level.value = "3";
    const saved = savedSettings();
    for (const name of ["width", "height", "rule", "opening", "level", "time_ms", "clock"]) {
      if (saved[name] != null && form[name]) form[name].value = saved[name];
    }
    for (const name of ["mode", "colour", "seat"]) {
      const input = saved[name] && form.querySelector(`input[name="${name}"][value="${saved[name]}"]`);
      if (input) input.checked = true;
    }
    form.addEventListener("change", () => updateSetupVisibility(form));
    form.querySelectorAll("[data-size]").forEach((chip) => chip.addEventListener("click", () => {
      form.width.value = form.height.value = chip.dataset.size;
    }));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const settings = formSettings(form);
      localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
      const { mode, colour, seat, ...body } = settings;
      $("#start-game").disabled = true;
      try {
        const state = await post("/gomoku/games", body);
        keepToken(state);
        location.hash = `#/gomoku/${state.id}`;
      } catch (error) {
        showError(error);
      } finally {
        $("#start-game").disabled = false;
      }
    });
    $("#setup-load").addEventListener("change", () => importRecord($("#setup-load"), formSettings(form)));
  }
  updateSetupVisibility(form);
}

async function importRecord(input, settings) {
  const text = await readFile(input);
  if (text === null) return;
  // A JSON record keeps its own rule; a .psq file has none, so it gets the chosen one.
  const psq = text.trimStart().startsWith("Piskvorky");
  try {
    const state = await post("/gomoku/games/import", {
      text, rule: psq ? settings.rule : null, black: settings.black, white: settings.white,
      level: settings.level, time_ms: settings.time_ms, clock: settings.clock,
    });
    keepToken(state);
    toast(`Record loaded: ${state.moves.length} moves, ${RULE_NAMES[state.rule] ?? state.rule}.`);
    location.hash = `#/gomoku/${state.id}`;
  } catch (error) {
    showError(error);
  }
}

// -- the game ------------------------------------------------------------------------

class GameView {
  constructor() {
    this.state = null;
    setInterval(() => this.renderClocks(), 100);
    this.socket = null;
    this.hint = null;
    this.announced = null;
    this.board = new GomokuBoard($("#board"), $("#board-scroll"), { onPlay: (p) => this.play(p) });
    this.review = new ReviewPanel(this);
    $("#zoom-in").addEventListener("click", () => this.board.zoom(1.5));
    $("#zoom-out").addEventListener("click", () => this.board.zoom(1 / 1.5));
    $("#zoom-fit").addEventListener("click", () => this.board.fit(1));
    const numbers = $("#show-numbers");
    numbers.checked = localStorage.getItem(NUMBERS_KEY) === "on";
    numbers.addEventListener("change", () => {
      localStorage.setItem(NUMBERS_KEY, numbers.checked ? "on" : "off");
      this.render();
    });
    $("#undo").addEventListener("click", () => this.undo());
    $("#resign").addEventListener("click", () => this.resign());
    $("#opening-black").addEventListener("click", () => this.act("choose black"));
    $("#opening-white").addEventListener("click", () => this.act("choose white"));
    $("#opening-declare-button").addEventListener("click", () => this.act(`declare ${$("#opening-count").value}`));
    $("#opening-place-button").addEventListener("click", () => {
      this.act(`place ${pointName(this.offerPoints[0], this.state.height)}`);
    });
    $("#opening-offer-button").addEventListener("click", () => {
      this.act(`offer ${this.offerPoints.map((p) => pointName(p, this.state.height)).join(" ")}`);
    });
    $("#hint").addEventListener("click", () => this.askHint());
    $("#new-game").addEventListener("click", () => { location.hash = "#/gomoku"; });
    $("#share-watch").addEventListener("click", () => this.share());
    $("#invite").addEventListener("click", () => { $("#invite-panel").hidden = !$("#invite-panel").hidden; });
    $("#invite-send").addEventListener("click", () => this.invite());
    $("#game-load").addEventListener("change", () => importRecord($("#game-load"), this.settings()));
    const showDownloads = (open) => {
      $("#download-menu").hidden = !open;
      $("#download").setAttribute("aria-expanded", String(open));
    };
    $("#download").addEventListener("click", () => showDownloads($("#download-menu").hidden));
    $("#download-menu").addEventListener("click", () => showDownloads(false));  // a format picked
    document.addEventListener("click", (event) => {
      if (!event.target.closest(".dropdown")) showDownloads(false);
    });
    const dialog = $("#result-dialog");
    dialog.addEventListener("close", () => {
      // Taken once: the dialog may be shown again and closed by code, keeping the choice.
      const choice = dialog.returnValue;
      dialog.returnValue = "";
      if (choice === "new") location.hash = "#/gomoku";
      if (choice === "rematch") this.rematch();
      if (choice === "analyse") this.review.startReview();
    });
  }

  settings() {
    const s = this.state;
    return { rule: s.rule, black: s.players.black, white: s.players.white, level: s.level, time_ms: s.time_ms,
      clock: s.clock?.text ?? null };
  }

  async open(id) {
    this.close();
    this.id = id;
    this.state = null;
    this.hint = null;
    this.announced = null;
    this.progress = null;
    this.offerPoints = [];  // the 5th moves black is choosing to offer (or, Taraguchi, place)
    this.openingStep = null;
    this.token = tokenOf(id);
    this.asFriend = friendGames().includes(id);
    this.invitationRefused = refusedInvitation === id;
    this.rematchAsked = false;
    this.shareLink = null;
    this.inviteLink = null;
    this.board.clear();
    this.review.open(id);
    this.showNoGame("Loading…");
    let state;
    try {
      state = await get(`/gomoku/games/${id}`);
    } catch (error) {
      if (this.id !== id) return;
      if (error.code === "not_found") {
        this.notFound(id);
      } else {
        this.showNoGame("The game could not be loaded");
        showError(error);
      }
      return;
    }
    if (this.id !== id) return;
    this.apply(state);
    this.board.centre(state.moves.at(-1));
    this.connect();
  }

  // No game has this id: mistyped, or deleted (even while it was shown here).
  notFound(id) {
    forget(id);
    this.state = null;
    const dialog = $("#result-dialog");
    if (dialog.open) dialog.close();
    this.board.clear();
    this.showNoGame("Game not found");
    $("#view-game .board-area").hidden = true;
    $("#hint-text").textContent = "No game has this link: it may be mistyped, or the game "
      + "was deleted. New game starts another.";
  }

  // Nothing of the last game stays while the next one loads, or when there is none.
  showNoGame(status) {
    $("#status-text").textContent = status;
    $("#status-stone").className = "stone-icon";
    $("#game-title").textContent = $("#hint-text").textContent = "";
    for (const selector of ["#thinking", "#opening-panel", "#watching", "#invite", "#invite-panel",
      "#download-menu", "#view-game .facts", "#review-panel"]) $(selector).hidden = true;
    for (const selector of ["#undo", "#hint", "#resign", "#share-watch", "#download"]) {
      $(selector).disabled = true;
    }
  }

  close() {
    this.id = null;
    this.review?.close();
    if (this.socket) {
      this.socket.onclose = null;
      this.socket.close();
      this.socket = null;
    }
    clearTimeout(this.reconnectTimer);
    const dialog = $("#result-dialog");
    if (dialog.open) dialog.close();
  }

  // Live updates; after a lost connection (server restart) reconnect and resync.
  connect() {
    const id = this.id;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/api/gomoku/games/${id}/ws`);
    this.socket = socket;
    this.version = -1;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state" && message.game.id === this.id) this.apply(message.game);
      if (message.type === "progress") this.showProgress(message);
      if (message.type === "review") this.review.onMessage(message);
    };
    socket.onclose = (event) => {
      if (this.id !== id) return;
      if (event.code === 4404) {  // deleted meanwhile: no game to connect to again
        this.socket = null;
        this.notFound(id);
        return;
      }
      this.reconnectTimer = setTimeout(() => { if (this.id === id) this.connect(); }, 1000);
    };
  }

  apply(state) {
    // Replies and live messages may cross: keep the newest.
    if (this.state && state.version < this.version && state.id === this.state.id) return;
    const changed = !this.state || this.state.moves.length !== state.moves.length;
    if (changed) this.hint = null;
    if (!state.thinking || state.version !== this.progress?.version) this.progress = null;
    // A new step of the opening: the offers being chosen belonged to the last one.
    const step = state.opening?.history.length ?? null;
    if (step !== this.openingStep) {
      this.offerPoints = [];
      if (step !== null) this.hint = null;  // a hint was for the step before
    }
    this.openingStep = step;
    this.state = state;
    this.version = state.version;
    this.clockAt = performance.now();  // the clock's times are as of now
    // A new invitation resets this; if it was not ours, ours is void.
    if (this.asFriend && this.token !== null && !state.friend_joined) this.checkInvitation();
    remember(state);
    this.render();
    this.review.gameChanged();
    this.announce();
  }

  // The running search's report, if it is about the position on the board.
  showProgress(progress) {
    const s = this.state;
    if (!s || progress.game_id !== s.id || progress.version !== this.version || !s.thinking) return;
    this.progress = progress;
    this.render();
  }

  render() {
    const s = this.state;
    if (!s) return;
    // Back from showNoGame.
    $("#view-game .board-area").hidden = $("#view-game .facts").hidden = $("#review-panel").hidden = false;
    $("#share-watch").disabled = $("#download").disabled = false;
    const browsing = this.review.browsing();
    const opening = s.opening && !s.opening.done ? s.opening : null;
    const acting = this.humanActs();
    let marks = [];
    if (acting && opening.allowed.includes("offer")) marks = this.offerPoints.map((point) => ({ point, kind: "offer" }));
    if (opening?.allowed.includes("pick")) marks = opening.offers.map((point) => ({ point, kind: "offered" }));
    this.board.render(this.review.displayState(s), {
      numbers: $("#show-numbers").checked,
      hint: browsing ? null : this.hint?.move ?? null,
      thinking: browsing ? null : this.progress?.move ?? null,
      watching: this.token === null,
      // In the opening a click places a stone, chooses an offer or picks one.
      playable: browsing || !opening ? null : acting && opening.allowed.some((k) => k !== "choose" && k !== "declare"),
      marks: browsing ? [] : marks,
    });
    this.review.render();
    $("#game-title").textContent = describe(s);
    // On two devices: which side is this page's, and which the friend's.
    const mine = this.mySeat() && this.seatColour(this.mySeat());
    for (const colour of ["black", "white"]) {
      $(`#${colour}-player`).textContent = !mine ? playerName(s, colour)
        : colour === mine ? "You" : s.friend_joined || this.asFriend ? "Your friend"
        : "Your friend (has not opened the link yet)";
    }
    $("#move-number").textContent = s.moves.length;
    const search = s.last_search;
    const depth = search?.depth ? `depth ${search.depth}` : "no look-ahead";
    // Scores are from the searching side's point of view: say which side that was.
    const index = search ? s.moves.findIndex(([x, y]) => x === search.move[0] && y === search.move[1]) : -1;
    const side = index < 0 ? "" : ` for ${index % 2 === 0 ? "black" : "white"}`;
    const waited = search?.queued_ms >= 100 ? ` (waited ${(search.queued_ms / 1000).toFixed(1)} s)` : "";
    // A move found with no look-ahead (level 1) has no score: 0 would be said of a five too.
    const score = search?.depth ? `${search.score_text}${side} · ` : "";
    $("#engine-eval").textContent = search
      ? `${score}${depth} · ${(search.time_ms / 1000).toFixed(1)} s${waited}` : "–";
    const stone = $("#status-stone");
    let text;
    if (opening) {
      stone.className = `stone-icon ${s.to_move}`;
      const who = opening.actor === "computer" ? "computer" : this.playsTheComputer() ? "your turn"
        : this.mySeat() ? (this.mine() ? "your turn" : "your friend's turn") : `${opening.to_act} player`;
      text = `Opening (${opening.name}) · ${who}`;
    } else if (s.outcome) {
      stone.className = `stone-icon ${s.outcome.winner ?? ""}`;
      const how = { "time forfeit": " on time", resignation: " by resignation", unknown: " (as recorded)" }[s.outcome.termination] ?? "";
      text = s.outcome.winner ? `${capital(s.outcome.winner)} wins${how}` : "Draw";
      if (s.outcome.winner && this.playsTheComputer()) {
        text += s.players[s.outcome.winner] === "human" ? " · you won" : " · the computer won";
      }
    } else {
      stone.className = `stone-icon ${s.to_move}`;
      const who = s.players[s.to_move] !== "human" ? "computer" : this.playsTheComputer() ? "your turn"
        : this.mySeat() ? (this.mine() ? "your turn" : "your friend's turn") : "human";
      text = `${capital(s.to_move)} to move · ${who}`;
    }
    $("#status-text").textContent = text;
    // The board is a picture: the status, read out as it changes, names the last move.
    const last = s.moves.at(-1);
    $("#status-move").textContent = last
      ? `${s.moves.length % 2 ? "Black" : "White"} played ${pointName(last, s.height)}. ` : "";
    this.renderClocks();
    $("#watching").hidden = this.token !== null;
    $("#watching").textContent = this.invitationRefused
      ? "This invitation link is no longer valid: ask for a new one. Meanwhile you are watching "
        + "this game."
      : "You are watching this game: only its players can move.";
    $("#thinking").hidden = !s.thinking;
    $("#thinking").classList.toggle("waiting", s.waiting);
    $("#thinking-label").textContent = s.waiting ? "Waiting for a free engine…" : "Computer is thinking…";
    $("#thinking-progress").textContent = this.progress ? progressText(this.progress, s) : "";
    this.renderOpening();
    const humanToMove = !s.outcome && !opening && s.players[s.to_move] === "human";
    const playing = this.token !== null;
    // Against the computer or a friend, the tab's title says when it is your turn.
    const yourTurn = playing && (this.humans() === 1 || this.mySeat() !== null) && this.mine()
      && (humanToMove || this.humanActs());
    document.title = `${yourTurn ? "● Your turn · " : ""}Gomoku · gridgames`;
    // No hints on two devices: they would help one player against the other.
    $("#hint").hidden = Boolean(s.friend);
    $("#hint").disabled = !playing || !(humanToMove || this.humanActs()) || !this.mine() || this.hintPending;
    $("#resign").disabled = !playing || Boolean(s.outcome) || Boolean(opening) || this.humans() === 0;
    // Undo takes back a human move made after the opening's stones: none yet (e.g. only
    // the computer's first move), nothing to undo.
    const stones = s.opening?.stones ?? 0;
    $("#undo").disabled = !playing || Boolean(s.clock) || Boolean(s.friend)
      || !s.moves.some((_, i) => i >= stones && s.players[i % 2 === 0 ? "black" : "white"] === "human");
    $("#download-psq").href = `/api/gomoku/games/${s.id}/record?format=psq`;
    $("#download-json").href = `/api/gomoku/games/${s.id}/record?format=json`;
    $("#hint-text").textContent = this.hint?.actions
      ? `Hint: ${this.hint.actions.join(", then ")}`
      : this.hint
      ? `Hint: ${pointName(this.hint.move, s.height)} (engine score ${this.hint.score_text})`
      : this.inviteLink ? `Link for your friend, who plays ${this.inviteLink.seat} (${this.seatColour(this.inviteLink.seat)}`
        + `${s.opening && !s.opening.done ? " so far" : ""}): ${this.inviteLink.url}`
      : this.shareLink ? `Link to watch this game: ${this.shareLink}` : "";
    // A game between two people: its creator may invite a friend to play on their own device.
    const inviting = playing && !this.asFriend && this.humans() === 2 && !s.outcome;
    $("#invite").hidden = !inviting;
    $("#invite").textContent = s.friend ? "New invitation link" : "Play a friend online";
    for (const option of $("#invite-seat").options) {
      option.textContent = s.opening ? `is the ${option.value} player` : `plays ${this.seatColour(option.value)}`;
    }
    if (!inviting) $("#invite-panel").hidden = true;
  }

  // Each side's time left, counted down here between the server's states.
  renderClocks() {
    const clock = this.state?.clock;
    $("#clocks").hidden = !clock;
    if (!clock) return;
    const s = this.state;
    $("#clocks").title = s.friend && !clock.running && !s.outcome
      ? "On two devices the clock starts once each side has made a move" : "";
    for (const color of ["black", "white"]) {
      const running = clock.running === color;
      const counting = running && !clock.paused;  // paused: waiting for a free engine
      const left = Math.max(0, clock[`${color}_ms`] - (counting ? performance.now() - this.clockAt : 0));
      const element = $(`#clock-${color}`);
      element.querySelector(".time").textContent = clockText(left);
      element.classList.toggle("running", running);
      element.classList.toggle("low", left < 10_000);
    }
  }

  humans() {
    return ["black", "white"].filter((c) => this.state.players[c] === "human").length;
  }

  // Whether this page plays the one human side against the computer.
  playsTheComputer() {
    return this.token !== null && this.humans() === 1;
  }

  // A review is started by either player (a friend on another device too), not a watcher.
  canReview() {
    return this.token !== null;
  }

  // Whether this page's player is to act in the opening now.
  humanActs() {
    const o = this.state.opening;
    return Boolean(o && !o.done && o.actor === "human" && !this.state.thinking && this.token !== null
      && this.mine());
  }

  // The seat this page plays on two devices ("first" or "second"), null for both or none.
  mySeat() {
    const friend = this.state.friend;
    if (!friend || this.token === null) return null;
    return this.asFriend ? friend : OTHER_SEAT[friend];
  }

  // The seat to act now: the opening's, or the one that plays the colour to move.
  seatToAct() {
    const s = this.state;
    const o = s.opening;
    if (o && !o.done) return o.to_act;
    if (o) return o.colors.first === s.to_move ? "first" : "second";
    return s.to_move === "black" ? "first" : "second";
  }

  // Whether it is this page's turn (always, on one device).
  mine() {
    const seat = this.mySeat();
    return seat === null || seat === this.seatToAct();
  }

  // The colour a seat plays now (under an opening, as chosen so far).
  seatColour(seat) {
    const o = this.state.opening;
    if (o) return o.colors[seat];
    return seat === "first" ? "black" : "white";
  }

  // The opening's prompt, its buttons and the opening's line in the facts.
  renderOpening() {
    const s = this.state;
    const o = s.opening;
    $("#opening-label").hidden = $("#opening-fact").hidden = !o;
    const under = Boolean(o && !o.done);
    $("#opening-panel").hidden = !under;
    if (!o) return;
    const you = this.playsTheComputer() || this.mySeat() !== null;
    const seat = this.mySeat() ?? (you ? (o.players.first === "human" ? "first" : "second") : "first");
    const sofar = o.done ? "" : " so far";
    const title = o.renju_opening ? `${o.name} · ${o.renju_opening}` : o.name;
    $("#opening-fact").textContent = you
      ? `${title} · you are the ${seat} player (${o.colors[seat]}${sofar})`
      : `${title} · the first player is ${o.colors.first}${sofar}`;
    const acting = this.humanActs();
    let prompt = "";
    if (under) {
      if (o.actor === "computer") prompt = "Computer is choosing…";
      else if (!this.mine()) prompt = `Waiting for your friend to ${o.prompt}…`;
      else prompt = `${you ? "You" : `${capital(o.to_act)} player`}: ${o.prompt}`;
    }
    $("#opening-prompt").textContent = prompt;
    $("#opening-choose").hidden = !acting || !o.allowed.includes("choose");
    const declaring = acting && o.allowed.includes("declare");
    $("#opening-declare").hidden = !declaring;
    if (declaring) {
      const count = $("#opening-count");
      count.max = o.most_offers;
      if (Number(count.value) > o.most_offers) count.value = o.most_offers;
    }
    const offering = acting && o.allowed.includes("offer");
    $("#opening-offer").hidden = !offering;
    if (offering) {
      // Taraguchi's 5th: one chosen point may be placed instead of offering them all
      const orPlace = o.allowed.includes("place");
      const chosen = this.offerPoints.length;
      $("#opening-place-button").hidden = !orPlace;
      $("#opening-place-button").disabled = chosen !== 1;
      $("#opening-offer-button").disabled = chosen !== o.offer_count;
      $("#opening-offer-count").textContent = orPlace
        ? `${chosen} chosen: place one, or offer ${o.offer_count}`
        : `${chosen} of ${o.offer_count} chosen`;
    }
  }

  announce() {
    const s = this.state;
    // Told again when the other player asks for a rematch.
    const key = `${s.id}:${s.moves.length}:${s.rematch ?? ""}`;
    if (!s.outcome || this.announced === key || this.rematchAsked) return;
    this.announced = key;
    let title = "Draw";
    const moves = `${s.moves.length} ${s.moves.length === 1 ? "move" : "moves"}`;
    let text = s.outcome.termination === "unknown"
      ? `A draw after ${moves}, as the record says; it does not say how.`
      : `${capital(s.outcome.draw_reason || "the board is full")}: nobody made five in a row.`;
    if (s.outcome.winner) {
      const winner = s.outcome.winner;
      const human = s.players[winner] === "human";
      const against = this.playsTheComputer();
      // On two devices each page names the sides "You" and "Your friend".
      const seat = this.mySeat();
      const mine = seat ? this.seatColour(seat) : null;
      const who = (colour) => (!mine ? capital(colour) : colour === mine ? "You" : "Your friend");
      const whose = (colour) => (!mine ? `${capital(colour)}'s` : colour === mine ? "Your" : "Your friend's");
      title = against ? (human ? "You win!" : "The computer wins")
        : mine ? (mine === winner ? "You win!" : "Your friend wins")
        : `${capital(winner)} wins!`;
      const loser = winner === "black" ? "white" : "black";
      text = {
        "time forfeit": `${whose(loser)} time ran out after ${moves}.`,
        resignation: `${who(loser)} resigned after ${moves}.`,
        unknown: `${who(loser)} lost after ${moves}, as the record says; it does not say how.`,
      }[s.outcome.termination] ?? `${who(winner)} made ${s.outcome.line.length} in a row in ${s.moves.length} moves.`;
    }
    // Only the players may start a rematch; on two devices, the first to ask starts it.
    $("#dialog-rematch").hidden = this.token === null;
    $("#dialog-review").hidden = !this.canReview();
    $("#dialog-rematch").textContent = s.rematch ? "Play the rematch" : "Rematch";
    $("#dialog-rematch").classList.toggle("primary", Boolean(s.rematch));
    $("#dialog-new-game").classList.toggle("primary", !s.rematch);
    if (s.rematch && s.friend) text += " A rematch is ready for you both.";
    $("#result-title").textContent = title;
    $("#result-text").textContent = text;
    const dialog = $("#result-dialog");
    if (!dialog.open) dialog.showModal();
  }

  // Moves go to the server one after another, in click order: a quick second click
  // (the other player's, in a two-human game) must not be lost while the first is sent.
  play([x, y]) {
    if (this.review.play([x, y])) return;  // an earlier point or a variation: not the game
    const id = this.id;
    if (this.token === null) {
      toast("You are watching this game: only its players can move.");
      return;
    }
    if (this.state && !this.state.outcome && !this.mine()) {
      toast("It is your friend's turn: their move comes here as soon as it is played.");
      return;
    }
    const opening = this.state?.opening;
    if (opening && !opening.done) {
      this.openingClick([x, y], opening);
      return;
    }
    this.sending = (this.sending ?? Promise.resolve()).then(async () => {
      if (this.id !== id) return;
      try {
        this.apply(await post(`/gomoku/games/${id}/moves`, { x, y }, this.token));
      } catch (error) {
        this.refused(error);
      }
    });
  }

  // What the computer would do in the opening: said, its stone or pick marked, its
  // offers chosen (ready for Offer), its count filled in.
  async askOpeningHint() {
    const id = this.id;
    const step = this.openingStep;
    const hint = await get(`/gomoku/games/${id}/opening/hint`);
    if (this.id !== id || this.openingStep !== step) return;
    const [kind, count] = hint.actions[0].split(" ");
    if (kind === "offer") this.offerPoints = hint.points;
    if (kind === "declare") $("#opening-count").value = count;
    this.hint = { actions: hint.actions, move: ["place", "pick"].includes(kind) ? hint.points[0] : null };
  }

  // A click in the opening: a stone to place, an offer to choose (or drop again), or
  // the offer to pick.
  openingClick(point, opening) {
    const name = pointName(point, this.state.height);
    if (opening.allowed.includes("offer")) {
      const at = this.offerPoints.findIndex(([x, y]) => x === point[0] && y === point[1]);
      if (at >= 0) this.offerPoints.splice(at, 1);
      else if (this.offerPoints.length < opening.offer_count) this.offerPoints.push(point);
      else toast(`${opening.offer_count} 5th moves are chosen: click one of them to drop it first.`);
      this.render();
    } else if (opening.allowed.includes("pick")) {
      this.act(`pick ${name}`);
    } else if (opening.allowed.includes("place")) {
      this.act(`place ${name}`);
    }
  }

  // An action in the opening, sent in turn with the moves (see play).
  act(action) {
    const id = this.id;
    this.sending = (this.sending ?? Promise.resolve()).then(async () => {
      if (this.id !== id) return;
      try {
        this.apply(await post(`/gomoku/games/${id}/opening`, { action }, this.token));
      } catch (error) {
        this.refused(error);
      }
    });
  }

  async resign() {
    const s = this.state;
    const own = this.playsTheComputer() || this.mySeat() !== null;
    if (!confirm(own ? "Resign this game?" : `Resign this game for ${s.to_move}?`)) return;
    try {
      this.apply(await post(`/gomoku/games/${this.id}/resign`, undefined, this.token));
    } catch (error) {
      this.refused(error);
    }
  }

  async undo() {
    try {
      this.apply(await post(`/gomoku/games/${this.id}/undo`, undefined, this.token));
    } catch (error) {
      showError(error);
    }
  }

  // A link without the player token: whoever opens it watches the game live.
  async share() {
    const link = `${location.origin}${location.pathname}#/gomoku/${this.id}`;
    try {
      await navigator.clipboard.writeText(link);
      toast("Link copied: whoever opens it can watch this game live, not play in it.");
    } catch {
      this.shareLink = link;  // no clipboard (a plain-http address on the network): show it
      this.render();
    }
  }

  // The same game again on an empty board, the sides changed over (under an opening
  // rule, the seats); the token plays on, and a friend on two devices follows.
  async rematch() {
    this.rematchAsked = true;  // the live update naming it is no news here
    try {
      const state = await post(`/gomoku/games/${this.id}/rematch`, undefined, this.token);
      keepToken({ id: state.id, token: this.token });
      if (this.asFriend) playAsFriend(state.id);
      location.hash = `#/gomoku/${state.id}`;
    } catch (error) {
      this.rematchAsked = false;
      this.refused(error);
    }
  }

  // A request refused: for an invited friend, maybe because a new invitation voided theirs.
  async refused(error) {
    if (error.code === "not_a_player" && this.asFriend && !(await this.checkInvitation())) return;
    showError(error);
  }

  // Whether the friend's invitation still holds; if not, this page watches from now on.
  async checkInvitation() {
    const id = this.id;
    try {
      await post(`/gomoku/games/${id}/join`, undefined, this.token);
      return true;
    } catch (error) {
      if (error.code !== "not_a_player") return true;  // refused for another reason
    }
    if (this.id === id && this.asFriend) {
      forgetToken(id);
      this.token = null;
      this.asFriend = false;
      this.invitationRefused = true;
      this.render();
    }
    return false;
  }

  // A token for a friend's seat, as a link to send them; ours plays the other seat.
  async invite() {
    const seat = $("#invite-seat").value;
    try {
      const invitation = await post(`/gomoku/games/${this.id}/invite`, { seat }, this.token);
      const url = `${location.origin}${location.pathname}#/gomoku/${this.id}/join/${invitation.token}`;
      this.inviteLink = { seat, url };
      $("#invite-panel").hidden = true;
      this.apply(invitation.game);
      try {
        await navigator.clipboard.writeText(url);
        toast("Link copied: send it to your friend. Whoever opens it plays their seat.");
      } catch {
        // no clipboard: the link is shown under the buttons
      }
    } catch (error) {
      showError(error);
    }
  }

  async askHint() {
    this.hintPending = true;
    this.render();
    const id = this.id;
    const moves = this.state.moves.length;
    const opening = this.state.opening && !this.state.opening.done;
    try {
      if (opening) return await this.askOpeningHint();
      const hint = await get(`/gomoku/games/${id}/hint`);
      // Only for the position it was asked for.
      if (this.id === id && this.state.moves.length === moves) this.hint = hint;
    } catch (error) {
      showError(error);
    } finally {
      this.hintPending = false;
      this.render();
    }
  }
}

const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);

// 1234567 -> "1.2M", 45210 -> "45k"
function compact(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(n);
}

function progressText(p, state) {
  const parts = [`depth ${p.depth}`, `score ${p.score_text} for ${state.to_move}`, `${compact(p.nodes)} nodes`];
  if (p.nps) parts.push(`${compact(p.nps)}/s`);
  if (p.move) parts.push(`best ${pointName(p.move, state.height)}`);
  return parts.join(" · ");
}

let view = null;

export function showGame(id) {
  view ??= new GameView();
  if (view.id !== id) view.open(id);
}

export function leaveGame() {
  view?.close();
}
