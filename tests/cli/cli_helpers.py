"""Shared by the terminal tests that drive the game in-process."""

from __future__ import annotations

from collections.abc import Callable

from gridgames.cli.gomoku_game import Console


class ScriptedConsole(Console):
    """Answers prompts from a list (or a function of the prompt) and collects everything shown."""

    def __init__(self, answers: list[str] | Callable[[str], str]) -> None:
        super().__init__(color=False)
        self.is_tty = False
        self.answers = answers if callable(answers) else list(answers)
        self.output: list[str] = []

    def ask(self, prompt: str) -> str:
        self.output.append(prompt)
        if callable(self.answers):
            return self.answers(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)

    def say(self, text: str = "") -> None:
        self.output.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.output)

    def after(self, line: str) -> str:
        """The line shown just after the first ``line``."""
        return self.output[self.output.index(line) + 1]
