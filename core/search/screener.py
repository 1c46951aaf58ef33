"""The Screener: a coarse, diversity-keeping cut of the Scout's candidates, then full scoring.

The coarse cut is ``core.search.shortlist`` (filters, relevance by words and by meaning fused,
the fit floor, diversity: ``core.search.fit``). Then the best ``score_top`` candidates get their signals and README fetched concurrently (a
bounded semaphore: on live GitHub each costs API calls) and are scored (``core.search.scoring``);
the top ``limit`` (max 10) are returned in fit order, each with a one-line ``why``; only a named
language's results are listed, and the notes say when fewer than asked (or none) fit. Signals are asked at
``depth`` ("light" by default: a few cheap calls per candidate, see ``core.github.signals``).
When the source's hourly budget is scarce (``SourceInfo.calls_per_hour`` below
``SCARCE_CALLS_PER_HOUR``: anonymous GitHub allows 60) nothing is fetched per candidate: they
are scored from the search results' own fields, and the notes say so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from core.errors import LLMError, OmgError, RateLimited, SourceError
from core.models import Repository, RepoSignals, ScoredRepository, SearchParams
from core.search.concepts import query_concepts
from core.search.relevance import (
    TIER_ALL_CORE,
    TIER_QUALIFIERS_ONLY,
    RelevanceResult,
    compile_terms,
    misses_language,
    relevance,
)
from core.search.fit import ALL_CORE_BONUS, COVERED_WEIGHT, LEXICAL_WEIGHT, RRF_K, prepare_vectors, unnamed_names, unnamed_product
from core.search.synonyms import with_families
from core.search.scoring import HeuristicTextScorer, TextScorer, human, rank_key, score_repository
from core.search.shortlist import coarse_rank, diversify, in_range, tier, wants_small  # noqa: F401 - re-exported
from core.sources.base import RepoSource, SignalDepth, SourceInfo
from core.synth.phrases import share_of

log = logging.getLogger("omg.search.screener")

MAX_RESULTS = 10
SEARCH_CALL_BUDGET = 40  # GitHub calls one cold search may spend, its own searches included
LIGHT_CALLS = 3  # per scored candidate at the "light" depth: latest release, 90-day commits, README
NEAR_TIE = 0.01  # fused fits closer than this are a near-tie: the quality score orders them
WEAK_LABEL = "weak match for your request"
JUDGE_ON_TOPIC = 6.0  # a (LLM) judge's relevance from which a result counts as on topic
JUDGE_BONUS = LEXICAL_WEIGHT * RRF_K / (RRF_K + 1) + ALL_CORE_BONUS  # what the first lexical rank adds to a fused fit
JUDGE_OFF_TOPIC = 3.0  # under this a (LLM) judge that read the repository rules it out of the list
SCARCE_CALLS_PER_HOUR = 1000  # below this, search candidates cost no calls beyond the search
SCARCE_NOTE = (
    "GitHub is used without a token ({limit} calls an hour), so these results are scored from the "
    "search results alone (stars, forks, age, last push, license, description); releases, commits, "
    "community files and READMEs are not fetched. Set GITHUB_TOKEN to score them on those too."
)

# a candidate scored: the item, the gap (if any), its relevance, the (LLM) judge's relevance
Scoring = tuple[ScoredRepository, str | None, RelevanceResult | None, float | None]


def scarce(info: SourceInfo) -> bool:
    """True when the source's hourly budget cannot afford per-candidate calls."""
    return info.calls_per_hour is not None and info.calls_per_hour < SCARCE_CALLS_PER_HOUR


@dataclass(slots=True)
class ScreenReport:
    items: list[ScoredRepository] = field(default_factory=list)
    scored: int = 0
    partial: bool = False
    notes: list[str] = field(default_factory=list)
    # none of the items is a sure fit (``core.search.fit.SURE_MARGIN``) nor vouched for by a judge
    uncertain: bool = False


