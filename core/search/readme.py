"""README heuristics: what a README measurably contains (headings, sections, code, length).

Pure functions over text; the scoring formulas that use these facts live in SCORING.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$|^\s*<h[1-6][^>]*>(.*?)</h[1-6]>", re.M | re.I)
_FENCE = re.compile(r"^\s*(```|~~~)", re.M)
_INSTALL_HEADING = re.compile(r"install|setup|set up|getting started|get started|download", re.I)
_USAGE_HEADING = re.compile(r"usage|quick ?start|how to use|tutorial|basic use|using", re.I)
_EXAMPLE_HEADING = re.compile(r"example|demo|sample|recipe", re.I)
_INSTALL_COMMAND = re.compile(
    r"\b(pip3? install|pipx install|poetry add|uv (?:pip install|add)|conda install|"
    r"npm (?:i|install)|yarn add|pnpm (?:add|i|install)|bun add|npx |cargo (?:add|install)|"
    r"go (?:get|install)|gem install|brew install|apt(?:-get)? install|docker (?:run|pull)|"
    r"composer require|dotnet add|mvn |gradle|helm install|curl [^\n]*\| ?(?:sh|bash))",
    re.I,
)
_DOCS_LINK = re.compile(r"\[[^\]]*(?:docs|documentation|guide|api reference)[^\]]*\]\(", re.I)


@dataclass(frozen=True, slots=True)
class ReadmeFacts:
    chars: int
    headings: int
    code_blocks: int
    has_install_section: bool
    has_usage_section: bool
    has_examples_section: bool
    has_install_command: bool
    has_docs_link: bool

    def summary(self) -> str:
        """'6.2k chars, 9 headings, 4 code blocks, install+usage sections'."""
        sections = [
            name
            for name, present in (
                ("install", self.has_install_section),
                ("usage", self.has_usage_section),
                ("examples", self.has_examples_section),
            )
            if present
        ]
        parts = [
            f"{_kchars(self.chars)} chars",
            f"{self.headings} headings",
            f"{self.code_blocks} code blocks",
        ]
        if sections:
            parts.append("+".join(sections) + " sections")
        return ", ".join(parts)


def analyze_readme(text: str) -> ReadmeFacts:
    headings = [(m.group(2) or m.group(3) or "") for m in _HEADING.finditer(text)]
    return ReadmeFacts(
        chars=len(text),
        headings=len(headings),
        code_blocks=len(_FENCE.findall(text)) // 2,
        has_install_section=any(_INSTALL_HEADING.search(h) for h in headings),
        has_usage_section=any(_USAGE_HEADING.search(h) for h in headings),
        has_examples_section=any(_EXAMPLE_HEADING.search(h) for h in headings),
        has_install_command=bool(_INSTALL_COMMAND.search(text)),
        has_docs_link=bool(_DOCS_LINK.search(text)),
    )


def _kchars(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)
