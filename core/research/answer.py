"""The answer a report opens with: grounded LLM synthesis when configured, else the deterministic verdict."""

from __future__ import annotations

from datetime import datetime

from core.research.evidence import Candidate, fetched_sources
from core.research.models import ResearchAnswer
from core.research.question import read_question
from core.research.queries import topic_terms
from core.research.steps import StepContext
from core.research.subjects import DataLabel
from core.research.verdict import deterministic_answer


async def answer_question(ctx: StepContext, candidates: list[Candidate], now: datetime) -> ResearchAnswer:
    goal = ctx.session.query
    question = read_question(goal)
    label = DataLabel.of(ctx.source.info)
    return deterministic_answer(question, candidates, label, now, sources=fetched_sources(ctx.session),
                                topic=" ".join(topic_terms(goal)[:3]))
