"""The Screener's coarse cut: the user's own filters, relevance by words and by meaning, diversity.

The lexical order (no network) is 0.6 x query relevance (name/description/topics) + 0.25 x popularity
*rank within this candidate set* + 0.15 x recency of the last push -- so a set of small projects
is judged among themselves, and nothing is cut by an absolute star count. Candidates are taken
relevance *tier* first (``core.search.relevance``: the whole core concept, then part of it, then
only qualifiers). That order is then fused with the semantic one and candidates that do not fit
the need are dropped (``core.search.fit``). The user's own star range (and creation / push dates, where known) is
respected -- candidates outside it are dropped -- and nothing else. For "small/new" queries
popularity weighs less and 12-month growth counts instead. Diversity: at most 2 repos per owner,
1 per repository name, and -- when no language was asked for -- at most ~60 % in one language.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime

from core.models import Repository, SearchParams
from core.search.fit import Fit, fits
from core.search.measures import days_since, recency_score
from core.search.concepts import query_concepts
from core.search.relevance import (
    TIER_ALL_CORE, TIER_PARTIAL, TIER_QUALIFIERS_ONLY, RelevanceResult, compile_terms, misses_language, relevance,
)

LANGUAGE_SHARE = 0.6


def in_range(repo: Repository, params: SearchParams) -> bool:
    """The user's own filters, where the repository's data can tell (unknown dates pass; unknown
    stars fail a star range: nothing says they are in it)."""
    if (params.min_stars is not None or params.max_stars is not None) and repo.measured_stars is None:
        return False
    if params.min_stars is not None and repo.stars < params.min_stars:
        return False
    if params.max_stars is not None and repo.stars > params.max_stars:
        return False
    if params.created_after and repo.created_at and repo.created_at.date() < params.created_after:
        return False
    return not (params.pushed_after and repo.pushed_at and repo.pushed_at.date() < params.pushed_after)


def wants_small(params: SearchParams) -> bool:
    return params.max_stars is not None or params.created_after is not None or params.sort == "growth"


def coarse_rank(
    candidates: Sequence[Repository],
    params: SearchParams,
    now: datetime,
    *,
    star_range: SearchParams | None = None,
    exact: set[str] | None = None,
    readmes: dict[str, str] | None = None,
    gate: bool = True,
    known: Callable[[str], bool | None] | None = None,
    users: Callable[[str, int], frozenset[str] | None] | None = None,
) -> tuple[list[Repository], dict[str, Fit]]:
    """Candidates in the star range that fit the need, best first, with their fit (see the
    module docstring and ``core.search.fit``).

    ``star_range`` defaults to ``params`` (it differs when the Scout relaxed the stars);
    candidates in ``exact`` (lower-cased full names matching before any relaxation) come first.
    """
    pool = [r for r in candidates if in_range(r, star_range or params)]
    if not pool:
        return [], {}
    terms = compile_terms(params)
    by_stars = sorted(pool, key=lambda r: r.stars)
    star_pct = {id(r): (i + 1) / len(pool) for i, r in enumerate(by_stars)}
    small = wants_small(params)

    verdicts = {id(r): relevance(r, terms) for r in pool}

    def score(repo: Repository) -> float:
        rel = verdicts[id(repo)]
        rel_score = rel.score / 10 if rel else 0.5
        pushed = recency_score(days_since(repo.pushed_at, now))
        fresh = (pushed or 0.0) / 10
        if small:
            growth = repo.star_growth_12m or repo.star_growth_6m
            ratio = growth / max(1, repo.stars - growth) if growth and growth > 0 else 0.0
            return 0.6 * rel_score + 0.1 * star_pct[id(repo)] + 0.15 * fresh + 0.15 * min(1.0, ratio)
        return 0.6 * rel_score + 0.25 * star_pct[id(repo)] + 0.15 * fresh

    first = exact or set()
    lexical = sorted(pool, key=lambda r: (tier(verdicts[id(r)]), bool(first) and r.full_name.lower() not in first,
                                          not r.figures_known, -score(r), -r.stars))
    # every core concept matched by words, whatever the language (the named language is filtered later)
    all_core = {r.full_name for r in pool if tier(verdicts[id(r)]) < TIER_QUALIFIERS_ONLY and not tier(verdicts[id(r)]) & TIER_PARTIAL}
    # the qualifier matched and the core did not: most likely the qualifier itself ("react" for
    # "react state management"), not a project for it
    qualified = any(c.role == "qualifier" for c in query_concepts(params))
    qualifier_only = {r.full_name for r in pool if qualified and tier(verdicts[id(r)]) == TIER_QUALIFIERS_ONLY}
    wordless = {r.full_name for r in pool if tier(verdicts[id(r)]) >= TIER_QUALIFIERS_ONLY}
    # under a language filter, those in the language or made for it (their text names it)
    in_language = {r.full_name for r in pool if not misses_language(tier(verdicts[id(r)]))} if params.language else None
    fitted = fits(params, lexical, all_core, readmes, small=small, exact=first, qualifier_only=qualifier_only, gate=gate,
                  known=known, users=users, wordless=wordless, in_language=in_language)
    ranked = sorted((r for r in lexical if r.full_name in fitted), key=lambda r: -fitted[r.full_name].fused)
    return diversify(ranked, len(ranked), language_free=params.language is None), fitted


def tier(verdict: RelevanceResult | None) -> int:
    """How much of the core concept a result matches (0 all of it, 2 only qualifiers); see
    ``core.search.relevance``. Results are ranked tier first."""
    return verdict.tier if verdict is not None else TIER_ALL_CORE


def diversify(ranked: Sequence[Repository], k: int, *, language_free: bool) -> list[Repository]:
    """Greedy pick in rank order under the diversity caps; skipped ones fill any space left."""
    owners: Counter[str] = Counter()
    names: Counter[str] = Counter()
    languages: Counter[str] = Counter()
    lang_cap = max(2, math.ceil(LANGUAGE_SHARE * min(k, 12)))
    picked: list[Repository] = []
    over_language: list[Repository] = []  # fill first: only the language share was exceeded
    duplicates: list[Repository] = []  # fill last: another repo of that owner / name is in
    for repo in ranked:
        lang = (repo.language or "").lower()
        if owners[repo.owner.lower()] >= 2 or names[repo.name.lower()] >= 1:
            duplicates.append(repo)
            continue
        if language_free and lang and languages[lang] >= lang_cap:
            over_language.append(repo)
            continue
        picked.append(repo)
        owners[repo.owner.lower()] += 1
        names[repo.name.lower()] += 1
        languages[lang] += 1
    return (picked + over_language + duplicates)[:k]
