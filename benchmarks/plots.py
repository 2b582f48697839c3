"""Draw the documentation's plots from the benchmark results in ``benchmarks/results/``.

    .venv/bin/python benchmarks/plots.py                  # every plot, into docs/img/
    .venv/bin/python benchmarks/plots.py --out /tmp/plots

Reads the JSON files the benchmark scripts write with ``--json FILE``
(``engine_speed.py``, ``engine_levels.py``, ``queens_bench.py``), and the files
written by hand from figures recorded in the docs where a run is too costly to
repeat (their ``source`` field says so). Needs matplotlib (``pip install
gridgames[plot]``). Every plot names the machine and the date of its figures.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from gridgames.gomoku.match import MatchStats

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
DOCS_IMAGES = HERE.parent / "docs" / "img"

Figures = dict[str, Any]


def load(name: str) -> Figures:
    with open(RESULTS / name) as file:
        figures: Figures = json.load(file)
    return figures


def pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise SystemExit("benchmarks/plots.py needs matplotlib: pip install 'gridgames[plot]'"
                         ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"figure.dpi": 110, "axes.grid": True, "grid.alpha": 0.3,
                         "font.size": 9, "svg.hashsalt": "gridgames"})
    return plt


def caption(figures: Figures) -> str:
    return f"{figures['machine']}, {figures['date']}"


def interval(wins: int, losses: int, draws: int) -> tuple[float, float]:
    """The score and its 95% error (normal approximation, draws as half points)."""
    stats = MatchStats(wins, losses, draws)
    return stats.score, stats.score_error


def plot_nps_vs_rapfi(plt: Any, out: Path) -> Path:
    figures = load("engine-speed-2026-11-25.json")
    one, two = figures["runs"][0], figures["runs"][1]
    rules = [row["rule"] for row in one["rules"]]
    ours = [row["nps"] / 1000 for row in one["rules"]]
    rapfi = [(row["engine"] or {}).get("nps", 0) / 1000 for row in one["rules"]]
    threads = {row["rule"]: row["nps"] / 1000 for row in two["rules"]}
    fig, ax = plt.subplots(figsize=(7, 3.6))
    width = 0.27
    xs = range(len(rules))
    ax.bar([x - width for x in xs], ours, width, label="gridgames, one thread", color="#8b4513")
    ax.bar(list(xs), [threads[r] for r in rules], width, label="gridgames, two threads",
           color="#d2a26b")
    bars = ax.bar([x + width for x in xs], rapfi, width, label="Rapfi, one thread",
                  color="#4a6fa5")
    for bar, value in zip(bars, rapfi, strict=True):
        if not value:
            ax.text(bar.get_x() + width / 2, 20, "does not\nplay it", ha="center", fontsize=7)
    ax.set_xticks(list(xs), rules)
    ax.set_ylabel("thousand nodes per second")
    ax.set_title(f"Nodes per second at {one['time_ms']} ms a move ({one['positions']} positions)")
    ax.set_ylim(0, max([*ours, *threads.values(), *rapfi]) * 1.25)
    ax.legend(loc="upper left", fontsize=8, ncols=3)
    return finish(fig, figures, out / "nps-vs-rapfi.png")


def plot_level_ladder(plt: Any, out: Path) -> Path:
    figures = load("engine-levels-2026-12-06.json")
    fig, ax = plt.subplots(figsize=(7, 3.6))
    rules = list(dict.fromkeys(row["rule"] for row in figures["pairings"]))
    colors = {"freestyle": "#8b4513", "renju": "#4a6fa5", "standard": "#5a8a3c",
              "caro": "#a0558c"}
    for i, rule in enumerate(rules):
        offset = 0.1 * (i - (len(rules) - 1) / 2)  # the rules side by side at each pairing
        color = colors.get(rule, "0.3")
        rows = [row for row in figures["pairings"] if row["rule"] == rule]
        xs = [int(row["pair"].split()[0]) + offset for row in rows]
        scores = [interval(row["wins"], row["losses"], row["draws"]) for row in rows]
        ax.errorbar(xs, [s for s, _ in scores], yerr=[e for _, e in scores], fmt="o",
                    color=color, capsize=3, label=rule)
    ax.axhline(0.75, color="0.5", linestyle="--", linewidth=0.8)
    ax.text(1.6, 0.76, "three games in four", fontsize=7, color="0.4")
    ax.axhline(0.5, color="0.5", linewidth=0.8)
    pairs = sorted({row["pair"] for row in figures["pairings"]}, key=lambda p: int(p.split()[0]))
    ax.set_xticks([int(p.split()[0]) for p in pairs], pairs)
    ax.set_ylim(0.4, 1.05)
    ax.set_xlabel("pairing (higher level first)")
    ax.set_ylabel("score of the higher level (95% interval)")
    ax.set_title("The level ladder: each level against the one below")
    ax.legend(loc="lower left", fontsize=8, ncols=4)
    return finish(fig, figures, out / "level-ladder.png")


def plot_move_loss_vs_time(plt: Any, out: Path) -> Path:
    figures = load("move-quality-2026-11-24.json")
    rows = figures["rows"]
    fig, ax = plt.subplots(figsize=(6, 3.4))
    ax.plot([row["time_ms"] for row in rows], [row["mean_loss"] for row in rows], "o-",
            color="#8b4513")
    for row in rows:
        ax.annotate(f"{row['mean_loss']:.3f}", (row["time_ms"], row["mean_loss"]),
                    textcoords="offset points", xytext=(6, 4), fontsize=8)
    ax.set_xscale("log")
    ax.set_xticks([row["time_ms"] for row in rows], [f"{row['time_ms']} ms" for row in rows])
    ax.set_ylim(0, max(row["mean_loss"] for row in rows) * 1.3)
    ax.set_xlabel("our time a move")
    ax.set_ylabel("mean loss of win probability")
    ax.set_title(f"Move quality judged by {figures['judge'].split(' (')[0]} "
                 f"({figures['positions']} positions)")
    return finish(fig, figures, out / "move-loss-vs-time.png")


def plot_rapfi_history(plt: Any, out: Path) -> Path:
    figures = load("rapfi-matches.json")
    rows = figures["versions"]
    scores = [interval(row["wins"], row["losses"], row["draws"]) for row in rows]
    fig, ax = plt.subplots(figsize=(8, 5))
    xs = list(range(len(rows)))
    ax.errorbar(xs, [s for s, _ in scores], yerr=[e for _, e in scores], fmt="o",
                color="#8b4513", capsize=2)
    ax.axhline(0.30, color="0.5", linestyle="--", linewidth=0.8)
    labels = [f"{row['version']} ({row['wins'] + row['losses'] + row['draws']})" for row in rows]
    ax.set_xticks(xs, labels, rotation=55, ha="right", fontsize=6.5)
    ax.set_ylim(0, 0.5)
    ax.set_ylabel("score against Rapfi (95% interval)")
    ax.set_title("Against Rapfi at 1 s a move, version by version (games in brackets)")
    first, last = rows[0]["date"], rows[-1]["date"]
    fig.text(0.01, 0.01, f"{figures['machine']}, {first} to {last}", fontsize=7, color="0.4")
    fig.subplots_adjust(bottom=0.42, top=0.93)
    return save(fig, out / "rapfi-score-history.png", tight=False)


def plot_rapfi_score_vs_time(plt: Any, out: Path) -> Path:
    """The score at three times a move: the engine of the newest file by colour, and
    the engines before it (both colours)."""
    def against_rapfi(results: Figures) -> list[dict[str, Any]]:
        return [row for row in results["matches"] if row["opponent"] == "Rapfi"]

    figures = load("time-scaling-2026-12-05.json")
    rows = against_rapfi(figures)
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for matches, key, label, color, shift in (
            (against_rapfi(load("reference-engines-2026-11-26.json")), "all",
             "2026-11-26, before the network", "0.75", 0.91),
            (against_rapfi(load("reference-engines-2026-11-27.json")), "all",
             "2026-11-27, with the network", "0.55", 0.95),
            (rows, "all", f"{figures['date'][:10]}, both colours", "#8b4513", 1.0),
            (rows, "black", "as black", "0.2", 1.05),
            (rows, "white", "as white", "#4a6fa5", 1.1)):
        scores = [interval(*row[key]) for row in matches]
        ax.errorbar([row["time_ms"] * shift for row in matches], [s for s, _ in scores],
                    yerr=[e for _, e in scores], fmt="o-" if key == "all" else "o",
                    color=color, capsize=3, label=label, markersize=4)
    ax.axhline(0.5, color="0.5", linestyle="--", linewidth=0.8)
    ax.set_xscale("log")
    times = [row["time_ms"] for row in rows]
    ax.set_xticks(times, [f"{t / 1000:g} s\n({sum(row['all'])} games)"
                          for t, row in zip(times, rows, strict=True)])
    ax.minorticks_off()
    ax.set_ylim(0, 1)
    ax.set_xlabel("time a move, each side (games of the newest engine)")
    ax.set_ylabel("score against Rapfi (95% interval)")
    ax.set_title("Against Rapfi at three times a move (freestyle)")
    ax.legend(loc="upper left", fontsize=7)
    return finish(fig, figures, out / "rapfi-score-vs-time.png")


def plot_queens(plt: Any, out: Path) -> Path:
    figures = load("queens-scaling.json")
    scaling = figures["scaling"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(8, 3.4))
    solved = scaling["solve_empty"]
    left.loglog([row["n"] for row in solved], [row["seconds"] * 1000 for row in solved], "o-",
                color="#8b4513")
    left.set_xlabel("N")
    left.set_ylabel("ms")
    left.set_title("solve(N) on an empty board")
    counted = scaling["count"]
    ns = [row["n"] for row in counted]
    right.semilogy(ns, [row["numba_seconds"] * 1000 for row in counted], "o-", color="#8b4513",
                   label="numba")
    if all("c_seconds" in row for row in counted):
        right.semilogy(ns, [row["c_seconds"] * 1000 for row in counted], "s--", color="#4a6fa5",
                       label="C, gcc -O2 (wall, with process start)")
    right.set_xlabel("N")
    right.set_ylabel("ms")
    right.set_title("count_solutions(N)")
    right.legend(fontsize=7)
    return finish(fig, figures, out / "queens-vs-n.png")


def finish(fig: Any, figures: Figures, path: Path) -> Path:
    """Name the machine and date of the figures under the plot, and save it."""
    fig.text(0.01, 0.01, caption(figures), fontsize=7, color="0.4")
    return save(fig, path)


def save(fig: Any, path: Path, *, tight: bool = True) -> Path:
    if tight:
        fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.savefig(path, metadata={"Software": None})
    fig.clf()
    return path


PLOTS: dict[str, Callable[[Any, Path], Path]] = {
    "nps-vs-rapfi": plot_nps_vs_rapfi,
    "level-ladder": plot_level_ladder,
    "move-loss-vs-time": plot_move_loss_vs_time,
    "rapfi-score-history": plot_rapfi_history,
    "rapfi-score-vs-time": plot_rapfi_score_vs_time,
    "queens-vs-n": plot_queens,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=DOCS_IMAGES, help="folder for the PNGs")
    parser.add_argument("names", nargs="*", choices=[[], *PLOTS], metavar="NAME",
                        help=f"plots to draw (default all): {', '.join(PLOTS)}")
    args = parser.parse_args()
    plt = pyplot()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.names or PLOTS:
        print(PLOTS[name](plt, args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
