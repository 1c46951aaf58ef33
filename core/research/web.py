"""The web half of a SEARCH step (``WebSearch``, e.g. Gemini grounded on Google Search).

It runs next to the step's GitHub searches. Its pages are cited exactly as the search returned
them; any failure (timeout, rate limit, budget, breaker, a bug) leaves the step with its GitHub
results and a ``web_error`` reason that the report shows ("GitHub search only"). After one
failure the later steps of the same run skip the web instead of waiting for it again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.errors import (
    BudgetExceeded,
    CircuitOpen,
    LLMBadOutput,
    LLMRateLimited,
    LLMRejected,
    LLMTimeout,
    LLMUnavailable,
    OmgError,
    is_expected,
)
from core.models.research import PlanStep, SourceRef
from core.research.queries import parse_query

if TYPE_CHECKING:
    from core.research.steps import StepContext

log = logging.getLogger("omg.research.web")

WEB_RESULTS = 5
WEB_SHARE_OF_STEP = 0.8  # the web may use this share of the step timeout; GitHub results are kept
SKIPPED = "skipped after an earlier failure in this run"
_REASONS: list[tuple[type[OmgError], str]] = [
    (BudgetExceeded, "today's LLM budget is spent"),
    (CircuitOpen, "paused after repeated failures"),
    (LLMTimeout, "it timed out"),
    (LLMRateLimited, "the provider is rate limiting us"),
    (LLMUnavailable, "the provider is unavailable"),
    (LLMRejected, "the provider refused the request"),
    (LLMBadOutput, "the answer was unreadable"),
]


@dataclass
class WebOutcome:
    sources: list[SourceRef] = field(default_factory=list)
    error: str | None = None  # why the web contributed nothing (None: it worked or is off)


def web_query(step: PlanStep) -> str:
    """The step's first query as plain words (GitHub qualifiers such as ``stars:>500`` dropped)."""
    query = step.search_queries[0]
    return parse_query(query).text or query


def web_context(ctx: StepContext, step: PlanStep) -> str:
    return f"Research goal: {ctx.session.query}\nThis step: {step.description}"


def reason(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "it timed out"
    for kind, text in _REASONS:
        if isinstance(exc, kind):
            return text
    return exc.user_message if isinstance(exc, OmgError) else "it failed unexpectedly"


async def search_web(ctx: StepContext, step: PlanStep) -> WebOutcome:
    if ctx.web is None or not step.search_queries:
        return WebOutcome()
    if any(r.web_error for r in ctx.session.results):
        return WebOutcome(error=SKIPPED)
    timeout = ctx.settings.step_timeout_seconds * WEB_SHARE_OF_STEP
    try:
        results = await asyncio.wait_for(
            ctx.web.search(web_query(step), limit=WEB_RESULTS, context=web_context(ctx, step)), timeout
        )
    except asyncio.CancelledError:
        raise
    except Exception as exc:  # the edge of the optional web source: research goes on without it
        if not is_expected(exc):
            log.exception("web search crashed", extra={"session_id": ctx.session.id, "step": step.step_id})
        else:
            log.warning("web search failed; GitHub search only",
                        extra={"session_id": ctx.session.id, "step": step.step_id, "error": type(exc).__name__})
        return WebOutcome(error=reason(exc))
    sources = [
        SourceRef(kind="web", title=r.title or r.url, url=r.url, snippet=r.snippet)
        for r in results
        if r.url.startswith(("https://", "http://"))
    ]
    return WebOutcome(sources=sources)
