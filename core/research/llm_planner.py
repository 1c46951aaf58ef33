"""The LLM planner: the model drafts, the rules enforce, the local planner backs it up.

Whatever the model says, the plan that leaves here satisfies ``plan_problems`` == []:
a SEARCH step with executable queries, Quick Scan within 3 steps and 2 searches, Deep Probe
with opposing-views and cross-verification steps.
"""

from __future__ import annotations

import logging
import re
from typing import Literal

from pydantic import BaseModel, Field

from core.errors import LLMError
from core.llm.client import LLMClient
from core.llm.contract import StructuredRequest, system, user
from core.models.research import PlanStep, ResearchMode, ResearchPlan, StepType
from core.research.planner import DEEP_MAX_STEPS, QUICK_MAX_STEPS, LocalPlanner, PlanRequest
from core.research.queries import is_executable
from core.research.settings import LLM_MAX_OUTPUT_TOKENS

log = logging.getLogger("omg.research.planner")

OPPOSING = re.compile(r"oppos|alternativ|critic|counter|contrar|skeptic|downside|competing", re.I)
VERIFY = re.compile(r"cross[- ]?(verif|check)|verif|corroborat|triangulat|fact[- ]check", re.I)


def plan_problems(plan: ResearchPlan, mode: ResearchMode) -> list[str]:
    """What is wrong with a plan (empty when it is fine)."""
    problems: list[str] = []
    searches = [s for s in plan.steps if s.type is StepType.SEARCH]
    if not any(s.search_queries and all(is_executable(q) for q in s.search_queries) for s in searches):
        problems.append("no SEARCH step with executable queries")
    if mode is ResearchMode.QUICK_SCAN:
        if len(plan.steps) > QUICK_MAX_STEPS:
            problems.append(f"a Quick Scan has at most {QUICK_MAX_STEPS} steps")
        if not 1 <= sum(len(s.search_queries) for s in searches) <= 2:
            problems.append("a Quick Scan runs 1-2 searches")
    else:
        text = " ".join(f"{s.purpose or ''} {s.description}" for s in plan.steps)
        if not OPPOSING.search(text):
            problems.append("a Deep Probe needs a step looking for opposing views")
        if not VERIFY.search(text):
            problems.append("a Deep Probe needs a cross-verification step")
        if len(plan.steps) > DEEP_MAX_STEPS:
            problems.append(f"a Deep Probe has at most {DEEP_MAX_STEPS} steps")
    return problems


class _DraftStep(BaseModel):
    type: Literal["SEARCH", "BROWSE", "ANALYZE"]
    description: str = Field(min_length=3)
    search_queries: list[str] = Field(default_factory=list)


class _Draft(BaseModel):
    steps: list[_DraftStep] = Field(min_length=1)


SYSTEM_PROMPT = """You plan research about software and open-source projects on GitHub.
Return JSON {"steps": [{"type": "SEARCH"|"BROWSE"|"ANALYZE", "description": str,
"search_queries": [str]}]}. SEARCH queries are GitHub repository searches: 1-4 keywords plus
optional qualifiers language:X, stars:>N, pushed:>YYYY-MM-DD, created:>YYYY-MM-DD, topic:X.
BROWSE reads READMEs, releases and issues of the repositories found. ANALYZE synthesizes.
quick_scan: at most 3 steps, breadth and recent data, one SEARCH step with 1-2 queries.
deep_probe: 4-8 steps, multi-stage, including a step that looks for opposing views and a step
that cross-verifies claims against measured data."""


def _enforce(plan: ResearchPlan, mode: ResearchMode, local: ResearchPlan) -> ResearchPlan:
    steps = [s for s in plan.steps if s.type is not StepType.SEARCH or s.search_queries]
    for step in steps:
        step.search_queries = [q for q in step.search_queries if is_executable(q)][:3]
    steps = [s for s in steps if s.type is not StepType.SEARCH or s.search_queries]
    if not steps:
        return local  # nothing usable in the draft
    local_search = next(s for s in local.steps if s.type is StepType.SEARCH)
    if not any(s.type is StepType.SEARCH for s in steps):
        steps.insert(0, local_search.model_copy(deep=True))
    if mode is ResearchMode.QUICK_SCAN:
        first = next(s for s in steps if s.type is StepType.SEARCH)
        first.search_queries = first.search_queries[:2]
        others = [s for s in steps if s.type is not StepType.SEARCH][: QUICK_MAX_STEPS - 1]
        steps = [first, *others]
    else:
        text = " ".join(s.description for s in steps)
        for step in local.steps:
            if (step.purpose == "opposing_views" and not OPPOSING.search(text)) or (
                step.purpose == "cross_verify" and not VERIFY.search(text)
            ):
                steps.insert(max(len(steps) - 1, 1), step.model_copy(deep=True))
        steps = steps[:DEEP_MAX_STEPS]
    for index, step in enumerate(steps, start=1):
        step.step_id = index
    plan.steps = steps
    return plan if not plan_problems(plan, mode) else local


class LLMPlanner:
    """The configured LLM drafts the plan; rules repair it; the local planner is the fallback."""

    def __init__(self, llm: LLMClient, fallback: LocalPlanner, *, timeout: float = 2.5) -> None:
        self.llm = llm
        self.fallback = fallback
        self.timeout = timeout

    async def plan(self, request: PlanRequest, *, timeout: float | None = None) -> ResearchPlan:
        local = self.fallback.build(request)
        budget = min(self.timeout, timeout) if timeout is not None else self.timeout
        if budget <= 0.05:
            return local
        feedback = "\n".join(f"- {f}" for f in request.feedback) or "(none)"
        messages = [
            system(SYSTEM_PROMPT),
            user(f"Mode: {request.mode.value}\nGoal: {request.goal}\n"
                 f"Reviewer feedback so far (apply all of it):\n{feedback}"),
        ]
        ask = StructuredRequest(task="research_plan", messages=messages, schema=_Draft, timeout=budget,
                                max_output_tokens=LLM_MAX_OUTPUT_TOKENS)
        try:
            draft = (await self.llm.run(ask)).output
        except Exception as exc:  # LLMError by contract; anything else must not break research either
            log.warning("llm planning failed, using the local planner", extra={"error": repr(exc)},
                        exc_info=not isinstance(exc, LLMError))
            return local
        plan = ResearchPlan(
            session_id=request.session_id,
            rationale=request.rationale,
            version=request.version,
            source="llm",
            feedback=local.feedback,
            steps=[
                PlanStep(step_id=i, type=StepType(s.type), description=s.description.strip(),
                         search_queries=[q.strip() for q in s.search_queries if q.strip()])
                for i, s in enumerate(draft.steps, start=1)
            ],
        )
        return _enforce(plan, request.mode, local)
