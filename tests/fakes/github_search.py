"""Repository search over the fake world, shared by the REST route and the GraphQL ``search``.

Both paths answer a parsed ``q`` alike (qualifiers filter, text alternatives match topics,
name and description), so tests can compare the candidates of either path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.fakes.github_data import FakeRepo, FakeWorld
from tests.fakes.github_query import ParsedQuery, date_matches, number_matches, text_matches

Hit = tuple[int, FakeRepo]
_KEYS: dict[str, Callable[[Hit], Any]] = {
    "stars": lambda h: h[1].record.stars, "forks": lambda h: h[1].record.forks,
    "updated": lambda h: h[1].pushed_at,
}


def find(world: FakeWorld, query: ParsedQuery, sort: str | None, desc: bool = True) -> list[Hit]:
    """(best-match score, repository) for every match, in ``sort`` order (None: best match),
    at most 1,000 as GitHub gives. The world never changes, so each search is scanned once:
    the scan (~0.2 s of Python over the whole snapshot) runs in the benchmarks' process and would
    otherwise be counted as the bot's latency, on top of the fake's simulated GitHub time."""
    # sort: arrives as a parameter (REST) or as a qualifier (GraphQL); the order is ``sort, desc``
    filters = sorted((k, v) for k, v in query.qualifiers.items() if k != "sort")
    key = (repr(query.alternatives), repr(filters), sort, desc)
    found = world.searches.get(key)
    if found is None:
        found = world.searches[key] = _scan(world, query, sort, desc)
    return list(found)


def _scan(world: FakeWorld, query: ParsedQuery, sort: str | None, desc: bool) -> list[Hit]:
    hits: list[Hit] = []
    languages = {name.lower() for name in query.qualifiers.get("language", [])}  # OR'd, as GitHub does
    for fr in world.repos:
        if languages and (fr.record.language or "").lower() not in languages:
            continue
        if not all(number_matches(s, fr.record.stars) for s in query.qualifiers.get("stars", [])):
            continue
        if not all(date_matches(s, fr.pushed_at) for s in query.qualifiers.get("pushed", [])):
            continue
        if not all(date_matches(s, fr.created_at) for s in query.qualifiers.get("created", [])):
            continue
        if not all(t.lower() in fr.topics for t in query.qualifiers.get("topic", [])):
            continue
        if query.first("archived") == "false" and fr.archived:
            continue
        score = text_matches(query.alternatives, fr.topics_text)
        if score:
            hits.append((score, fr))
    key = _KEYS.get(sort or "", lambda h: (h[0], h[1].record.stars))
    hits.sort(key=key, reverse=desc if sort in _KEYS else True)
    return hits[:1000]


def sort_qualifier(query: ParsedQuery) -> tuple[str | None, bool]:
    """GitHub's ``sort:stars-desc`` qualifier (GraphQL search has no sort argument)."""
    spec = query.first("sort")
    if spec is None:
        return None, True
    field, _, order = spec.partition("-")
    return field, order != "asc"
