"""The Search Team (``search``): translator -> scout -> screener -> a scored ``repo_list``.

    team = SearchTeam(source)                                  # rules + heuristics, offline-ready
    team = SearchTeam(source, translator=llm_translator,       # the LLM seams; failures fall back
                      text_scorer=llm_judge)

Follow-ups ("what about Python?") refine the parameters stored in the previous ``repo_list``'s
``meta.search_params``. The whole turn respects ``budget_seconds``: whatever is ready when it runs
out is returned, flagged ``partial``. Source errors become ``core.errors`` exceptions only when
there is nothing at all to show.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime

from core.agents.base import AgentContext, AgentResult
from core.analysis import reference_time
from core.errors import LLMError, OmgError
from core.models import (
    LogEvent,
    RepoList,
    Repository,
    ResultMeta,
    SearchParams,
    structured_repo_names,
    utcnow,
)
from core.search.requests import (
    alternatives_target,
    is_bare_alternatives_request,
    is_more_request,
    params_like,
)
from core.search.scout import Scout
from core.search.screener import OTHER_LANGUAGES_SCORED, Screener, scarce
from core.search.scoring import TextScorer
from core.search.translator import QueryTranslator, RuleBasedTranslator
from core.sources.base import NamedSearch, RepoSource, SourceInfo

log = logging.getLogger("omg.agents.search")

DEFAULT_BUDGET_SECONDS = 15.0
RESERVE_SECONDS = 0.3  # at least this (or 5 % of the budget) is kept back to assemble the answer
SCOUT_SHARE = 0.6  # the Scout may use at most this share of the budget; scoring gets the rest
SCARCE_MAX_SEARCHES = 5  # searches per turn without a token (GitHub allows 10 a minute then)
TRANSLATE_SHARE = 0.25  # a (LLM) translator slower than this share of the budget yields to the rules


class SearchTeam:
    name = "search"

    def __init__(
        self,
        source: RepoSource,
        translator: QueryTranslator | None = None,
        *,
        text_scorer: TextScorer | None = None,
        budget_seconds: float = DEFAULT_BUDGET_SECONDS,
        clock: Callable[[], datetime] = utcnow,
        score_top: int = 12,
        concurrency: int | None = None,
    ) -> None:
        self.source = source
        self.clock = clock
        self.rules = RuleBasedTranslator(today=lambda: reference_time(source.info, self.clock()).date())
        self.translator: QueryTranslator = translator or self.rules
        self.budget_seconds = budget_seconds
        self.scout = Scout(source)
        # all the scored candidates at once (with a named language, up to OTHER_LANGUAGES_SCORED
        # more): their signals are asked within one batching window, one GraphQL query
        if concurrency is None:
            concurrency = score_top + OTHER_LANGUAGES_SCORED
        self.screener = Screener(source, text_scorer, score_top=score_top, concurrency=concurrency)

    async def run(self, ctx: AgentContext) -> AgentResult:
        started = time.monotonic()
        reserve = max(RESERVE_SECONDS, 0.05 * self.budget_seconds)
        deadline = started + max(0.1, self.budget_seconds - reserve)
        previous = previous_params(ctx.previous)
        plan = await self.plan(ctx, previous)
        params = plan.params
        refined = previous is not None and params.text != ctx.message.strip()
        where = _where(self.source.info)  # what we expect to search; the meta says what answered
        await ctx.progress(LogEvent(content=f"Searching {where} for {params.describe()}..."))

        scout_deadline = started + (deadline - started) * SCOUT_SHARE
        searches = SCARCE_MAX_SEARCHES if scarce(self.source.info) else None
        report = await self.scout.gather(params, deadline=scout_deadline, exclude=plan.exclude, max_searches=searches)
        await ctx.progress(LogEvent(content=f"Scoring {len(report.candidates)} candidates..."))
        screen = await self.screener.screen(
            report.candidates,
            params,
            now=reference_time(self.source.info, self.clock()),  # read after the Scout: it may have fallen back
            deadline=deadline,
            star_range=report.params,
            exact=report.exact if report.relaxed else None,
            searches=report.searches,
            more=plan.ungated or bool(plan.exclude),
        )
        info = self.source.info  # after the calls, as the Auditor and Comparator do
        partial = report.partial or screen.partial
        meta = ResultMeta(
            source=info.kind,
            snapshot_date=info.snapshot_date,
            partial=partial,
            notes=_dedupe(plan.notes + report.notes + _source_caveats(params, info) + screen.notes),
            query=params.describe() if refined else ctx.message,
            search_params=params,
            total_candidates=len(report.candidates),
            closest_anyway=plan.ungated and not plan.exclude,
            uncertain=screen.uncertain,
        )
        log.info(
            "search done",
            extra={
                "query": ctx.message[:200],
                "params": params.describe(),
                "candidates": len(report.candidates),
                "scored": screen.scored,
                "searches": report.searches,
                "incomplete": report.incomplete,
                "source": info.kind,
                "relaxed": report.relaxed,
                "errors": report.errors,
                "partial": partial,
                "ms": round((time.monotonic() - started) * 1000, 1),
            },
        )
        return AgentResult(data=RepoList(items=screen.items, meta=meta), partial=partial)

    async def plan(self, ctx: AgentContext, previous: SearchParams | None) -> SearchPlan:
        """What to search for: the classifier's parameters, "more" of the previous search,
        alternatives to a named repository, or the translated message."""
        if ctx.classification.search_params is not None:
            return SearchPlan(ctx.classification.search_params)
        shown = structured_repo_names(ctx.previous)
        if previous is not None and is_more_request(ctx.message):
            return _more(previous, shown)
        target = alternatives_target(ctx.message, ctx.classification.repos)
        if target is not None and "/" in target and target.lower() not in {r.lower() for r in ctx.classification.repos}:
            target = None  # "instead of try/catch spaghetti": words the classifier read as no repository
        if target is None and is_bare_alternatives_request(ctx.message):
            if len(shown) > 1 and previous is not None and not ctx.classification.repos:
                return _more(previous, shown)  # "alternatives" to a whole list: more of it
            target = next(iter(ctx.classification.repos or shown), None)
        if target is not None:
            repo = await self._named(target)
            if repo is None:
                return SearchPlan(await self.translate(ctx.message, previous))
            params = params_like(repo, self.rules, ctx.message)
            note = f"Alternatives to {repo.full_name}: repositories about {params.describe()}."
            return SearchPlan(params, {repo.full_name.lower()}, [note])
        return SearchPlan(await self.translate(ctx.message, previous))

    async def _named(self, target: str) -> Repository | None:
        """``owner/name`` (RepoNotFound -> "I couldn't find owner/name"), or the most-starred
        repository called ``target`` in a search; None when there is none."""
        if "/" in target:
            return await self.source.get_repo(target)
        if isinstance(self.source, NamedSearch):  # the offline catalog: mostly without embedding the name
            return await self.source.find_named(target, limit=10)
        try:
            found = await self.source.search(SearchParams(text=target, keywords=[target]), sort="stars", limit=10)
        except OmgError:
            return None
        return next((r for r in found if r.name.lower() == target.lower()), None)

    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        """The configured translator; the rules answer when it fails."""
        if self.translator is self.rules:
            return self.rules.translate_sync(text, previous)
        try:
            limit = max(0.5, TRANSLATE_SHARE * self.budget_seconds)
            return await asyncio.wait_for(self.translator.translate(text, previous), limit)
        except TimeoutError:
            log.warning("translator too slow, using rules")
        except LLMError as exc:
            log.warning("translator failed, using rules", extra={"error": repr(exc)})
        except Exception:  # the edge of the LLM translator: a bug falls back to the rules
            log.exception("translator crashed, using rules")
        return self.rules.translate_sync(text, previous)


@dataclass(slots=True)
class SearchPlan:
    params: SearchParams
    exclude: set[str] = field(default_factory=set)  # lower-case full names to leave out
    notes: list[str] = field(default_factory=list)
    ungated: bool = False  # "more" of a search: what is left is not held to the match gate


def _more(previous: SearchParams, shown: list[str]) -> SearchPlan:
    """More of the previous search, or after a search where nothing fitted its closest matches."""
    notes = [f"More results for {previous.describe()}, skipping the {len(shown)} already shown."] if shown else []
    return SearchPlan(previous, {n.lower() for n in shown}, notes, ungated=True)


def previous_params(previous: object) -> SearchParams | None:
    if isinstance(previous, RepoList) and previous.meta is not None:
        return previous.meta.search_params
    return None


def _where(info: SourceInfo) -> str:
    if info.kind == "catalog":
        when = f" of {info.snapshot_date.isoformat()}" if info.snapshot_date else ""
        return f"the offline snapshot{when}"
    return "GitHub"


def _source_caveats(params: SearchParams, info: SourceInfo) -> list[str]:
    if params.created_after is not None and info.kind == "catalog":
        return [
            "The offline snapshot has no creation dates, so I couldn't keep only new projects; "
            "fast-growing ones are favoured instead."
        ]
    return []


def _dedupe(notes: list[str]) -> list[str]:
    return list(dict.fromkeys(n for n in notes if n))
