"""SearchParams -> GitHub search ``q`` syntax.

GitHub repository search ANDs space-separated terms, supports ``OR`` between terms but no
parentheses, and allows at most five AND/OR/NOT operators and 256 characters. Since ``OR`` binds
loosest, "(a OR b) AND c" is written in disjunctive form: ``a c OR b c``. So:

- each synonym group is one concept whose alternatives are OR'd;
- each loose keyword (in no group and no phrase) is a concept of its own, as in the offline
  catalog (``core.catalog.index``), so both sources answer the same parameters alike; recall comes
  from the translator's synonym groups (the origin ANDed every word, synonyms included);
- phrases are quoted and required in every alternative;
- the concepts are expanded into at most ``MAX_ALTERNATIVES`` alternatives (five ``OR``s),
  dropping the last synonyms of the largest concept first, then the longest alternatives
  until the query fits in 256 characters;
- qualifiers (language, stars, pushed, created, topic, archived) apply to the whole query; a
  language brings its family (JavaScript: ``language:JavaScript language:TypeScript``, which
  GitHub ORs), as the offline catalog does;
- a term never reads as an operator or a qualifier: the words AND/OR/NOT are dropped (any case),
  a leading ``-`` (GitHub's NOT) is stripped, a term with a ``:`` is quoted -- so the only
  operators are the ``OR``s above (at most ``MAX_OPERATORS``);
- when even one alternative is too long, the last phrase or the last topic qualifier (from
  whichever takes more room) is dropped until it fits; a last resort cuts between whole
  tokens, never inside quotes or after an ``OR``.
GitHub leaves forks out of search results unless ``fork:true`` is given, so no fork qualifier.
"""

from __future__ import annotations

import re
from itertools import product

from core.models import SearchParams
from core.search.synonyms import LANGUAGE_FAMILY

MAX_OPERATORS = 5  # AND / OR / NOT, all kinds together (GitHub refuses more with a 422)
MAX_ALTERNATIVES = MAX_OPERATORS + 1  # joined by five ORs
MAX_QUERY_CHARS = 256
# the language's closest relative only (TypeScript for JavaScript, Kotlin for Java): each more
# qualifier pushes a search nearer the 256 characters past which it cannot be batched
RELATED_LANGUAGES_ASKED = 1
OPERATORS = {"AND", "OR", "NOT"}


def clean_term(term: str) -> str:
    """A search term that cannot read as an operator: no quotes, no leading ``-``, and "" for
    the bare words AND/OR/NOT."""
    term = term.replace('"', "").strip().lstrip("-").strip()
    return "" if term.upper() in OPERATORS else term


def quote(term: str) -> str:
    term = clean_term(term)
    return f'"{term}"' if any(c.isspace() or c == ":" for c in term) else term


def qualifiers(params: SearchParams) -> list[str]:
    parts: list[str] = []
    for named in params.languages:  # several language: qualifiers are OR'd by GitHub
        related = LANGUAGE_FAMILY.get(named, ())[:RELATED_LANGUAGES_ASKED]
        for language in (named, *related):
            parts.append(f"language:{quote(language)}")
    for topic in params.topics:
        slug = re.sub(r"[^a-z0-9-]", "", topic.strip().lower().replace(" ", "-"))  # GitHub's topic alphabet
        if slug:
            parts.append(f"topic:{slug}")
    low, high = params.min_stars, params.max_stars
    if low is not None and high is not None:
        parts.append(f"stars:{low}..{high}")
    elif low is not None:
        parts.append(f"stars:>={low}")
    elif high is not None:
        parts.append(f"stars:<={high}")
    if params.pushed_after:
        parts.append(f"pushed:>={params.pushed_after.isoformat()}")
    if params.created_after:
        parts.append(f"created:>={params.created_after.isoformat()}")
    parts.append("archived:false")
    return parts


def concepts(params: SearchParams) -> list[list[str]]:
    """The concepts (ANDed); each one's alternatives are OR'd."""
    groups = [_dedupe(g) for g in params.synonym_groups if _dedupe(g)]
    covered = {t.lower() for g in groups for t in g} | {
        w.lower() for p in params.phrases for w in p.split()
    }
    covered |= {p.lower() for p in params.phrases}
    groups += [[k] for k in _dedupe(params.keywords) if k.lower() not in covered]
    return groups


def build_query(params: SearchParams) -> str:
    required = [quote(p) for p in _dedupe(params.phrases)]
    groups = concepts(params)
    tail = qualifiers(params)
    while True:
        groups = _fit_alternatives(groups)
        query = _join(required, groups, tail)
        if len(query) <= MAX_QUERY_CHARS:
            return query
        topics = [i for i, q in enumerate(tail) if q.startswith("topic:")]
        if _can_shrink(groups):
            groups = _drop_one(groups)
        elif required and len(" ".join(required)) >= sum(len(tail[i]) for i in topics):
            required = required[:-1]  # too long to keep: the query gets broader
        elif topics:
            tail = tail[:topics[-1]] + tail[topics[-1] + 1:]
        else:
            return _cut(query)


def _join(required: list[str], groups: list[list[str]], tail: list[str]) -> str:
    alternatives = [" ".join([*required, *map(quote, combo)]) for combo in product(*groups)]
    text = " OR ".join(a for a in alternatives if a)
    return f"{text} {' '.join(tail)}".strip()


def _cut(query: str) -> str:
    """Whole tokens (quotes kept whole) in order while they fit; no dangling or doubled ``OR``."""
    kept: list[str] = []
    for token in re.findall(r'"[^"]*"|\S+', query):
        if token == "OR" and (not kept or kept[-1] == "OR"):
            continue
        if len(" ".join([*kept, token])) <= MAX_QUERY_CHARS:
            kept.append(token)
    while kept and kept[-1] == "OR":
        kept.pop()
    return " ".join(kept)


def _dedupe(terms: list[str]) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for term in terms:
        clean = clean_term(term)
        if clean and clean.lower() not in seen:
            seen.add(clean.lower())
            out.append(clean)
    return out


def _size(groups: list[list[str]]) -> int:
    total = 1
    for group in groups:
        total *= len(group)
    return total


def _can_shrink(groups: list[list[str]]) -> bool:
    return any(len(g) > 1 for g in groups) or len(groups) > 1


def _drop_one(groups: list[list[str]]) -> list[list[str]]:
    """Drop the last synonym of the largest group (the translator lists the best first)."""
    if not any(len(g) > 1 for g in groups):
        return groups[:-1]  # only single-term concepts left: drop the last concept
    largest = max(range(len(groups)), key=lambda i: (len(groups[i]), i))
    return [g[:-1] if i == largest else g for i, g in enumerate(groups)]


def _fit_alternatives(groups: list[list[str]]) -> list[list[str]]:
    while _size(groups) > MAX_ALTERNATIVES:
        groups = _drop_one(groups)
    return groups