class Screener:
    def __init__(
        self,
        source: RepoSource,
        text_scorer: TextScorer | None = None,
        *,
        score_top: int = 12,
        concurrency: int = 12,  # all the scored candidates at once: one batched GraphQL query
        fetch_readme: bool = True,
        depth: SignalDepth = "light",
        call_budget: int | None = SEARCH_CALL_BUDGET,
    ) -> None:
        self.source = source
        self.text_scorer = text_scorer or HeuristicTextScorer()
        self.score_top = score_top
        self.concurrency = concurrency
        self.fetch_readme = fetch_readme
        self.depth: SignalDepth = depth
        self.call_budget = call_budget

    async def screen(
        self,
        candidates: Sequence[Repository],
        params: SearchParams,
        *,
        now: datetime,
        deadline: float,
        star_range: SearchParams | None = None,
        exact: set[str] | None = None,
        searches: int = 0,
        more: bool = False,
    ) -> ScreenReport:
        """Score the best candidates for ``params`` (see ``coarse_rank`` for the other arguments);
        ``searches`` were already spent on this turn: what is left of the call budget bounds how
        many candidates get their signals fetched. ``more``: the best matches were left out on
        purpose ("show me more"), so the remaining ones are not held to the match gate."""
        report = ScreenReport()
        info = self.source.info
        fetch = not scarce(info)
        top = self.score_top
        if fetch and self.call_budget is not None and self.depth == "light" and info.kind != "catalog":
            top = max(1, min(top, (self.call_budget - searches) // LIGHT_CALLS))
        # the candidates' texts are embedded in a worker thread, off the event loop; ranking finds them
        await prepare_vectors([r for r in candidates if in_range(r, star_range or params)], params)
        ranked, fitted = coarse_rank(candidates, params, now, star_range=star_range, exact=exact, gate=not more,
                                     known=self.source.knows_word, users=self.source.word_users)
        # scoring costs calls except offline: there, a few in other languages are scored beside
        # the named language's best, for the "In other languages" line
        shortlist = named_language_first(ranked, params, top, extra=OTHER_LANGUAGES_SCORED if info.kind == "catalog" else 0)
        report.scored = len(shortlist)
        if not fetch:
            report.notes.append(SCARCE_NOTE.format(limit=info.calls_per_hour))
        closeness = {repo.full_name: fitted[repo.full_name].closeness for repo in shortlist}
        if self._waits_on_nothing():
            outcomes = await self._score_in_turn(shortlist, params, now, deadline, fetch, closeness)
        else:
            outcomes = await self._score_concurrently(shortlist, params, now, deadline, fetch, closeness)
        items: list[ScoredRepository] = []
        gaps: list[str] = []
        terms = compile_terms(params)
        verdicts: dict[str, RelevanceResult | None] = {}
        judged_off_topic: set[str] = set()
        vouched: dict[str, float] = {}  # full name -> the judge's relevance, 0-10
        for repo, outcome in zip(shortlist, outcomes):
            if outcome is not None:
                item, gap, verdicts[repo.full_name], judged = outcome
                if judged is not None and judged < JUDGE_OFF_TOPIC:
                    judged_off_topic.add(repo.full_name)
                elif judged is not None and judged >= JUDGE_ON_TOPIC:
                    vouched[repo.full_name] = judged
            else:
                item, gap = _scored(repo, None, None, params, now, None, fitted[repo.full_name].closeness), "time budget"
                verdicts[repo.full_name] = relevance(repo, terms)
            items.append(item)
            if gap:
                gaps.append(gap)
        if None in outcomes or gaps:
            report.partial = True
            report.notes.append(_gap_note(gaps, len(items)))
        source_notes = {note for item in items if item.signals for note in item.signals.notes}
        report.notes.extend(sorted(source_notes)[:3])
        tiers = {name: tier(verdict) for name, verdict in verdicts.items()}
        items = [i for i in items if i.full_name not in judged_off_topic]  # the judge's floor
        # relevance decides; among near-ties, repositories with measured figures before those known
        # only from curated lists, then the quality score
        # a judge that read the repository and vouches for it counts as a top match by words, its
        # texts as using every word asked for, and its relevance stands in for the cosine when higher
        def fit(item: ScoredRepository) -> float:
            got = fitted[item.full_name]
            if item.full_name not in vouched:
                return got.fused
            return (got.fused + JUDGE_BONUS + COVERED_WEIGHT * (1.0 - got.covered)
                    + max(0.0, vouched[item.full_name] / 10 - got.closeness))

        items.sort(key=lambda i: (-round(fit(i) / NEAR_TIE), not i.figures_known, *rank_key(i)))
        items, elsewhere = in_named_language(items, tiers, params)
        for item in items:
            if fitted[item.full_name].weak:
                item.why = f"{WEAK_LABEL}; {item.why}" if item.why else WEAK_LABEL
        report.items = items[: min(MAX_RESULTS, max(1, params.limit))]
        report.uncertain = bool(report.items) and not any(
            fitted[item.full_name].sure or item.full_name in vouched for item in report.items)
        if not report.items and not more:
            report.notes.extend(_why_nothing_fits_note(candidates, params))
        report.notes.extend(_fit_notes(report.items, verdicts, params))
        report.notes.extend(count_notes(report.items, elsewhere, params, info))
        return report

    def _waits_on_nothing(self) -> bool:
        """Offline with the heuristic scorer, scoring a candidate waits on no call: the candidates
        are scored one after the other, without the tasks (~40 a turn, ~0.5 ms) that let calls overlap."""
        return self.source.info.kind == "catalog" and type(self.text_scorer) is HeuristicTextScorer

    async def _score_concurrently(
        self, shortlist: list[Repository], params: SearchParams, now: datetime, deadline: float, fetch: bool,
        closeness: dict[str, float],
    ) -> list[Scoring | None]:
        """Each candidate's ``_score_one``, all at once (at most ``concurrency``); None for one
        not scored by ``deadline``."""
        semaphore = asyncio.Semaphore(self.concurrency)
        limit: list[str] = []  # the rate-limit reason, once one is hit
        tasks = [asyncio.create_task(self._score_one(repo, params, now, limit, fetch, closeness[repo.full_name], semaphore))
                 for repo in shortlist]
        done, _ = await asyncio.wait(tasks, timeout=max(0.0, deadline - time.monotonic())) if tasks else (set(), set())
        for task in tasks:
            if task not in done:
                task.cancel()
        return [task.result() if task in done else None for task in tasks]

    async def _score_in_turn(
        self, shortlist: list[Repository], params: SearchParams, now: datetime, deadline: float, fetch: bool,
        closeness: dict[str, float],
    ) -> list[Scoring | None]:
        """Each candidate's ``_score_one``, one after the other; None for those left at ``deadline``."""
        limit: list[str] = []
        outcomes: list[Scoring | None] = []
        for repo in shortlist:
            in_time = time.monotonic() < deadline
            outcomes.append(await self._score_one(repo, params, now, limit, fetch, closeness[repo.full_name]) if in_time else None)
        return outcomes

    async def _score_one(
        self, repo: Repository, params: SearchParams, now: datetime, limit: list[str], fetch: bool, closeness: float,
        semaphore: asyncio.Semaphore | None = None,
    ) -> Scoring:
        """Fetch what can be measured (unless ``fetch`` is off), then score (``closeness``: in
        meaning to the need, ``core.search.fit``); ``limit`` holds the rate-limit reason once hit. Returns the scored item, the gap (if any), its relevance and
        the (LLM) judge's relevance score when a judge read it. With a ``semaphore`` the signals
        and the README are fetched together, under it; without one, one after the other."""
        signals: RepoSignals | None = None
        readme: str | None = None
        gap: str | None = None
        async with semaphore or contextlib.nullcontext():
            if limit:
                gap = limit[0]  # rate limited: stop spending calls
            elif fetch:
                got_signals, got_readme = await (self._fetch_together(repo) if semaphore else self._fetch_in_turn(repo))
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
        except Exception:  # the edge of a pluggable scorer: a bug means heuristic scores
            log.exception("text scorer failed", extra={"repo": repo.full_name})
            text = None
        verdict = relevance(repo, compile_terms(params), readme)
        judged = text.relevance if text is not None and not isinstance(self.text_scorer, HeuristicTextScorer) else None
        if verdict is not None and judged is not None and judged.score >= JUDGE_ON_TOPIC:
            verdict = replace(verdict, tier=TIER_ALL_CORE)  # a judge that read the README vouches for it
        by_meaning = closeness if judged is None else None  # an LLM judge that read it has the say
        return _scored(repo, signals, readme, params, now, text, by_meaning), gap, verdict, judged.score if judged else None

    async def _fetch_together(self, repo: Repository) -> tuple[RepoSignals | BaseException, str | None | BaseException]:
        """The signals and the README at once (each an exception where it failed)."""
        got_signals, got_readme = await asyncio.gather(
            self.source.get_signals(repo.full_name, depth=self.depth),
            self.source.get_readme(repo.full_name) if self.fetch_readme else _none(),
            return_exceptions=True,
        )
        return got_signals, got_readme

    async def _fetch_in_turn(self, repo: Repository) -> tuple[RepoSignals | BaseException, str | None | BaseException]:
        """``_fetch_together`` one after the other."""
        try:
            got_signals: RepoSignals | BaseException = await self.source.get_signals(repo.full_name, depth=self.depth)
        except Exception as exc:
            got_signals = exc
        try:
            got_readme: str | None | BaseException = await self.source.get_readme(repo.full_name) if self.fetch_readme else None
        except Exception as exc:
            got_readme = exc
        return got_signals, got_readme


OTHER_LANGUAGES_SCORED = 4  # candidates in other languages scored beside a named language's


def _family(params: SearchParams) -> set[str]:
    """The named languages and their families, lower-cased ("javascript", "typescript", "coffeescript")."""
    return {language.lower() for language in with_families(params.languages)}


def named_language_first(ranked: list[Repository], params: SearchParams, top: int, *, extra: int = 0) -> list[Repository]:
    """The ``top`` best candidates in the language the user named (or, with no language of their
    own, whose text says they are in it or for it: a list's "client library for the JVM, written
    in Groovy"), then the best in others up to ``top`` in all, or ``extra`` of them beside the
    ``top`` (those made for the language stay in the results; the rest are named in a separate
    line), in rank order: a named language must not lose its places to candidates it filters out."""
    if not params.language:
        return ranked[:top]
    family = _family(params)
    terms = compile_terms(params)

    def in_it(repo: Repository) -> bool:
        if repo.language:
            return repo.language.lower() in family
        return not misses_language(tier(relevance(repo, terms)))

    named = [r for r in ranked if in_it(r)][:top]
    others = [r for r in ranked if not in_it(r)][:max(extra, top - len(named))]
    keep = {id(r) for r in [*named, *others]}
    return [r for r in ranked if id(r) in keep]


def in_named_language(
    items: list[ScoredRepository], tiers: dict[str, int], params: SearchParams
) -> tuple[list[ScoredRepository], list[ScoredRepository]]:
    """The results in the language the user named (or made for it: "python linter" written in
    Rust), and the others, which are only mentioned in a separate line."""
    if not params.language:
        return items, []
    family = _family(params)

    def fits_language(item: ScoredRepository) -> bool:
        level = tiers[item.full_name]
        return (item.language or "").lower() in family or (level < TIER_QUALIFIERS_ONLY and not misses_language(level))

    return [i for i in items if fits_language(i)], [i for i in items if not fits_language(i)]


def count_notes(
    items: Sequence[ScoredRepository], elsewhere: Sequence[ScoredRepository], params: SearchParams, info: SourceInfo
) -> list[str]:
    """Say plainly when nothing (or fewer than asked) fits, and where the rest is."""
    where = "the offline catalog" if info.kind == "catalog" else "GitHub"
    notes: list[str] = []
    wanted = min(MAX_RESULTS, max(1, params.limit))
    if not items:
        notes.append(
            "I would rather show nothing than unrelated repositories. Try other words (what the software "
            "should do, not its name), or ask for the closest matches anyway."
        )
    elif len(items) < wanted:
        notes.append(f"Only {len(items)} {'repository fits' if len(items) == 1 else 'repositories fit'} this request in {where}; the other candidates did not match it.")
    other = [i for i in elsewhere if i.language]
    if other:
        names = ", ".join(f"{i.full_name} ({i.language})" for i in other[:5])
        notes.append(f"In other languages than {params.languages_said}: {names}.")
    # a curated list's entry often has no language offline: it may well be in the one asked for
    unknown = [i.full_name for i in elsewhere if not i.language]
    if unknown:
        said = "the offline catalog does not know" if info.kind == "catalog" else "GitHub does not give"
        notes.append(f"Close too, in a language {said} (it may be {params.languages_said}): {', '.join(unknown[:5])}.")
    return notes


def _why_nothing_fits_note(candidates: Sequence[Repository], params: SearchParams) -> list[str]:
    """Why nothing fits: no candidate (in the named language) names the product a client is asked
    for, or the rare names the request writes."""
    if params.language:
        family = _family(params)
        candidates = [r for r in candidates if (r.language or "").lower() in family]
    language = f" in {params.languages_said}" if params.language else ""
    if (product := unnamed_product(params, candidates)) is not None:
        return [f"None of the repositories found{language} names {product}, as a client or library for it would."]
    if names := unnamed_names(params, candidates):
        return [f"None of the repositories found{language} mentions {' or '.join(names)}."]
    return []


def _fit_notes(
    items: Sequence[ScoredRepository], verdicts: dict[str, RelevanceResult | None], params: SearchParams
) -> list[str]:
    """Say so when the results are mostly not what the user's qualifier or language asked for."""
    if not items:
        return []
    notes: list[str] = []
    found = [verdicts.get(i.full_name) for i in items]
    qualifiers = dict.fromkeys(q for v in found if v is not None for q in v.missed_qualifiers)
    core = " ".join(c.label for c in query_concepts(params) if c.role != "qualifier")
    for qualifier in qualifiers:
        matching = sum(1 for v in found if v is not None and qualifier not in v.missed_qualifiers)
        if matching * 2 < len(items):
            notes.append(
                f"{share_of(matching, len(items), 'results', f'mention {qualifier}')}: I found few {qualifier}-specific matches, so the others "
                f"are {core or 'matches'} in general, not made for {qualifier}."
            )
    return notes


def _the_others(others: int, total: int) -> str:
    if others == total:
        return "they are all"
    if others == 1:
        return "the other one (listed last, its language shown) is"
    return f"the other {others} (listed after them, their language shown) are"


def _failure(exc: BaseException, full_name: str) -> str:
    if isinstance(exc, OmgError):
        return exc.user_message
    if isinstance(exc, asyncio.CancelledError):
        raise exc
    log.error("signals failed", extra={"repo": full_name, "error": repr(exc)})
    return "unexpected error"  # a source bug must not sink the whole search


async def _none() -> None:
    return None


def _scored(repo: Repository, signals, readme, params: SearchParams, now: datetime, text,
            closeness: float | None = None) -> ScoredRepository:
    scores = score_repository(repo, signals, params, readme, now=now, text=text, closeness=closeness)
    item = ScoredRepository(**repo.model_dump(), scores=scores, signals=signals)
    item.why = why_line(item)
    return item


def why_line(item: ScoredRepository) -> str:
    """One line: what it matches, then its strongest measured facts."""
    s = item.scores
    parts: list[str] = []
    rel = s.reasons.get("relevance", "")
    if "relevance" not in s.unmeasured and rel.startswith(("matches", "close in meaning", "related in meaning")):
        first = rel.split(";")[0]
        parts.append(first[0].upper() + first[1:])
    parts.append(f"{human(item.stars)} stars" if item.figures_known else "no star figures offline")
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
