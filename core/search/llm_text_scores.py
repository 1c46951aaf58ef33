"""Documentation, ease-of-use and relevance scores by the LLM (the ``TextScorer`` seam).

The Screener and the Auditor ask for the three text dimensions; the model reads the README and
the description (and the user's query, for relevance). Dimensions it cannot judge (no README:
documentation and ease of use; no query: relevance) are left to the heuristics, and any LLM
failure returns the heuristic scores. Answers are cached per (repo, push time, README, query),
and at most ``concurrency`` calls run at once so a 30-candidate search stays polite.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import OrderedDict

from pydantic import BaseModel, Field

from core.errors import LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.models import Repository, RepoSignals, SearchParams
from core.search.scoring import DimensionScore, HeuristicTextScorer, TextScorer, TextScores

MAX_README_CHARS = 4000

SYSTEM_PROMPT = """You judge GitHub repositories for engineers. Score from 0 to 10, with one
short reason each (under 20 words, citing what you saw):
- documentation: does the README explain what it is, install, usage, API/configuration?
- ease_of_use: how fast can a newcomer get started (install command, minimal example, simple API)?
- relevance: how well does the repository match the user's QUERY (null when there is no query)?
Judge only from the text given. Return JSON {"documentation": {"score": n, "reason": s} | null,
"ease_of_use": {...} | null, "relevance": {...} | null}."""


class Judged(BaseModel):
    score: float = Field(ge=0, le=10)
    reason: str = Field(min_length=1, max_length=300)


class Judgement(BaseModel):
    documentation: Judged | None = None
    ease_of_use: Judged | None = None
    relevance: Judged | None = None


class LLMTextScorer:
    def __init__(
        self,
        client: LLMClient,
        *,
        fallback: TextScorer | None = None,
        timeout: float = 8.0,
        concurrency: int = 4,
        cache_size: int = 256,
    ) -> None:
        self.client = client
        self.fallback = fallback or HeuristicTextScorer()
        self.timeout = timeout
        self._gate = asyncio.Semaphore(concurrency)
        self._cache: OrderedDict[str, Judgement] = OrderedDict()
        self._cache_size = cache_size

    async def score_text(
        self, repo: Repository, signals: RepoSignals | None, params: SearchParams | None,
        readme: str | None,
    ) -> TextScores:
        query = _query(params)
        if not readme and not query:
            return await self.fallback.score_text(repo, signals, params, readme)
        key = _key(repo, readme, query)
        judgement = self._cache.get(key)
        if judgement is None:
            try:
                async with self._gate:
                    judgement = await self._judge(repo, readme, query)
            except LLMError:
                return await self.fallback.score_text(repo, signals, params, readme)
            self._remember(key, judgement)
        else:
            self.client.metrics.incr("text_scores", "cache_hit")
        return TextScores(
            documentation=_dim(judgement.documentation) if readme else None,
            ease_of_use=_dim(judgement.ease_of_use) if readme else None,
            relevance=_dim(judgement.relevance) if query else None,
        )

    async def _judge(self, repo: Repository, readme: str | None, query: str) -> Judgement:
        parts = [
            f"REPOSITORY: {repo.full_name}",
            f"DESCRIPTION: {repo.description or '(none)'}",
            f"TOPICS: {', '.join(repo.topics) or '(none)'}",
            f"LANGUAGE: {repo.language or '(unknown)'}",
            f"QUERY: {query or '(none)'}",
            f"README:\n{readme[:MAX_README_CHARS] if readme else '(no README available)'}",
        ]
        request = StructuredRequest(
            task="text_scores",
            messages=[system(SYSTEM_PROMPT), user("\n".join(parts))],
            schema=Judgement,
            timeout=self.timeout,
            max_output_tokens=300,
        )
        return (await self.client.run(request)).output

    def _remember(self, key: str, judgement: Judgement) -> None:
        self._cache[key] = judgement
        self._cache.move_to_end(key)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)


def _query(params: SearchParams | None) -> str:
    if params is None:
        return ""
    return params.text.strip() or " ".join(params.phrases + params.keywords).strip()


def _key(repo: Repository, readme: str | None, query: str) -> str:
    digest = hashlib.sha1((readme or "").encode("utf-8", "replace")).hexdigest()[:12]
    pushed = repo.pushed_at.isoformat() if repo.pushed_at else ""
    return f"{repo.full_name}|{pushed}|{digest}|{query.lower()}"


def _dim(judged: Judged | None) -> DimensionScore | None:
    if judged is None:
        return None
    return DimensionScore(round(judged.score, 1), f"{judged.reason.strip()} (LLM judge)")
