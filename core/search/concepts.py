"""The concepts of a query and their roles: what is asked for, and what only qualifies it.

"react state management" has one *core* concept (state management) and one *qualifier* (react);
"llm agent framework" has two core concepts. Roles (``core.search.synonyms``):

- ``qualifier``: platform / framework / ecosystem words ("react", "android", "self-hosted");
- ``generic``: head nouns that say little ("framework", "app");
- ``core``: everything else (quoted phrases and topics always).

When a query has no core concept ("react", "desktop app framework"), its qualifiers and generic
words are promoted to core. The requested language is a qualifier too, handled apart (it is a
filter as well). Shared by the relevance scorer and the Scout, so what is scored is what is
searched for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from core.models import SearchParams
from core.search.synonyms import GENERIC, QUALIFIERS, language_mentions, related_terms

Role = Literal["core", "qualifier", "generic"]
_WORD = re.compile(r"[a-z0-9+#]+")


@dataclass(frozen=True, slots=True)
class QueryConcept:
    label: str  # the user's own word (first alternative)
    alternatives: tuple[str, ...]  # the label first, then equivalents, then related terms
    related: frozenset[str]  # the weak alternatives (broader or neighbouring terms)
    role: Role

    @property
    def strong(self) -> tuple[str, ...]:
        """The user's word and its equivalents (no related terms)."""
        return tuple(a for a in self.alternatives if a.lower() not in self.related)


def role_of(label: str) -> Role:
    word = " ".join(label.lower().replace("_", " ").split())
    if word in QUALIFIERS or word.replace(" ", "-") in QUALIFIERS:
        return "qualifier"
    if word in GENERIC:
        return "generic"
    return "core"


def query_concepts(params: SearchParams | None) -> list[QueryConcept]:
    """Phrases, synonym groups, then the keywords and topics not already in a group; roles set."""
    if params is None:
        return []
    return list(_concepts(tuple(params.phrases), tuple(tuple(g) for g in params.synonym_groups),
                          tuple(params.keywords), tuple(params.topics)))


# a turn asks for the concepts of the same parameters ~8 times (the Scout's strategies, relevance,
# the fit notes): ~25 us each
@lru_cache(maxsize=256)
def _concepts(phrases: tuple[str, ...], synonym_groups: tuple[tuple[str, ...], ...], keywords: tuple[str, ...],
              topics: tuple[str, ...]) -> tuple[QueryConcept, ...]:
    grouped = {w.lower() for group in synonym_groups for w in group}
    raw: list[tuple[list[str], bool]] = [([p], True) for p in phrases]  # (group, always core)
    raw += [(list(g), False) for g in synonym_groups if g]
    raw += [([k], False) for k in keywords if k.lower() not in grouped]
    raw += [([t], True) for t in topics if t.lower() not in grouped]
    seen: set[tuple[str, ...]] = set()
    concepts: list[QueryConcept] = []
    for group, always_core in raw:
        alts = tuple(dict.fromkeys(w.strip() for w in group if w.strip()))
        key = tuple(a.lower() for a in alts)
        if not alts or key in seen:
            continue
        seen.add(key)
        related = related_terms(key) - {key[0]}
        role: Role = "core" if always_core else role_of(alts[0])
        concepts.append(QueryConcept(alts[0], alts, related, role))
    if concepts and not any(c.role == "core" for c in concepts):
        concepts = [QueryConcept(c.label, c.alternatives, c.related, "core") for c in concepts]
    return tuple(concepts)


def core_search_params(params: SearchParams) -> SearchParams | None:
    """One OR'd group of the core concepts and their equivalents -- no qualifiers, no related
    terms -- for a search, by best match, that finds the concept however popular its qualifier
    matches are. None when the query has no concept at all."""
    core = [c for c in query_concepts(params) if c.role == "core"]
    if not core:
        return None
    terms = list(dict.fromkeys([*(a for c in core for a in c.strong), *adjacent_pairs(params)]))
    return params.model_copy(update={"keywords": [], "phrases": [], "topics": [], "synonym_groups": [terms]})


def adjacent_pairs(params: SearchParams) -> list[str]:
    """Word pairs that stand side by side in the user's text and span two core concepts
    ("vector" + "database", "plugin" + "manager"), or a core word and a generic noun
    ("desktop" + "app", "app" + "framework"): the noun phrases of the query."""
    owner: dict[str, int] = {}
    for index, concept in enumerate(query_concepts(params)):
        if concept.role == "core":
            for word in _WORD.findall(concept.label.lower()):
                owner.setdefault(word, index)
    words = _WORD.findall(params.text.lower())
    pairs: list[str] = []
    for left, right in zip(words, words[1:]):
        a = owner.get(left, -1 if left in GENERIC else None)
        b = owner.get(right, -1 if right in GENERIC else None)
        if a is not None and b is not None and a != b and max(a, b) >= 0:
            pairs.append(f"{left} {right}")
    return list(dict.fromkeys(pairs))


def language_mention_params(params: SearchParams) -> SearchParams | None:
    """The core concepts with the language *named in the text* instead of the language filter
    ("python linter": a linter for Python, whatever it is written in; "css framework"). None
    without a language, a core concept, or a searchable name for the language (C, R, C++)."""
    if not params.language:
        return None
    words = [w for w in language_mentions(params.language) if w.isalnum()]
    core = [c for c in query_concepts(params) if c.role == "core"]
    if not words or not core:
        return None
    terms = list(dict.fromkeys([*(a for c in core for a in c.strong), *adjacent_pairs(params)]))
    update = {"language": None, "keywords": words[:1], "phrases": [], "topics": [], "synonym_groups": [terms]}
    return params.model_copy(update=update)
