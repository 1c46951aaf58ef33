"""How well a repository matches the query's concepts (name > topics > description > README).

Each *concept* is a keyword, a quoted phrase, a topic, or a synonym group (any member counts).
The formula is in SCORING.md ("relevance").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from core.models import Repository, SearchParams

_WORD = re.compile(r"[a-z0-9+#]+")

# where a concept was found -> how much that match is worth
PLACE_WEIGHTS: dict[str, float] = {"name": 1.0, "topics": 0.9, "description": 0.8, "readme": 0.5}
LANGUAGE_WEIGHT = 0.5  # the language counts as half a concept
SYNONYM_FACTOR = 0.75  # a synonym's match is worth less than the user's own word
README_WINDOW = 20_000  # characters of README searched


def stem(word: str) -> str:
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@lru_cache(maxsize=16_384)
def normalize(text: str) -> str:
    """' state management ' -- lower-case stemmed words padded with spaces for whole-word tests."""
    return " " + " ".join(stem(w) for w in _WORD.findall(text.lower())) + " "


@dataclass(frozen=True, slots=True)
class Concept:
    label: str
    alternatives: tuple[str, ...]  # normalized forms, each padded with spaces


@dataclass(frozen=True, slots=True)
class QueryTerms:
    concepts: tuple[Concept, ...]
    language: str | None

    @property
    def empty(self) -> bool:
        return not self.concepts and not self.language


def compile_terms(params: SearchParams | None) -> QueryTerms:
    if params is None:
        return QueryTerms((), None)
    groups: list[list[str]] = [[p] for p in params.phrases]
    grouped = {normalize(w) for group in params.synonym_groups for w in group}
    groups += [list(g) for g in params.synonym_groups if g]
    groups += [[k] for k in params.keywords if normalize(k) not in grouped]
    groups += [[t] for t in params.topics if normalize(t) not in grouped]
    seen: set[tuple[str, ...]] = set()
    concepts: list[Concept] = []
    for group in groups:
        alts = tuple(dict.fromkeys(n for n in (normalize(w) for w in group) if n.strip()))
        if alts and alts not in seen:
            seen.add(alts)
            concepts.append(Concept(label=group[0], alternatives=alts))
    return QueryTerms(tuple(concepts), params.language)


@dataclass(frozen=True, slots=True)
class RelevanceResult:
    score: float  # 0-10
    reason: str


def relevance(repo: Repository, terms: QueryTerms, readme: str | None = None) -> RelevanceResult | None:
    """None when the query has nothing to match against (no words, no language)."""
    if terms.empty:
        return None
    fields = {
        "name": normalize(repo.full_name.replace("/", " ")),
        "topics": normalize(" ".join(repo.topics)),
        "description": normalize(repo.description or ""),
        "readme": normalize(readme[:README_WINDOW]) if readme else " ",
    }
    compact_name = repo.name.lower().replace("-", "").replace("_", "").replace(".", "")
    total = 0.0
    weight = 0.0
    found: list[str] = []
    missing: list[str] = []
    for concept in terms.concepts:
        best, place, word = 0.0, "", concept.label
        for rank, alt in enumerate(concept.alternatives):
            factor = 1.0 if rank == 0 else SYNONYM_FACTOR
            for field, value in fields.items():
                hit = alt in value or (field == "name" and alt.replace(" ", "") == compact_name)
                if hit and PLACE_WEIGHTS[field] * factor > best:
                    best, place, word = PLACE_WEIGHTS[field] * factor, field, alt.strip()
        total += best
        weight += 1.0
        (found if best else missing).append(f"'{word}' in {place}" if best else f"'{concept.label}'")
    if terms.language:
        same = (repo.language or "").lower() == terms.language.lower()
        total += LANGUAGE_WEIGHT if same else 0.0
        weight += LANGUAGE_WEIGHT
        (found if same else missing).append(terms.language)
    score = round(10 * total / weight, 1)
    parts = []
    if found:
        parts.append("matches " + ", ".join(found[:4]))
    if missing:
        parts.append("no match for " + ", ".join(missing[:3]))
    return RelevanceResult(score, "; ".join(parts))
