"""The progress line of a proof the user waits for (`--exact`): seconds and pairs scored, on stderr."""
from __future__ import annotations

from typing import TextIO


class ProofDisplay:
    """A one-line display on a terminal, rewritten as the exact search reports its rounds."""

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.shown = False

    def update(self, seconds: float, work: int, finished: bool = False) -> None:
        """Show the search's progress: `seconds` since it began, `work` (guess, target) pairs scored;
        `finished`: the search ended, clear the line."""
        if finished:
            self.close()
            return
        self.stream.write(f"\rproving: {seconds:.0f} s, {work / 1e9:.2f} billion (guess, answer) pairs scored "
                          "(Ctrl-C stops)")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        """Clear the line, if one was shown."""
        if self.shown:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            self.shown = False
