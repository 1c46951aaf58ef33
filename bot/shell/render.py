"""Markdown -> terminal text: bold and headings in ANSI (when colour is on), links spelled out."""

from __future__ import annotations

import re

BOLD, DIM, CYAN, RESET = "\x1b[1m", "\x1b[2m", "\x1b[36m", "\x1b[0m"

_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![\w*])[*_](?!\s)(.+?)(?<!\s)[*_](?![\w*])")
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^(\s*)[-*]\s+")


class TerminalRenderer:
    def __init__(self, *, color: bool) -> None:
        self.color = color

    def _style(self, text: str, style: str) -> str:
        return f"{style}{text}{RESET}" if self.color else text

    def markdown(self, text: str) -> str:
        return "\n".join(self._line(line) for line in text.splitlines())

    def _line(self, line: str) -> str:
        heading = _HEADING.match(line)
        if heading:
            return self._style(heading.group(2).upper() if len(heading.group(1)) == 1
                               else heading.group(2), BOLD)
        line = _BULLET.sub(lambda m: f"{m.group(1)}• ", line)
        line = _LINK.sub(lambda m: f"{m.group(1)} ({self._style(m.group(2), CYAN)})"
                         if m.group(1) != m.group(2) else self._style(m.group(2), CYAN), line)
        line = _BOLD.sub(lambda m: self._style(m.group(1), BOLD), line)
        line = _CODE.sub(lambda m: self._style(m.group(1), CYAN), line)
        return _ITALIC.sub(lambda m: m.group(1), line)

    def dim(self, text: str) -> str:
        return self._style(text, DIM)

    def choices(self, labels: list[str]) -> str:
        return "\n".join(f"  {self._style(str(i), BOLD)}) {label}" for i, label in
                         enumerate(labels, 1))
