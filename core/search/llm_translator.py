"""Natural language -> ``SearchParams`` by the LLM (the ``core.search.translator`` seam).

The model sees today's date, the user's words and the thread's previous search (for follow-ups
such as "what about Python?") and returns the complete parameter set. Its answer is normalised
(language names, bounds, dates) and sanity-checked. On any LLM failure, or an answer with nothing
to search for, ``fallback`` answers (e.g. the rule-based translator); without one the
``LLMError`` propagates, for callers such as the SearchTeam that fall back to their own rules.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import date
from typing import Literal

from pydantic import BaseModel, Field

from core.errors import LLMBadOutput, LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.models import SearchParams
from core.search.language import written_in
from core.search.translator import QueryTranslator
from core.search.vocabulary import LANGUAGES

log = logging.getLogger("omg.llm.translate")

SYSTEM_PROMPT = """You turn a request for GitHub repositories into search parameters.
Today is {today}. Fields:
- need: the kind of software wanted, in one short phrase worded the way a repository description
  would say it, with what named products are replaced by what they do ("my team wants to stop
  paying for Slack" -> "self-hosted team chat server"); null for a follow-up that only filters;
- keywords: 1-5 essential words (lower case, no filler like "library", "best", "find");
- synonym_groups: for each concept, alternatives GitHub might use
  (e.g. [["state management", "state", "store"]]); at most 4 groups;
- phrases: exact multi-word phrases the user quoted; topics: GitHub topics named with topic:/#;
- language: the programming language asked for, or null;
- min_stars / max_stars: integers or null ("popular" -> 1000, "very popular" -> 10000,
  "small"/"hidden gems" -> max 1000);
- pushed_after / created_after: ISO dates or null ("active"/"maintained" -> pushed in the last
  year; "new"/"recent" -> created in the last year);
- sort: "best" (default), "stars", "updated" or "growth" ("trending", "fast growing");
- limit: how many results the user asked for (default 10, at most 30);
- refines_previous: true when the message only adjusts the PREVIOUS search ("what about Python?",
  "only popular ones") -- then return the previous parameters with that change applied.
Return JSON with exactly these fields."""


class Translation(BaseModel):
    need: str | None = Field(default=None, max_length=200)
    keywords: list[str] = Field(default_factory=list, max_length=8)
    synonym_groups: list[list[str]] = Field(default_factory=list, max_length=6)
    phrases: list[str] = Field(default_factory=list, max_length=4)
    topics: list[str] = Field(default_factory=list, max_length=6)
    language: str | None = None
    min_stars: int | None = Field(default=None, ge=0)
    max_stars: int | None = Field(default=None, ge=0)
    pushed_after: date | None = None
    created_after: date | None = None
    sort: Literal["best", "stars", "updated", "growth"] = "best"
    limit: int | None = Field(default=None, ge=1, le=100)
    refines_previous: bool = False


class LLMQueryTranslator:
    def __init__(
        self,
        client: LLMClient,
        *,
        fallback: QueryTranslator | None = None,
        timeout: float = 5.0,
        today: Callable[[], date] = date.today,
    ) -> None:
        self.client = client
        self.fallback = fallback
        self.timeout = timeout
        self._today = today

    async def translate(self, text: str, previous: SearchParams | None) -> SearchParams:
        context = previous.model_dump_json(exclude_none=True) if previous else "(none)"
        request = StructuredRequest(
            task="translate",
            messages=[
                system(SYSTEM_PROMPT.format(today=self._today().isoformat())),
                user(f"PREVIOUS search: {context}\nMESSAGE: {text.strip()[:1000]}"),
            ],
            schema=Translation,
            timeout=self.timeout,
            max_output_tokens=400,
        )
        try:
            answer = (await self.client.run(request)).output
            params = to_params(answer, text, previous)
            if params is None:
                self.client.metrics.incr("translate", "empty")
                log.info("llm translation had nothing to search for", extra={"text": text[:200]})
                raise LLMBadOutput(answer.model_dump_json()[:300], "nothing to search for")
        except LLMError:
            if self.fallback is None:
                raise
            return await self.fallback.translate(text, previous)
        return params


def to_params(answer: Translation, text: str, previous: SearchParams | None) -> SearchParams | None:
    def clean(words: list[str]) -> list[str]:
        return list(dict.fromkeys(w.strip().lower() for w in words if w and w.strip()))[:8]

    groups = [g for g in (clean(group) for group in answer.synonym_groups) if g][:4]
    keywords, phrases, topics = clean(answer.keywords), clean(answer.phrases), clean(answer.topics)
    language = normalise_language(answer.language)
    if not (keywords or groups or phrases or topics or language):
        return None
    low, high = answer.min_stars, answer.max_stars
    if low is not None and high is not None and low > high:
        low, high = high, low
    refines = answer.refines_previous and previous is not None
    shown = f"{previous.text} -> {text.strip()}" if refines and previous and previous.text else text.strip()
    need = (answer.need or "").strip() or (previous.need if refines and previous else None)
    return SearchParams(
        text=shown,
        need=need,
        keywords=keywords,
        synonym_groups=groups,
        phrases=phrases,
        topics=[t.replace(" ", "-") for t in topics],
        language=language,
        also_languages=_offered_beside(language, text),
        min_stars=low,
        max_stars=high,
        pushed_after=answer.pushed_after,
        created_after=answer.created_after,
        sort=answer.sort,
        limit=min(answer.limit or (previous.limit if refines and previous else 10), 30),
    )


def _offered_beside(language: str | None, text: str) -> list[str]:
    """The languages the request offers as a choice beside the one the model answered ("a rate
    limiter in go or rust": the model says Go, the request takes Rust too); the answer has room
    for one language, and the words say the rest."""
    offered = written_in(text.lower())
    if language is None or offered is None or language not in offered[0]:
        return []
    return [other for other in offered[0] if other != language]


def normalise_language(name: str | None) -> str | None:
    if not name or not name.strip() or name.strip().lower() in ("any", "null", "none"):
        return None
    raw = name.strip()
    key = raw.lower()
    if key in LANGUAGES:
        return LANGUAGES[key]
    canonical = {v.lower(): v for v in LANGUAGES.values()}
    return canonical.get(key, raw)
