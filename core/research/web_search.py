"""The research executor's web search: the ``WebSearch`` seam, and Gemini grounded with
Google Search (``core.llm.grounding``), behind an ``LLMClient`` like every other LLM use.

    build_web_search(services, mode=..., timeout=...) -> GroundedWebSearch | None

It is built only when ``OMG_RESEARCH_WEB_SEARCH`` is ``auto`` (the default), ``GEMINI_API_KEY``
is set, ``LLM_TASKS`` includes ``research`` and some provider serves research (so
``LLM_PROVIDER=none`` switches it off too). It has its own circuit breaker, so a key without
search grounding does not cut the analyzer and planner off Gemini, and shares the app's price
table, daily budget and metrics. Failures raise ``LLMError``; the executor then carries on with
the GitHub search alone and says so in the report.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Protocol

from core.llm import LLMServices
from core.llm.breaker import CircuitBreaker
from core.llm.client import LLMClient
from core.llm.contract import GroundedAnswer, GroundedSource, Model, StructuredRequest, system, user
from core.llm.retry import RetryPolicy, Sleep
from core.llm.settings import NONE
from core.logs import Redactor, secret_values
from core.models import WireModel

log = logging.getLogger("omg.llm.web_search")

TASK = "research_web_search"
MODES = ("auto", "off")
SNIPPET_CHARS = 300
GROUNDING_TEMPERATURE = 1.0  # Google's advice for Grounding with Google Search
PROMPT = (
    "You research software and open-source projects for an engineering team. Use Google Search "
    "to answer the search request with current facts from the web: versions, release dates, "
    "benchmarks, adoption, known problems and opposing opinions where they exist. Answer in at "
    "most 6 short, factual sentences. Do not speculate and do not add links yourself."
)


class WebResult(WireModel):
    title: str
    url: str
    snippet: str = ""


class WebSearch(Protocol):
    async def search(self, query: str, *, limit: int = 5, context: str = "") -> list[WebResult]:
        """Pages for ``query`` (``context``: the research goal and step, for a better search);
        raise an OmgError (LLMError) on failure."""
        ...


class GroundedWebSearch:
    """``search(query, limit=, context=)`` -> the grounded pages, cited pages first."""

    def __init__(self, client: LLMClient, *, timeout: float = 20.0,
                 max_output_tokens: int = 2048) -> None:
        self.client = client
        self.timeout = timeout
        self.max_output_tokens = max_output_tokens
        self.name = f"{client.provider}:{client.model_name}+google_search"

    async def search(self, query: str, *, limit: int = 5, context: str = "") -> list[WebResult]:
        ask = f"Search request: {query}"
        if context:
            ask = f"{context}\n\n{ask}"
        request = StructuredRequest(
            task=TASK, messages=[system(PROMPT), user(ask)], schema=GroundedAnswer,
            timeout=self.timeout, max_output_tokens=self.max_output_tokens,
            temperature=GROUNDING_TEMPERATURE,
        )
        answer = (await self.client.run(request)).output
        log.info("grounded web search", extra={"query": query[:200], "google_queries": answer.queries[:5],
                                               "sources": len(answer.sources)})
        cited = sorted(answer.sources, key=lambda s: not s.claims)  # stable: grounding order kept
        return [_result(source) for source in cited[:max(0, limit)]]

    async def aclose(self) -> None:
        await self.client.aclose()


def _result(source: GroundedSource) -> WebResult:
    snippet = " ".join(source.claims)
    if len(snippet) > SNIPPET_CHARS:
        snippet = snippet[: SNIPPET_CHARS - 1].rsplit(" ", 1)[0] + "…"
    return WebResult(title=source.title, url=source.url, snippet=snippet)


def web_search_enabled(services: LLMServices, mode: str) -> bool:
    settings = services.settings
    return (
        mode == "auto"
        and settings.providers["gemini"].configured
        and settings.task_enabled("research")
        and settings.research_provider != NONE
    )


def build_web_search(
    services: LLMServices,
    *,
    mode: str = "auto",
    timeout: float = 20.0,
    env: Mapping[str, str] | None = None,
    model: Model | None = None,
    sleep: Sleep = asyncio.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> GroundedWebSearch | None:
    """The grounded web search, or None when it is off or not configured (see the module doc).

    ``model`` replaces the Gemini adapter (tests inject a ``FunctionModel``); ``env`` supplies the
    secrets the log redactor hides.
    """
    if not web_search_enabled(services, mode):
        return None
    settings = services.settings
    gemini = settings.providers["gemini"]
    if model is None:
        from core.llm.grounding import GroundedGeminiModel  # the vendor SDK, only when configured

        model = GroundedGeminiModel(api_key=gemini.api_key, model=gemini.model, base_url=gemini.base_url)
    client = LLMClient(
        model,
        prices=services.prices,
        budget=services.budget,
        metrics=services.metrics,
        breaker=CircuitBreaker(name="gemini-search", failure_threshold=settings.breaker_failures,
                               cooldown_seconds=settings.breaker_cooldown, clock=clock),
        retry=RetryPolicy(attempts=settings.retry_attempts, base_delay=settings.retry_base_delay,
                          max_delay=settings.retry_max_delay),
        sleep=sleep,
        clock=clock,
        redact=Redactor(secret_values(env or {})),
    )
    log.info("research web search: Gemini grounded on Google Search",
             extra={"model": gemini.model, "timeout_s": timeout})
    return GroundedWebSearch(client, timeout=timeout)
