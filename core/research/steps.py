"""SEARCH and BROWSE steps: they fetch, and record exactly what they fetched."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote_plus

from core.errors import OmgError
from core.llm.client import LLMClient
from core.models import Repository, RepoSignals
from core.research.evidence import browse_targets
from core.research.web_search import WebSearch
from core.models.research import PlanStep, ResearchMode, ResearchSession, SourceRef, StepResult
from core.research.queries import excludes_archived, parse_query
from core.research.settings import ResearchSettings
from core.search.fit import prepare_vectors
from core.search.shortlist import coarse_rank
from core.research.web import SKIPPED, search_web
from core.sources.base import RepoSource

README_EXCERPT_CHARS = 600


@dataclass
class StepContext:
    session: ResearchSession  # a snapshot with every finished step's results
    source: RepoSource
    settings: ResearchSettings
    web: WebSearch | None = None
    llm: LLMClient | None = None


def _offline_label(ctx: StepContext) -> str:
    """"Offline catalog of <date>: " when the offline snapshot answers (no page to link), else ""."""
    info = ctx.source.info
    if info.kind != "catalog":
        return ""
    return f"Offline catalog{f' of {info.snapshot_date.isoformat()}' if info.snapshot_date else ''}: "


def measured(signals: RepoSignals) -> bool:
    """True when at least one signal was actually measured (notes alone are not data)."""
    return any(value is not None for name, value in signals if name != "notes")


def _search_source(ctx: StepContext, query: str) -> SourceRef:
    offline = _offline_label(ctx)
    if offline:
        return SourceRef(kind="search", title=f"{offline}search “{query}”")
    return SourceRef(
        kind="search",
        title=f"GitHub search: {query}",
        url=f"https://github.com/search?q={quote_plus(query)}&type=repositories",
    )


async def run_search(step: PlanStep, ctx: StepContext, started: datetime) -> StepResult:
    limit = ctx.settings.results_per_query

    async def one(query: str) -> list[Repository]:
        params = parse_query(query)
        sort = params.sort if params.sort != "best" else (
            "updated" if params.pushed_after or step.purpose == "recent" else "best"
        )
        wide = max(limit * 5, 30)  # a wider pool, then the search's relevance gate: no padding
        params.limit = wide
        found = await ctx.source.search(params, sort=sort, limit=wide)
        if excludes_archived(query):
            found = [r for r in found if not r.archived]
        await prepare_vectors(found, params)  # new texts are encoded off the event loop
        fitting, fit = coarse_rank(found, params, started)
        strong = [r for r in fitting if r.full_name in fit and not fit[r.full_name].weak]  # a report cites no weak match
        if not any(fit[r.full_name].sure for r in strong):
            strong = []  # nor a list of which none is a sure fit (a search's reply hedges such a list)
        return (strong if sort == "best" else [r for r in found if r in strong])[:limit]

    web_task = asyncio.create_task(search_web(ctx, step))  # alongside the GitHub searches
    repos: dict[str, Repository] = {}
    hits: dict[str, int] = {}
    sources: list[SourceRef] = []
    errors: list[BaseException] = []
    try:
        outcomes = await asyncio.gather(*(one(q) for q in step.search_queries), return_exceptions=True)
        for query, outcome in zip(step.search_queries, outcomes, strict=True):
            if isinstance(outcome, BaseException):
                if not isinstance(outcome, OmgError):
                    raise outcome
                errors.append(outcome)
                continue
            sources.append(_search_source(ctx, query))
            for repo in outcome:
                repos.setdefault(repo.full_name, repo)
                hits[repo.full_name] = hits.get(repo.full_name, 0) + 1
        web = await web_task
    finally:
        web_task.cancel()  # a no-op once it finished
    if errors and not sources and not web.sources:
        raise errors[0]
    searches = len(sources)
    sources += web.sources
    summary = (
        f"{len(repos)} repositories from {searches} searches"
        if repos else "no repositories matched these searches"
    )
    if errors:
        summary += f" ({len(errors)} search(es) failed: {errors[0].__class__.__name__})"
    if web.sources:
        summary += f"; {len(web.sources)} web page(s)"
    elif web.error:
        summary += f"; web search {'skipped' if web.error == SKIPPED else 'unavailable'}: GitHub search only"
    return StepResult(
        step_id=step.step_id, status="done", summary=summary, started_at=started,
        sources=sources, repos=list(repos.values()), hits=hits, web_error=web.error,
    )


def readme_excerpt(text: str, limit: int = README_EXCERPT_CHARS) -> str:
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"<[^>]+>|!\[[^\]]*\]\([^)]*\)|\[!\[.*?\]\(.*?\)\]\(.*?\)", " ", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", text)
    lines = [ln.strip(" #*>-=|") for ln in text.splitlines()]
    prose = " ".join(ln for ln in lines if len(ln) > 30)
    prose = " ".join(prose.split())
    return prose if len(prose) <= limit else prose[: limit - 1].rsplit(" ", 1)[0] + "…"


async def run_browse(step: PlanStep, ctx: StepContext, started: datetime) -> StepResult:
    quick = ctx.session.mode is ResearchMode.QUICK_SCAN
    targets = browse_targets(ctx.session, 3 if quick else ctx.settings.browse_top)
    if not targets:
        return StepResult(step_id=step.step_id, status="done", started_at=started,
                          summary="nothing to read: the searches found no repositories")
    known = {r.full_name for res in ctx.session.results for r in res.repos}

    async def one(name: str) -> tuple[str, Repository | None, RepoSignals | None, str | None, list[str]]:
        problems: list[str] = []
        repo = signals = readme = None
        if name not in known:
            try:
                repo = await ctx.source.get_repo(name)
            except OmgError as exc:
                return name, None, None, None, [exc.user_message]
        try:
            readme = await ctx.source.get_readme(name)
        except OmgError as exc:
            problems.append(f"README: {exc.user_message}")
        try:
            signals = await ctx.source.get_signals(name)
        except OmgError as exc:
            problems.append(f"signals: {exc.user_message}")
        return name, repo, signals, readme, problems

    result = StepResult(step_id=step.step_id, status="done", started_at=started, summary="")
    problems: list[str] = []
    offline = _offline_label(ctx)
    for name, repo, signals, readme, trouble in await asyncio.gather(*(one(n) for n in targets)):
        url = "" if offline else (repo.html_url if repo else f"https://github.com/{name}")
        if repo is not None:
            result.repos.append(repo)
            result.sources.append(SourceRef(kind="repo", title=f"{offline}{name}", url=url))
        if readme:
            result.readmes[name] = readme_excerpt(readme)
            result.sources.append(SourceRef(kind="readme", title=f"{offline}README of {name}",
                                            url=f"{url}#readme" if url else ""))
        if signals is not None and measured(signals):
            result.signals[name] = signals
            result.sources.append(SourceRef(kind="signals", title=f"{offline}Releases, issues and activity of {name}",
                                            url=f"{url}/releases" if url else ""))
        problems += [f"{name}: {p}" for p in trouble]
    read = len(result.readmes)
    if read or result.signals:
        result.summary = f"read {read} README(s) and the activity of {len(result.signals)} repositories"
    else:
        result.summary = f"nothing to read: no README or activity data for {len(targets)} repositories"
    if problems:
        result.summary += f"; {len(problems)} fetch(es) failed"
        result.error = "; ".join(problems)[:500]
    return result
