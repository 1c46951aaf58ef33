"""Every setting the code reads is documented in .env.example (with a one-line explanation)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAME = re.compile(
    r"[\"']((?:OMG|LLM|SLACK|DISCORD|GITHUB|DEEPSEEK|OPENAI|GEMINI|REDIS)_[A-Z0-9_]+|PORT)[\"']"
)


def names_read_by_code() -> set[str]:
    found: set[str] = set()
    for folder in ("core", "bot"):
        for path in (ROOT / folder).rglob("*.py"):
            found.update(NAME.findall(path.read_text(encoding="utf-8")))
    return found


def documented() -> dict[str, str]:
    """NAME -> the comment line(s) right above it in .env.example."""
    docs: dict[str, str] = {}
    comment: list[str] = []
    for line in (ROOT / ".env.example").read_text(encoding="utf-8").splitlines():
        stripped = line.strip()
        match = re.match(r"^#?\s*([A-Z][A-Z0-9_]+)=", stripped)
        if match and not stripped.startswith("# "):
            docs[match.group(1)] = " ".join(comment)
            comment = []
        elif stripped.startswith("#"):
            comment.append(stripped.lstrip("# "))
        else:
            comment = []
    return docs


def test_every_variable_the_code_reads_is_in_env_example() -> None:
    missing = sorted(names_read_by_code() - set(documented()))
    assert missing == [], f"add these to .env.example with a one-line explanation: {missing}"


def test_every_documented_variable_has_an_explanation() -> None:
    unexplained = sorted(name for name, text in documented().items() if not text.strip())
    assert unexplained == []
