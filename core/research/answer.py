"""The answer a report opens with: a grounded LLM synthesis when configured, else the deterministic verdict.

The model sees the question's shape, the measured facts (the deterministic comparison lines and
raw signals), the fetched README excerpts, releases and web pages, each numbered as in the
report's Sources list, and must cite them as ``[n]``. Its answer is rejected, and the
deterministic one used, when it cites a source that was not fetched, cites nothing, states a
number that is not in the facts, names a repository that was not found, or leaves out a subject
the data does not have.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field

from core.analysis import reference_time
from core.errors import LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.research.evidence import Candidate, fetched_sources, gather, searched
from core.models.research import ResearchAnswer, ResearchSession, SourceRef
from core.research.question import Question, Shape, read_question
from core.research.queries import topic_terms
from core.research.report import MAX_SOURCES
from core.research.steps import StepContext
from core.research.subjects import DataLabel
from core.research.verdict import deterministic_answer
from core.sources.base import SourceInfo

log = logging.getLogger("omg.research.answer")

_CITATION = re.compile(r"\[(\d+)\]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_REPO = re.compile(r"\b[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+\b")
_SHAPES = {
    Shape.MIGRATE: "Start with the verdict in bold: **Migrate**, **Stay on <current>** or **It depends on <what>**, "
                   "then compare both on the measured facts.",
    Shape.PICK: "Start with the pick in bold (**Pick owner/name**) and why it fits the stated need, then the runners-up.",
    Shape.FACT: "Start with the fact in bold and its source, or say plainly that the sources at hand cannot tell.",
    Shape.OVERVIEW: "Start with a direct two-sentence answer to the goal in bold, then the supporting evidence.",
}
SYSTEM = """You write the opening of a research report about open-source software for a busy team.
Rules:
- Use ONLY the facts and sources given. Every sentence ends with the source numbers it rests on, like [2] or [1][4].
- Never state a number (stars, versions, dates, counts, scores) that does not appear in the facts.
- Name only repositories that appear in the facts. No links.
- If a subject is listed as missing, say so plainly; never guess about it.
Return JSON {"answer": str, "trade_offs": [str], "risks": [str], "would_change": [str],
"confidence": "low"|"medium"|"high", "confidence_reason": str}."""


class _Synthesis(BaseModel):
    answer: str = Field(min_length=20, max_length=1500)
    trade_offs: list[str] = Field(default_factory=list, max_length=8)
    risks: list[str] = Field(default_factory=list, max_length=8)
    would_change: list[str] = Field(default_factory=list, max_length=6)
    confidence: Literal["low", "medium", "high"] = "low"
    confidence_reason: str = ""


class Ungrounded(Exception):
    """Internal control flow: the model's answer broke a grounding rule (the reason is logged,
    the local answer used); never leaves this module."""


def measured_answer(session: ResearchSession, candidates: list[Candidate], info: SourceInfo,
                    now: datetime) -> ResearchAnswer:
    """The deterministic answer from what the session fetched (also for a run stopped early)."""
    goal = session.query
    return deterministic_answer(read_question(goal), candidates, DataLabel.of(info), now,
                                sources=fetched_sources(session), topic=" ".join(topic_terms(goal)[:3]))


def partial_answer(session: ResearchSession, info: SourceInfo) -> ResearchAnswer | None:
    """For a run that ended before its answer step: the answer from what was found so far."""
    if any(r.answer is not None for r in session.results) or not searched(session):
        return None
    return measured_answer(session, gather(session), info, reference_time(info, datetime.now(UTC)))


async def answer_question(ctx: StepContext, candidates: list[Candidate], now: datetime) -> ResearchAnswer:
    question = read_question(ctx.session.query)
    sources = fetched_sources(ctx.session)
    local = measured_answer(ctx.session, candidates, ctx.source.info, now)
    if ctx.llm is None or not candidates:
        return local
    try:
        return await _grounded(ctx.llm, ctx, question, candidates, sources[:MAX_SOURCES], local)
    except LLMError as exc:
        log.warning("llm synthesis unavailable, using the measured verdict", extra={"error": repr(exc)})
    except Ungrounded as exc:
        log.warning("llm synthesis rejected, using the measured verdict", extra={"reason": str(exc)})
    return local


def facts_of(candidates: list[Candidate], local: ResearchAnswer) -> dict[str, object]:
    repos = []
    for c in candidates[:10]:
        signals = c.signals.model_dump(exclude_none=True, exclude={"notes"}) if c.signals else {}
        repos.append({"repo": c.name, "description": c.repo.description[:200], "stars": c.repo.stars,
                      "forks": c.repo.forks, "archived": c.repo.archived, "language": c.repo.language,
                      "lastPush": c.repo.pushed_at.date().isoformat() if c.repo.pushed_at else None,
                      "starGrowth12m": c.repo.star_growth_12m, "signals": signals, "readme": (c.readme or "")[:400]})
    return {"measured": local.comparison, "missing": local.missing, "notChecked": local.not_checked,
            "localVerdict": local.headline, "repositories": repos}


async def _grounded(client: LLMClient, ctx: StepContext, question: Question, candidates: list[Candidate],
                    sources: list[SourceRef], local: ResearchAnswer) -> ResearchAnswer:
    facts = json.dumps(facts_of(candidates, local), default=str)
    numbered = "\n".join(f"[{i}] {s.title}" + (f": {s.snippet[:300]}" if s.snippet else "")
                         for i, s in enumerate(sources, start=1))
    prompt = (f"Goal: {ctx.session.query}\n{_SHAPES[question.shape]}\n\nFacts: {facts}\n\n"
              f"Sources (cite by number):\n{numbered}")
    request = StructuredRequest(task="research_synthesis", messages=[system(SYSTEM), user(prompt)],
                                schema=_Synthesis, timeout=ctx.settings.step_timeout_seconds / 2,
                                max_output_tokens=1200)
    draft = (await client.run(request)).output
    cited = check_grounding(draft, prompt, len(sources), {c.name for c in candidates}, local.missing)
    return local.model_copy(update={
        "headline": draft.answer.strip(), "trade_offs": draft.trade_offs, "risks": draft.risks,
        "would_change": draft.would_change or local.would_change, "confidence": draft.confidence,
        "confidence_reason": draft.confidence_reason.strip().rstrip(".") or local.confidence_reason,
        "cited": [sources[n - 1].title for n in cited], "source": "llm",
    })


def _numbers(text: str) -> set[str]:
    return {n.replace(",", "") for n in _NUMBER.findall(text)}


def check_grounding(draft: _Synthesis, evidence: str, source_count: int, known: set[str],
                    missing: list[str]) -> list[int]:
    """The source numbers the draft cites; raise Ungrounded when it breaks a rule."""
    texts = [draft.answer, *draft.trade_offs, *draft.risks, *draft.would_change, draft.confidence_reason]
    body = "\n".join(texts)
    cited = sorted({int(n) for n in _CITATION.findall(body)})
    if not cited:
        raise Ungrounded("cites no source")
    if any(n < 1 or n > source_count for n in cited):
        raise Ungrounded(f"cites a source that was not fetched: {cited}")
    unknown = _numbers(_CITATION.sub(" ", body)) - _numbers(evidence)
    if unknown:
        raise Ungrounded(f"states numbers not in the facts: {sorted(unknown)[:5]}")
    names = set(_REPO.findall(body)) - known - {"N/A", "and/or"}
    if names:
        raise Ungrounded(f"names repositories that were not found: {sorted(names)[:3]}")
    for note in missing:
        subject = note.split(" ", 1)[0].lower()
        if subject not in body.lower():
            raise Ungrounded(f"leaves out the missing subject {subject}")
    return cited
