"""Which repositories a turn is about: the classifier's resolved names, else names in the text."""

from __future__ import annotations

import re

from core.models import Classification, StructuredData, structured_repo_names

_URL = re.compile(r"github\.com/([A-Za-z0-9][A-Za-z0-9-]*)/([A-Za-z0-9._-]+)", re.I)
_FULL_NAME = re.compile(r"(?<![\w./-])([A-Za-z0-9][A-Za-z0-9-]{0,38})/([A-Za-z0-9._-]{1,100})(?![\w/])")
_NOT_REPOS = {"and/or", "either/or", "i/o", "n/a", "w/o", "tcp/ip", "ui/ux", "24/7", "read/write"}


def requested_repos(classification: Classification, message: str) -> list[str]:
    """Targets in order, without duplicates (case-insensitive)."""
    names = classification.repos or names_in_text(message)
    seen: set[str] = set()
    ordered: list[str] = []
    for name in names:
        key = name.strip().lower()
        if key and key not in seen:
            seen.add(key)
            ordered.append(name.strip())
    return ordered


def names_in_text(message: str) -> list[str]:
    """``owner/name`` mentions and GitHub URLs, in order of appearance."""
    found: list[tuple[int, str]] = []
    for m in _URL.finditer(message):
        found.append((m.start(), f"{m.group(1)}/{_strip_suffix(m.group(2))}"))
    without_urls = _URL.sub(lambda m: " " * len(m.group(0)), message)
    for m in _FULL_NAME.finditer(without_urls):
        name = f"{m.group(1)}/{_strip_suffix(m.group(2))}"
        if name.lower() not in _NOT_REPOS and not m.group(1).isdigit():
            found.append((m.start(), name))
    return [name for _, name in sorted(found)]


def candidates(previous: StructuredData | None, exclude: list[str] = ()) -> list[str]:
    """Repos the user saw last (what "which one?" can offer), minus ``exclude``."""
    skip = {e.lower() for e in exclude}
    return [n for n in structured_repo_names(previous) if n.lower() not in skip]


def _strip_suffix(name: str) -> str:
    name = name.rstrip(".,;:!?)")
    return name[:-4] if name.lower().endswith(".git") else name
