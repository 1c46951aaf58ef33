"""The Screener: a coarse, diversity-keeping cut of the Scout's candidates, then full scoring.

Coarse ranking (no network): 0.6 x query relevance (name/description/topics) + 0.25 x popularity
*rank within this candidate set* + 0.15 x recency of the last push -- so a set of small projects
is judged among themselves, and nothing is cut by an absolute star count. The user's own star
range (and creation / push dates, where known) is respected -- candidates outside it are
dropped -- and nothing else. For "small/new" queries
popularity weighs less and 12-month growth counts instead. Diversity: at most 2 repos per owner,
1 per repository name, and -- when no language was asked for -- at most ~60 % in one language.

Then the best ``score_top`` candidates get their signals and README fetched concurrently (a
bounded semaphore: on live GitHub each costs API calls) and are scored (``core.search.scoring``);
the top ``limit`` (max 10) are returned, each with a one-line ``why``. Signals are asked at
``depth`` ("light" by default: a few cheap calls per candidate, see ``core.github.signals``).
When the source's hourly budget is scarce (``SourceInfo.calls_per_hour`` below
``SCARCE_CALLS_PER_HOUR``: anonymous GitHub allows 60) nothing is fetched per candidate: they
are scored from the search results' own fields, and the notes say so.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from core.errors import LLMError, OmgError, RateLimited, SourceError
from core.models import Repository, RepoSignals, ScoredRepository, SearchParams
from core.search.relevance import TIER_ALL_CORE, RelevanceResult, compile_terms, relevance
from core.search.scoring import (
    HeuristicTextScorer,
    TextScorer,
    days_since,
    human,
    rank_key,
    recency_score,
    score_repository,
)
from core.sources.base import RepoSource, SignalDepth, SourceInfo

log = logging.getLogger("omg.search.screener")

MAX_RESULTS = 10
JUDGE_ON_TOPIC = 6.0  # a (LLM) judge's relevance from which a result counts as on topic
LANGUAGE_SHARE = 0.6
SCARCE_CALLS_PER_HOUR = 1000  # below this, search candidates cost no calls beyond the search
SCARCE_NOTE = (
    "GitHub is used without a token ({limit} calls an hour), so these results are scored from the "
    "search results alone (stars, forks, age, last push, license, description); releases, commits, "
    "community files and READMEs are not fetched. Set GITHUB_TOKEN to score them on those too."
)


def scarce(info: SourceInfo) -> bool:
    """True when the source's hourly budget cannot afford per-candidate calls."""
    return info.calls_per_hour is not None and info.calls_per_hour < SCARCE_CALLS_PER_HOUR


@dataclass(slots=True)
class ScreenReport:
    items: list[ScoredRepository] = field(default_factory=list)
    scored: int = 0
    partial: bool = False
    notes: list[str] = field(default_factory=list)


def in_range(repo: Repository, params: SearchParams) -> bool:
    """The user's own filters, where the repository's data can tell (unknown dates pass)."""
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
) -> list[Repository]:
    """Candidates in the star range, best first (see the module docstring).

    ``star_range`` defaults to ``params`` (it differs when the Scout relaxed the stars);
    candidates in ``exact`` (lower-cased full names matching before any relaxation) come first.
    """
    pool = [r for r in candidates if in_range(r, star_range or params)]
    if not pool:
        return []
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
    ranked = sorted(pool, key=lambda r: (tier(verdicts[id(r)]), bool(first) and r.full_name.lower() not in first,
                                         -score(r), -r.stars))
    return diversify(ranked, len(ranked), language_free=params.language is None)


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


