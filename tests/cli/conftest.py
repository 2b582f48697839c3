"""The terminal front ends are driven as a user's terminal runs them."""

from __future__ import annotations

import signal


def pytest_configure() -> None:
    # A shell starts a background job with Ctrl-C ignored, and every process it
    # starts inherits that; the Ctrl-C tests need it delivered, as at a terminal.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
