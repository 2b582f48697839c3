"""The core imports no front end, web framework or database library."""

from __future__ import annotations

import ast
from pathlib import Path

import gridgames

SRC = Path(gridgames.__file__).parent
FORBIDDEN_FOR_CORE = {
    "gridgames.cli", "gridgames.web", "gridgames.store", "gridgames.gomoku.match",
    "gridgames.gomoku.tournament",
    "gridgames.gomoku.gomocup", "fastapi", "starlette", "uvicorn", "pydantic", "sqlite3",
    "sqlalchemy", "argparse", "curses", "readline", "pexpect", "httpx",
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def core_files() -> list[Path]:
    files = [p for p in (SRC / "gomoku").rglob("*.py")
             if "gomocup" not in p.parts and p.name not in ("match.py", "tournament.py")]
    return files + list((SRC / "queens").rglob("*.py"))


def test_core_imports_nothing_above_it():
    files = core_files()
    # the engine-level libraries on top of the engine are held to the same rule
    assert {"board.py", "analysis.py", "puzzles.py"} <= {p.name for p in files}
    for path in files:
        for name in imported_modules(path):
            for banned in FORBIDDEN_FOR_CORE:
                assert not (name == banned or name.startswith(banned + ".")), (
                    f"{path.relative_to(SRC)} imports {name}"
                )


def test_queens_does_not_depend_on_gomoku():
    for path in (SRC / "queens").rglob("*.py"):
        assert not any(n.startswith("gridgames.gomoku") for n in imported_modules(path)), path
