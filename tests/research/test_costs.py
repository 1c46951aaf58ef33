"""Research LLM cost: shown on research replies and added to the conversation, like a turn's.

The scripted provider (``core.llm.FunctionModel``) reports fixed usage per call, so every figure
is (calls x usage) x the price table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from core.models import (
    ActionClick,
    ActionKind,
    CollectingSink,
    ConversationKey,
    IncomingMessage,
    Reply,
)
from core.llm import FunctionModel, LLMClient, PriceTable, RetryPolicy, TokenUsage
from core.llm.budget import DailyBudget
from core.llm.pricing import DEFAULT_PRICES
from core.research.web_search import GroundedWebSearch
from core.research import ResearchService, ResearchSettings, build_research_service
from core.store.research import FileResearchStore
from core.store import MemoryConversationStore
from core.usage import workspace_scope
from tests.research.fakes import FakeRepoSource

KEY = ConversationKey(platform="slack", channel="C1", thread="171.5", team="T-ACME")
USAGE = TokenUsage(100, 20)
PRICE = DEFAULT_PRICES["gemini-2.5-flash"]
PER_CALL = (USAGE.input_tokens * PRICE.input_per_million + USAGE.output_tokens * PRICE.output_per_million) / 1e6
DEEP = "Should our team migrate from Redux to Zustand for a large React app?"
QUICK = "latest version of React"
WEB = {"answer": "React 19.1 is the latest release.", "queries": ["react latest"],
       "sources": [{"url": "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AAA",
                    "title": "react.dev", "claims": ["React 19.1 is the latest release."]}]}

QUICK_DRAFT = {"steps": [
    {"type": "SEARCH", "description": "Search GitHub for React", "search_queries": ["react"]},
    {"type": "BROWSE", "description": "Read the README and releases of the top results"},
    {"type": "ANALYZE", "description": "Summarize the answer"},
]}
DEEP_DRAFT = {"steps": [
    {"type": "SEARCH", "description": "Map the landscape", "search_queries": ["redux", "zustand"]},
    {"type": "SEARCH", "description": "Look for opposing views and alternatives",
     "search_queries": ["redux alternative"]},
    {"type": "BROWSE", "description": "Read the READMEs and releases"},
    {"type": "ANALYZE", "description": "Cross-verify claims against measured activity"},
    {"type": "ANALYZE", "description": "Synthesize a balanced answer"},
]}


def answer(messages: Any, schema: type[BaseModel]) -> dict[str, Any]:
    name = schema.__name__
    if name == "_Verdict":
        goal = messages[-1].content
        deep = "migrate" in goal
        return {"mode": "deep_probe" if deep else "quick_scan", "rationale": "Scripted."}
    if name == "_Draft":
        return DEEP_DRAFT if "deep_probe" in messages[-1].content else QUICK_DRAFT
    if name == "GroundedAnswer":
        return WEB
    if name == "_Synthesis":  # the report's grounded answer
        return {"answer": "React 19.1 is the latest release [1].", "trade_offs": [], "risks": [],
                "would_change": [], "confidence": "medium", "confidence_reason": "one source [1]"}
    return {"findings": []}


class Rig:
    def __init__(self, tmp_path: Path, *, web: bool = True) -> None:
        self.model = FunctionModel(answer, model_name="gemini-2.5-flash", usage=USAGE)
        self.budget = DailyBudget(None)
        client = LLMClient(self.model, prices=PriceTable(), budget=self.budget,
                           retry=RetryPolicy(attempts=1))
        self.conversations = MemoryConversationStore()
        self.service: ResearchService = build_research_service(
            ResearchSettings(data_dir=tmp_path), FakeRepoSource(),
            store=FileResearchStore(tmp_path), llm=client,
            web=GroundedWebSearch(client) if web else None, conversations=self.conversations,
        )

    @property
    def calls(self) -> int:
        return len(self.model.calls)

    def calls_for(self, schema_name: str) -> int:
        return sum(call.schema.__name__ == schema_name for call in self.model.calls)

    async def thread_cost(self):  # type: ignore[no-untyped-def]
        conversation = await self.conversations.get(KEY.conversation_id)
        assert conversation is not None
        return conversation.cost


def footer_usd(reply: Reply) -> tuple[float, float]:
    footer = reply.footer or ""
    assert footer.startswith("LLM cost: $"), footer
    this, thread = footer.removeprefix("LLM cost: $").split(" this answer, $", 1)
    return float(this), float(thread.split(" this thread", 1)[0])


async def test_quick_scan_reply_carries_its_cost_and_the_thread_keeps_it(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    with workspace_scope(KEY.team):
        reply = await rig.service.start(QUICK, key=KEY, requester="U1")
    assert reply.error is None, reply.markdown
    # analyzer, planner, one grounded web search (one SEARCH step), the ANALYZE findings and the
    # report's grounded answer
    assert (rig.calls_for("_Verdict"), rig.calls_for("_Draft"), rig.calls_for("GroundedAnswer"),
            rig.calls_for("_Findings"), rig.calls_for("_Synthesis")) == (1, 1, 1, 1, 1)
    cost = await rig.thread_cost()
    assert cost.calls == rig.calls == 5
    assert (cost.input_tokens, cost.output_tokens) == (5 * 100, 5 * 20)
    assert cost.usd == pytest.approx(5 * PER_CALL)
    assert reply.footer == (f"LLM cost: ${5 * PER_CALL:.4f} this answer, ${5 * PER_CALL:.4f} this thread"
                            f" · Research session {reply.footer.rsplit(' ', 1)[-1]}")
    assert rig.budget.spent("T-ACME") == pytest.approx(5 * PER_CALL)  # the workspace's budget too
    assert "react.dev" in reply.markdown


async def test_deep_probe_costs_per_answer_and_per_thread(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    plan = await rig.service.start(DEEP, key=KEY, requester="U1", progress=CollectingSink())
    assert plan.actions, plan.markdown
    planned = rig.calls
    assert footer_usd(plan) == (round(planned * PER_CALL, 4), round(planned * PER_CALL, 4))
    assert plan.footer and plan.footer.endswith(f"Research session {plan.actions[0].value.split(':')[0]}")

    # Revise with feedback typed as the next message: the re-plan is billed to the same thread
    revise = next(a for a in plan.actions if a.kind is ActionKind.REVISE)
    await rig.service.decide(ActionClick(key=KEY, kind=ActionKind.REVISE, value=revise.value, user="U1"))
    revised = await rig.service.take_feedback(
        IncomingMessage(key=KEY, text="focus on TypeScript projects", author="U1"))
    assert revised is not None and revised.actions
    replanned = rig.calls - planned
    assert replanned == 1
    assert footer_usd(revised) == (round(PER_CALL, 4), round((planned + 1) * PER_CALL, 4))

    approve = next(a for a in revised.actions if a.kind is ActionKind.APPROVE)
    report = await rig.service.decide(ActionClick(key=KEY, kind=ActionKind.APPROVE, value=approve.value,
                                                  user="U1"))
    assert report.error is None, report.markdown
    executed = rig.calls - planned - replanned
    assert rig.calls_for("GroundedAnswer") == 2  # one per SEARCH step of the plan
    this, thread = footer_usd(report)
    assert this == round(executed * PER_CALL, 4) and thread == round(rig.calls * PER_CALL, 4)
    cost = await rig.thread_cost()
    assert cost.calls == rig.calls and cost.usd == pytest.approx(rig.calls * PER_CALL)
    assert cost.input_tokens == rig.calls * USAGE.input_tokens


async def test_no_llm_means_no_cost_footer_and_no_conversation_write(tmp_path: Path) -> None:
    conversations = MemoryConversationStore()
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(),
                                     conversations=conversations)
    reply = await service.start(QUICK, key=KEY, requester="U1")
    assert reply.footer and reply.footer.startswith("Research session ")
    assert await conversations.get(KEY.conversation_id) is None


async def test_costs_add_to_the_turns_already_in_the_thread(tmp_path: Path) -> None:
    rig = Rig(tmp_path, web=False)
    conversation = await rig.conversations.get_or_create(KEY.conversation_id, KEY)
    conversation.cost.add(1000, 100, 0.5)  # an earlier coordinator turn in this thread
    await rig.conversations.save(conversation)
    reply = await rig.service.start(QUICK, key=KEY, requester="U1")
    this, thread = footer_usd(reply)
    # analyzer, planner, the ANALYZE findings and the report's grounded answer
    assert this == round(4 * PER_CALL, 4) and thread == round(0.5 + 4 * PER_CALL, 4)
    assert (await rig.thread_cost()).calls == 1 + 4


async def test_a_resumed_run_is_charged_to_its_thread_and_workspace(tmp_path: Path) -> None:
    rig = Rig(tmp_path)
    delivered: list[tuple[ConversationKey, Reply]] = []

    async def notifier(key: ConversationKey, reply: Reply) -> None:
        delivered.append((key, reply))

    rig.service.notifier = notifier
    plan = await rig.service.start(DEEP, key=KEY, requester="U1")
    before = rig.calls
    session_id, version = plan.actions[0].value.split(":")
    await rig.service.orchestrator.approve(session_id, int(version), "U1")  # approved, then "restart"
    assert await rig.service.resume_incomplete(wait=True) == [session_id]
    [(key, report)] = delivered
    assert key == KEY and report.error is None
    this, thread = footer_usd(report)
    assert this == round((rig.calls - before) * PER_CALL, 4) and thread == round(rig.calls * PER_CALL, 4)
    assert rig.budget.spent("T-ACME") == pytest.approx((rig.calls - before) * PER_CALL)
    assert (await rig.thread_cost()).usd == pytest.approx(rig.calls * PER_CALL)


async def test_llm_notes_reach_the_research_footer(tmp_path: Path) -> None:
    from core.errors import LLMUnavailable

    model = FunctionModel(lambda messages, schema: LLMUnavailable(503), model_name="gemini-2.5-flash")
    client = LLMClient(model, retry=RetryPolicy(attempts=1))
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource(),
                                     llm=client, conversations=MemoryConversationStore())
    reply = await service.start(QUICK, key=KEY, requester="U1")
    assert reply.error is None
    assert reply.footer and reply.footer.startswith("The language model is unavailable")
    assert "LLM cost" not in reply.footer and "Research session" in reply.footer
