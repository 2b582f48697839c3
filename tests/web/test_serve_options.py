"""``gridgames serve``: its whole-number options are refused by argparse, exit status 2."""

from __future__ import annotations

import argparse

import pytest

from gridgames.cli.main import main
from gridgames.web import cli


def refused(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The error line of a command line that argparse refuses (exit status 2)."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err.strip().splitlines()[-1]


@pytest.mark.parametrize("option", ["--workers", "--queue-limit"])
@pytest.mark.parametrize("value, shown", [("0", "0"), ("-3", "-3"), ("many", "'many'")])
def test_serve_refuses_a_bad_number(capsys: pytest.CaptureFixture[str], option: str,
                                    value: str, shown: str) -> None:
    line = refused(capsys, ["serve", f"{option}={value}"])
    assert line == (f"gridgames serve: error: argument {option}: "
                    f"must be a whole number of 1 or more, got {shown}")


def test_serve_allows_one_worker_and_a_queue_of_one() -> None:
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(["--workers", "1", "--queue-limit", "1"])
    assert (args.workers, args.queue_limit) == (1, 1)
    assert parser.parse_args([]).queue_limit is None