class Screener:
    def __init__(
        self,
        source: RepoSource,
        text_scorer: TextScorer | None = None,
        *,
        score_top: int = 12,
        concurrency: int = 6,
        fetch_readme: bool = True,
        depth: SignalDepth = "light",
    ) -> None:
        self.source = source
        self.text_scorer = text_scorer or HeuristicTextScorer()
        self.score_top = score_top
        self.concurrency = concurrency
        self.fetch_readme = fetch_readme
        self.depth: SignalDepth = depth

    async def screen(
        self,
        candidates: Sequence[Repository],
        params: SearchParams,
        *,
        now: datetime,
        deadline: float,
        star_range: SearchParams | None = None,
        exact: set[str] | None = None,
    ) -> ScreenReport:
        """Score the best candidates for ``params`` (see ``coarse_rank`` for the other arguments)."""
        report = ScreenReport()
        shortlist = coarse_rank(candidates, params, now, star_range=star_range, exact=exact)[: self.score_top]
        report.scored = len(shortlist)
        info = self.source.info
        fetch = not scarce(info)
        if not fetch:
            report.notes.append(SCARCE_NOTE.format(limit=info.calls_per_hour))
        semaphore = asyncio.Semaphore(self.concurrency)
        limit: list[str] = []  # the rate-limit reason, once one is hit
        tasks = [asyncio.create_task(self._score_one(repo, params, now, semaphore, limit, fetch)) for repo in shortlist]
        done, pending = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic())) if tasks else (set(), set())
        items: list[ScoredRepository] = []
        gaps: list[str] = []
        terms = compile_terms(params)
        tiers: dict[str, int] = {}
        for repo, task in zip(shortlist, tasks):
            if task in done:
                item, gap, tiers[repo.full_name] = task.result()
            else:
                task.cancel()
                item, gap = _scored(repo, None, None, params, now, None), "time budget"
                tiers[repo.full_name] = tier(relevance(repo, terms))
            items.append(item)
            if gap:
                gaps.append(gap)
        if pending or gaps:
            report.partial = True
            report.notes.append(_gap_note(gaps, len(items)))
        source_notes = {note for item in items if item.signals for note in item.signals.notes}
        report.notes.extend(sorted(source_notes)[:3])
        first = exact or set()
        items.sort(key=lambda i: (tiers[i.full_name], bool(first) and i.full_name.lower() not in first, *rank_key(i)))
        report.items = items[: min(MAX_RESULTS, max(1, params.limit))]
        return report

    async def _score_one(
        self, repo: Repository, params: SearchParams, now: datetime, semaphore: asyncio.Semaphore,
        limit: list[str], fetch: bool,
    ) -> tuple[ScoredRepository, str | None, int]:
        """Fetch what can be measured (unless ``fetch`` is off), then score; ``limit`` holds the
        rate-limit reason once hit. Returns the scored item, the gap (if any) and its tier."""
        signals: RepoSignals | None = None
        readme: str | None = None
        gap: str | None = None
        async with semaphore:
            if limit:
                gap = limit[0]  # rate limited: stop spending calls
            elif fetch:
                got_signals, got_readme = await asyncio.gather(
                    self.source.get_signals(repo.full_name, depth=self.depth),
                    self.source.get_readme(repo.full_name) if self.fetch_readme else _none(),
                    return_exceptions=True,
                )
                if isinstance(got_signals, BaseException):
                    gap = _failure(got_signals, repo.full_name)
                    if isinstance(got_signals, RateLimited) and not limit:
                        limit.append(gap)
                else:
                    signals = got_signals
                readme = got_readme if isinstance(got_readme, str) else None
        text = None
        try:
            text = await self.text_scorer.score_text(repo, signals, params, readme)
        except (LLMError, SourceError):
            text = None  # the heuristics in score_repository take over
        except Exception:
            log.exception("text scorer failed", extra={"repo": repo.full_name})
            text = None
        verdict = tier(relevance(repo, compile_terms(params), readme))
        if text is not None and text.relevance is not None and text.relevance.score >= JUDGE_ON_TOPIC:
            verdict = min(verdict, TIER_ALL_CORE if not isinstance(self.text_scorer, HeuristicTextScorer) else verdict)
        return _scored(repo, signals, readme, params, now, text), gap, verdict


def _failure(exc: BaseException, full_name: str) -> str:
    if isinstance(exc, OmgError):
        return exc.user_message
    if isinstance(exc, asyncio.CancelledError):
        raise exc
    log.error("signals failed", extra={"repo": full_name, "error": repr(exc)})
    return "unexpected error"  # a source bug must not sink the whole search


async def _none() -> None:
    return None


def _scored(repo: Repository, signals, readme, params: SearchParams, now: datetime, text) -> ScoredRepository:
    scores = score_repository(repo, signals, params, readme, now=now, text=text)
    item = ScoredRepository(**repo.model_dump(), scores=scores, signals=signals)
    item.why = why_line(item)
    return item


def why_line(item: ScoredRepository) -> str:
    """One line: what it matches, then its strongest measured facts."""
    s = item.scores
    parts: list[str] = []
    rel = s.reasons.get("relevance", "")
    if "relevance" not in s.unmeasured and rel.startswith("matches"):
        parts.append(rel.split(";")[0].replace("matches", "Matches", 1))
    parts.append(f"{human(item.stars)} stars")
    growth = item.star_growth_12m if item.star_growth_12m is not None else item.star_growth_6m
    if growth and growth > 0:
        parts.append(f"+{human(growth)} in {'12' if item.star_growth_12m is not None else '6'} months")
    measured = {d: v for d, v in s.by_dimension().items() if d != "relevance" and d not in s.unmeasured}
    if measured:
        best = max(measured, key=lambda d: measured[d])
        if measured[best] >= 7:
            parts.append(f"strong {best.replace('_', ' ')} ({measured[best]:.1f}/10)")
    return "; ".join(parts)


def _gap_note(gaps: list[str], total: int) -> str:
    reasons = sorted(set(gaps))
    return f"Some details could not be fetched for {len(gaps)} of {total} repositories ({'; '.join(reasons)[:160]}), so they were scored on what was measured."
