// Hash routes: #/ (home), #/gomoku (setup), #/gomoku/<id> (a game), #/puzzles[/<id>], #/queens.

import { showSetup, showGame, leaveGame, recentGames, joinGame } from "./gomoku.js";
import { showQueens } from "./queens.js";
import { showPuzzles } from "./puzzles.js";
import { $ } from "./ui.js";
import { onBusy } from "./api.js";

const VIEWS = ["home", "setup", "game", "puzzles", "queens"];

let shown = null;

function show(name) {
  // A view opens at its top, not scrolled as far as the last one was (the setup form
  // may be scrolled down to its start button on a phone).
  if (name !== shown) window.scrollTo(0, 0);
  shown = name;
  for (const view of VIEWS) $(`#view-${view}`).hidden = view !== name;
  for (const link of document.querySelectorAll(".topbar nav a")) {
    const target = link.getAttribute("href").slice(2);
    link.classList.toggle("active", target === name || (target === "gomoku" && (name === "setup" || name === "game")));
  }
}

function showHome() {
  const list = recentGames();
  $("#recent").hidden = list.length === 0;
  $("#recent-list").innerHTML = "";
  for (const game of list) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `#/gomoku/${game.id}`;
    link.textContent = game.title;
    const when = document.createElement("small");
    when.textContent = new Date(game.when).toLocaleString();
    link.append(when);
    item.append(link);
    $("#recent-list").append(item);
  }
}

// A part of the address as written: a mistyped escape (a stray "%") is kept as it is,
// and the page then says there is no such game, instead of failing to open at all.
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function route() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] !== "gomoku" || !parts[1]) leaveGame();
  if (parts[0] === "gomoku" && parts[2] === "join" && parts[3]) {
    joinGame(decoded(parts[1]), decoded(parts[3]));  // then back here
  } else if (parts[0] === "gomoku" && parts[1]) {
    show("game");
    showGame(decoded(parts[1]));
    document.title = "Gomoku · gridgames";
  } else if (parts[0] === "gomoku") {
    show("setup");
    showSetup();
    document.title = "New Gomoku game · gridgames";
  } else if (parts[0] === "puzzles") {
    show("puzzles");
    showPuzzles(parts[1] ? Number(parts[1]) : null);
    document.title = "Puzzles · gridgames";
  } else if (parts[0] === "queens") {
    show("queens");
    showQueens();
    document.title = "N-Queens · gridgames";
  } else {
    show("home");
    showHome();
    document.title = "gridgames";
  }
}

// Buttons that open a hidden file chooser (a bare file input is hard to style and reach).
for (const button of document.querySelectorAll("[data-file]")) {
  button.addEventListener("click", () => $(button.dataset.file).click());
}

// Every engine busy (429): the request is retried by itself; say so meanwhile.
onBusy((seconds) => {
  const note = $("#busy");
  note.hidden = seconds === null;
  if (seconds !== null) note.textContent = `The server is busy: trying again in ${seconds} s…`;
});

window.addEventListener("hashchange", route);
route();
