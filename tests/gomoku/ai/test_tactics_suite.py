"""The tactics suite of ``benchmarks/engine_tactics.py`` holds under the rules' code as it is:
each forced win is still proven and each only defence is still the only one."""

from __future__ import annotations

import pytest
from ai_helpers import load_benchmark

tactics = load_benchmark("engine_tactics")
ENTRIES = tactics.suite_entries()

# Made when caro's solvers offered the defender only the five point of a four; the far
# end of that five (a five blocked at both ends does not win) refutes its win.
REFUTED_CARO_WIN = ("vct", "caro", "15", "h8g7h6i6j8h7g8i8i7k9j6g9j7j9j5j4k10l9m9h9i9k7k5l4"
                    "i4g6f5g5h3g2g4i2l5m5d7e6j2l7m6k4e8n4m4l6o3l10l8f8e7o7n3k6c6f9c7f7f10e9"
                    "d9d10c11k3n6m7n7b7b5a4n9n10c5c4c9c8b3e5b4b2d6a3d8d5f3b10", "-")


@pytest.mark.parametrize(("kind", "rule", "size", "moves", "answer"), ENTRIES,
                         ids=[f"{e[0]}-{e[1]}-{i}" for i, e in enumerate(ENTRIES)])
def test_each_entry_still_holds(kind: str, rule: str, size: str, moves: str,
                                answer: str) -> None:
    assert tactics.still_holds(kind, tactics.entry_board(rule, size, moves), answer)


def test_an_entry_the_rules_refute_is_found() -> None:
    kind, rule, size, moves, answer = REFUTED_CARO_WIN
    assert list(REFUTED_CARO_WIN) not in ENTRIES
    assert not tactics.still_holds(kind, tactics.entry_board(rule, size, moves), answer)


def test_every_kind_and_rule_is_in_the_suite() -> None:
    assert {e[0] for e in ENTRIES} == {"vcf", "vct", "defend"}
    assert {e[1] for e in ENTRIES} == {"freestyle", "standard", "renju", "caro"}
