"""GitHub search ``q`` parsing for the fake server, following GitHub's documented rules.

Space-separated terms are ANDed; ``OR`` separates alternatives (it binds loosest; there are no
parentheses); ``"quoted phrases"`` match as phrases; qualifiers (``language:``, ``stars:``,
``pushed:``, ``created:``, ``topic:``, ``archived:``, ``fork:``, ``repo:``, ``is:``, ``closed:``,
``merged:``) filter the whole query. More than five AND/OR/NOT operators or more than 256
characters is refused (422), as GitHub does.
"""

from __future__ import annotations

import re
from functools import lru_cache
import shlex
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta

MAX_OPERATORS = 5
MAX_CHARS = 256
_QUALIFIER = re.compile(r"^([a-z_]+):(.+)$")
KNOWN = {"language", "stars", "forks", "pushed", "created", "topic", "archived", "fork", "repo",
         "is", "closed", "merged", "in", "sort", "user", "org", "type", "state", "size", "license"}


class QueryRefused(ValueError):
    pass


@dataclass
class ParsedQuery:
    alternatives: list[list[str]] = field(default_factory=list)  # OR of ANDed terms
    qualifiers: dict[str, list[str]] = field(default_factory=dict)

    def first(self, name: str) -> str | None:
        values = self.qualifiers.get(name)
        return values[0] if values else None


def parse(q: str) -> ParsedQuery:
    if not q.strip():
        raise QueryRefused("q is missing")
    if len(q) > MAX_CHARS:
        raise QueryRefused("The search is longer than 256 characters.")
    try:
        tokens = shlex.split(q, posix=True)
    except ValueError as exc:
        raise QueryRefused(str(exc)) from exc
    operators = sum(1 for t in tokens if t in {"OR", "AND", "NOT"})
    if operators > MAX_OPERATORS:
        raise QueryRefused("The search contains more than 5 AND / OR / NOT operators.")
    parsed = ParsedQuery(alternatives=[[]])
    for token in tokens:
        match = _QUALIFIER.match(token)
        if token == "OR":
            parsed.alternatives.append([])
        elif token == "AND":
            continue
        elif match and match.group(1) in KNOWN:
            parsed.qualifiers.setdefault(match.group(1), []).append(match.group(2).strip('"'))
        else:
            parsed.alternatives[-1].append(token.lower())
    parsed.alternatives = [a for a in parsed.alternatives if a]
    return parsed


def text_matches(alternatives: list[list[str]], haystack: str) -> int:
    """0 when no alternative matches, else the number of matched terms (for best-match order)."""
    if not alternatives:
        return 1
    best = 0
    for terms in alternatives:
        if all(_has(haystack, t) for t in terms):
            best = max(best, len(terms))
    return best


@lru_cache(maxsize=4096)
def _word(term: str) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9])" + re.escape(term) + r"(?![a-z0-9])")


def _has(haystack: str, term: str) -> bool:
    # a plain substring test first: most repositories do not contain the term at all
    return term in haystack and _word(term).search(haystack) is not None


def number_matches(spec: str, value: int) -> bool:
    low, high = _range(spec, int)
    return (low is None or value >= low) and (high is None or value <= high)


def date_matches(spec: str, value: datetime | None) -> bool:
    if value is None:
        return False
    low, high = _range(spec, date.fromisoformat)
    day = value.astimezone(UTC).date()
    return (low is None or day >= low) and (high is None or day <= high)


def _range(spec: str, cast):  # type: ignore[no-untyped-def]
    spec = spec.strip()
    if ".." in spec:
        a, b = spec.split("..", 1)
        return (None if a in {"", "*"} else cast(a)), (None if b in {"", "*"} else cast(b))
    for prefix in (">=", "<=", ">", "<"):
        if spec.startswith(prefix):
            value = cast(spec[len(prefix):])
            if prefix == ">=":
                return value, None
            if prefix == "<=":
                return None, value
            if isinstance(value, int):
                return (value + 1, None) if prefix == ">" else (None, value - 1)
            return (value + timedelta(days=1), None) if prefix == ">" else (None, value - timedelta(days=1))
    value = cast(spec)
    return value, value
