// The Gomoku board as SVG: wooden background, grid lines, stones on the
// intersections, and a cursor that snaps to the nearest intersection.

const NS = "http://www.w3.org/2000/svg";
const CELL = 40;
const MARGIN = 46;
const STONE = CELL * 0.46;

// Column letters as in the core's notation: a..z, then aa, ab, ...
export function columnLabel(index) {
  let label = "";
  let n = index + 1;
  while (n > 0) {
    const rest = (n - 1) % 26;
    label = String.fromCharCode(97 + rest) + label;
    n = Math.floor((n - 1) / 26);
  }
  return label;
}

// Renju-style point name: column letter and row number counted from the bottom.
export function pointName([x, y], height) {
  return `${columnLabel(x)}${height - y}`;
}

const px = (i) => MARGIN + i * CELL;

function starPoints(size) {
  if (size < 9) return size % 2 ? [(size - 1) / 2] : [];
  const edge = size >= 13 ? 3 : 2;
  const points = [edge, size - 1 - edge];
  if (size % 2) points.push((size - 1) / 2);
  return points;
}

export class GomokuBoard {
  constructor(svg, scroller, { onPlay }) {
    this.svg = svg;
    this.scroller = scroller;
    this.onPlay = onPlay;
    this.width = 0;
    this.height = 0;
    this.scale = 1;
    this.playable = false;
    this.occupied = new Set();
    this.colour = "black";
    svg.addEventListener("pointermove", (event) => this.#hover(event));
    svg.addEventListener("pointerleave", () => this.#hideCursor());
    svg.addEventListener("click", (event) => this.#click(event));
    // Keyboard play: arrows move the cursor, Enter or Space places a stone.
    svg.tabIndex = 0;
    svg.addEventListener("keydown", (event) => this.#key(event));
    // Reached with Tab: show where Enter would play before any arrow is pressed.
    svg.addEventListener("focus", () => {
      if (this.playable && this.width && svg.matches(":focus-visible")) this.#showCursor(this.#keyAt(), true);
    });
    svg.addEventListener("blur", () => this.#hideCursor());
    window.addEventListener("resize", () => this.fit(this.scale));
  }

  // Build the fixed layers for a board size (only when the size changes).
  setSize(width, height) {
    if (width === this.width && height === this.height) return;
    this.width = width;
    this.height = height;
    this.keyPoint = null;  // a keyboard cursor from another board size may be off this one
    const w = 2 * MARGIN + (width - 1) * CELL;
    const h = 2 * MARGIN + (height - 1) * CELL;
    this.viewWidth = w;
    this.viewHeight = h;
    const svg = this.svg;
    svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    svg.dataset.width = width;
    svg.dataset.height = height;
    svg.dataset.cell = CELL;
    svg.dataset.margin = MARGIN;
    svg.setAttribute("aria-label", `Gomoku board, ${width} columns by ${height} rows`);

    const lines = [];
    for (let x = 0; x < width; x++) {
      const edge = x === 0 || x === width - 1 ? ' class="edge"' : "";
      lines.push(`<line${edge} x1="${px(x)}" y1="${px(0)}" x2="${px(x)}" y2="${px(height - 1)}"/>`);
    }
    for (let y = 0; y < height; y++) {
      const edge = y === 0 || y === height - 1 ? ' class="edge"' : "";
      lines.push(`<line${edge} x1="${px(0)}" y1="${px(y)}" x2="${px(width - 1)}" y2="${px(y)}"/>`);
    }
    const stars = [];
    for (const sx of starPoints(width)) {
      for (const sy of starPoints(height)) {
        stars.push(`<circle class="star" cx="${px(sx)}" cy="${px(sy)}" r="${CELL * 0.1}"/>`);
      }
    }
    const labels = [];
    const font = CELL * 0.34;
    for (let x = 0; x < width; x++) {
      const text = columnLabel(x);
      labels.push(`<text class="coord" x="${px(x)}" y="${MARGIN * 0.42}" font-size="${font}">${text}</text>`);
      labels.push(`<text class="coord" x="${px(x)}" y="${h - MARGIN * 0.42}" font-size="${font}">${text}</text>`);
    }
    for (let y = 0; y < height; y++) {
      const text = height - y;
      labels.push(`<text class="coord" x="${MARGIN * 0.42}" y="${px(y)}" font-size="${font}">${text}</text>`);
      labels.push(`<text class="coord" x="${w - MARGIN * 0.42}" y="${px(y)}" font-size="${font}">${text}</text>`);
    }

    svg.innerHTML = `
      <defs>
        <linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stop-color="#e8c07a"/>
          <stop offset="0.5" stop-color="#dcaa5e"/>
          <stop offset="1" stop-color="#cf9a4c"/>
        </linearGradient>
        <filter id="grain" x="0" y="0" width="100%" height="100%">
          <feTurbulence type="fractalNoise" baseFrequency="${1.2 / w} ${24 / h}" numOctaves="3" seed="11"/>
          <feColorMatrix values="0 0 0 0 0.45  0 0 0 0 0.27  0 0 0 0 0.08  1.4 0 0 0 -0.45"/>
        </filter>
        <radialGradient id="stone-black" cx="35%" cy="30%" r="75%">
          <stop offset="0" stop-color="#707070"/>
          <stop offset="0.35" stop-color="#2a2a2a"/>
          <stop offset="1" stop-color="#050505"/>
        </radialGradient>
        <radialGradient id="stone-white" cx="35%" cy="30%" r="75%">
          <stop offset="0" stop-color="#ffffff"/>
          <stop offset="0.6" stop-color="#ece8df"/>
          <stop offset="1" stop-color="#bdb5a5"/>
        </radialGradient>
      </defs>
      <rect width="${w}" height="${h}" rx="14" fill="url(#wood)"/>
      <rect width="${w}" height="${h}" rx="14" filter="url(#grain)" opacity="0.55"/>
      <g class="grid">${lines.join("")}</g>
      <g>${stars.join("")}</g>
      <g>${labels.join("")}</g>
      <g class="forbidden-layer"></g>
      <g class="stones-layer"></g>
      <g class="overlay-layer"></g>
      <circle class="cursor" r="${STONE}" visibility="hidden"/>`;
    this.forbiddenLayer = svg.querySelector(".forbidden-layer");
    this.stonesLayer = svg.querySelector(".stones-layer");
    this.overlayLayer = svg.querySelector(".overlay-layer");
    this.cursor = svg.querySelector(".cursor");
    this.fit(this.#initialScale());
  }

  // Forget the drawn game (while another one loads): nothing shown, nothing to click.
  clear() {
    this.width = this.height = 0;
    this.playable = false;
    this.svg.classList.remove("playable");
    this.svg.innerHTML = "";
  }

  // Draw the position. `state` is the API's game state. `playable` overrides whether a
  // click plays (in an opening a click may act without being a move); `marks` are points
  // to ring: {point, kind} with kind "offer" (being chosen) or "offered".
  render(state, { numbers = false, hint = null, thinking = null, watching = false, playable = null, marks = [] } = {}) {
    this.setSize(state.width, state.height);
    this.playable = playable ?? (!state.outcome && state.players[state.to_move] === "human" && !state.thinking
      && !watching);
    this.colour = state.to_move;
    this.svg.classList.toggle("playable", this.playable);
    this.occupied = new Set(state.moves.map(([x, y]) => `${x},${y}`));
    this.forbidden = new Set(state.forbidden.map(([x, y]) => `${x},${y}`));

    const stones = [];
    const last = state.moves.length - 1;
    const numberFont = (n) => CELL * (n >= 1000 ? 0.26 : n >= 100 ? 0.32 : 0.42);
    state.moves.forEach(([x, y], i) => {
      const colour = i % 2 === 0 ? "black" : "white";
      stones.push(
        `<circle class="stone-shadow" cx="${px(x) + 1.5}" cy="${px(y) + 2.5}" r="${STONE}"/>` +
        `<circle class="stone stone-${colour}" data-x="${x}" data-y="${y}" cx="${px(x)}" cy="${px(y)}" r="${STONE}"/>`,
      );
      if (numbers) {
        const cls = `num on-${colour}${i === last ? " last" : ""}`;
        stones.push(`<text class="${cls}" x="${px(x)}" y="${px(y)}" font-size="${numberFont(i + 1)}">${i + 1}</text>`);
      } else if (i === last) {
        stones.push(`<circle class="last-mark" cx="${px(x)}" cy="${px(y)}" r="${CELL * 0.11}"/>`);
      }
    });
    this.stonesLayer.innerHTML = stones.join("");

    const d = CELL * 0.15;
    this.forbiddenLayer.innerHTML = state.forbidden.map(([x, y]) =>
      `<path class="forbid" data-x="${x}" data-y="${y}" d="M${px(x) - d} ${px(y) - d}l${2 * d} ${2 * d}m0 ${-2 * d}l${-2 * d} ${2 * d}"/>`,
    ).join("");

    const overlay = [];
    const line = state.outcome?.line ?? [];
    if (line.length) {
      const [a, b] = [line[0], line[line.length - 1]];
      overlay.push(`<line class="win-line" x1="${px(a[0])}" y1="${px(a[1])}" x2="${px(b[0])}" y2="${px(b[1])}" stroke-width="${CELL * 0.14}"/>`);
      for (const [x, y] of line) {
        overlay.push(`<circle class="win-ring" cx="${px(x)}" cy="${px(y)}" r="${STONE + 2}" stroke-width="${CELL * 0.08}"/>`);
      }
    }
    // The computer's current best move while it searches: a faint stone.
    if (thinking && !this.occupied.has(`${thinking[0]},${thinking[1]}`)) {
      overlay.push(`<circle class="think-mark stone-${state.to_move}" data-x="${thinking[0]}" data-y="${thinking[1]}" cx="${px(thinking[0])}" cy="${px(thinking[1])}" r="${STONE}"/>`);
    }
    for (const { point: [x, y], kind } of marks) {
      const cls = kind === "offered" ? "offer-mark offered" : "offer-mark";
      overlay.push(`<circle class="${cls}" data-x="${x}" data-y="${y}" cx="${px(x)}" cy="${px(y)}" r="${STONE * 0.8}"/>`);
    }
    if (hint) {
      overlay.push(`<circle class="hint-ring" data-x="${hint[0]}" data-y="${hint[1]}" cx="${px(hint[0])}" cy="${px(hint[1])}" r="${STONE}" stroke-width="3"/>`);
    }
    this.overlayLayer.innerHTML = overlay.join("");
    if (!this.playable) this.#hideCursor();
    else if (this.keyPoint && document.activeElement === this.svg) this.#showCursor(this.keyPoint, true);
  }

  // The board's width at zoom 1: as wide as its frame (`available`) and as tall as the
  // scroller may be (see .board-scroll in the CSS: 75vh, or 100vh - 9rem), so that zoom 1
  // never scrolls, on a short window too (a phone held sideways).
  #fitWidth(available) {
    const aspect = this.viewWidth / this.viewHeight;
    const narrow = window.matchMedia("(max-width: 820px)").matches;
    const availableHeight = narrow ? window.innerHeight * 0.75 : Math.max(100, window.innerHeight - 150);
    return Math.min(available, availableHeight * aspect, 1100);
  }

  // Zoom: 1 fits the board in the window; larger values scroll.
  fit(scale = 1) {
    if (!this.width) return;
    this.scale = Math.min(8, Math.max(1, scale));
    const width = this.#fitWidth(this.scroller.clientWidth || this.viewWidth) * this.scale;
    this.svg.style.width = `${width}px`;
    this.svg.style.height = `${width * this.viewHeight / this.viewWidth}px`;
  }

  zoom(factor) {
    const s = this.scroller;
    const cx = (s.scrollLeft + s.clientWidth / 2) / s.scrollWidth;
    const cy = (s.scrollTop + s.clientHeight / 2) / s.scrollHeight;
    this.fit(this.scale * factor);
    s.scrollLeft = cx * s.scrollWidth - s.clientWidth / 2;
    s.scrollTop = cy * s.scrollHeight - s.clientHeight / 2;
  }

  // Scroll a board bigger than its frame to `point` (the last move: a game opened again
  // shows where it is being played), else to its centre.
  centre(point = null) {
    const s = this.scroller;
    if (!point || !this.width) {
      s.scrollLeft = (s.scrollWidth - s.clientWidth) / 2;
      s.scrollTop = (s.scrollHeight - s.clientHeight) / 2;
      return;
    }
    const scale = s.scrollWidth / this.viewWidth;
    s.scrollLeft = px(point[0]) * scale - s.clientWidth / 2;
    s.scrollTop = px(point[1]) * (s.scrollHeight / this.viewHeight) - s.clientHeight / 2;
  }

  // Big boards on small screens start zoomed in so that a stone stays tappable (a tall
  // board fits by its height: its cells are smaller than its width alone would make them).
  #initialScale() {
    const cellPx = (this.#fitWidth(this.scroller.clientWidth || 800) / this.viewWidth) * CELL;
    const smallest = window.matchMedia("(pointer: coarse)").matches ? 22 : 12;
    return cellPx >= smallest ? 1 : Math.min(4, smallest / cellPx);
  }

  // The intersection nearest to a pointer event, or null when off the board.
  #pointAt(event) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const x = Math.round((p.x - MARGIN) / CELL);
    const y = Math.round((p.y - MARGIN) / CELL);
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return null;
    return [x, y];
  }

  #hover(event) {
    this.#showCursor(this.playable ? this.#pointAt(event) : null);
  }

  // The keyboard's point: where the arrows left it, else the centre.
  #keyAt() {
    return this.keyPoint ?? [Math.floor(this.width / 2), Math.floor(this.height / 2)];
  }

  #key(event) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const [x, y] = this.#keyAt();
    if (steps[event.key]) {
      event.preventDefault();
      const [dx, dy] = steps[event.key];
      this.keyPoint = [Math.min(this.width - 1, Math.max(0, x + dx)), Math.min(this.height - 1, Math.max(0, y + dy))];
      this.#showCursor(this.keyPoint, true);
      // A zoomed board scrolls to keep the cursor in sight (the arrows no longer scroll it).
      this.cursor.scrollIntoView({ block: "nearest", inline: "nearest" });
    } else if ((event.key === "Enter" || event.key === " ") && this.playable) {
      event.preventDefault();
      if (!this.occupied.has(`${x},${y}`)) this.onPlay([x, y]);
    }
  }

  #showCursor(point, always = false) {
    if (!point || (!always && this.occupied.has(`${point[0]},${point[1]}`))) {
      this.#hideCursor();
      return;
    }
    const key = `${point[0]},${point[1]}`;
    this.cursor.setAttribute("cx", px(point[0]));
    this.cursor.setAttribute("cy", px(point[1]));
    const occupied = this.occupied.has(key);
    this.cursor.setAttribute("class", occupied ? "cursor key-cursor" : `cursor stone-${this.colour}`);
    this.cursor.style.opacity = this.forbidden?.has(key) ? "0.15" : "";
    this.cursor.setAttribute("visibility", "visible");
  }

  #hideCursor() {
    this.cursor?.setAttribute("visibility", "hidden");
  }

  #click(event) {
    if (!this.playable) return;
    const point = this.#pointAt(event);
    if (point && !this.occupied.has(`${point[0]},${point[1]}`)) this.onPlay(point);
  }
}
