"""Approval by button: who may decide, stale and double clicks, expiry, revisions, restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path

from core.models import ActionClick, ActionKind, CollectingSink, IncomingMessage, Reply
from core.research import ResearchService, ResearchSettings, ResearchStatus, build_research_service
from core.store.research import FileResearchStore
from core.service import BotService
from tests.research.conftest import KEY, click, deep_plan, session_id_of
from tests.research.fakes import FakeRepoSource

S = ResearchStatus


class RecordingCoordinator:
    """Stands in for the chat coordinator: records what research did not take."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    async def handle(self, incoming: IncomingMessage, progress) -> Reply:  # type: ignore[no-untyped-def]
        self.messages.append(incoming.text)
        return Reply(conversation_id=KEY.conversation_id, markdown="chat answer")


async def status(service: ResearchService, reply: Reply) -> ResearchStatus:
    return (await service.store.get(session_id_of(reply))).status


async def test_deep_plan_waits_for_review_with_three_buttons(service: ResearchService) -> None:
    reply = await deep_plan(service)
    assert [a.kind for a in reply.actions] == [ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL]
    assert all(a.value == f"{session_id_of(reply)}:1" for a in reply.actions)
    assert await status(service, reply) is S.REVIEW_PENDING
    assert "Deep Probe" in reply.markdown and "Approve" in reply.markdown


async def test_only_the_requester_may_decide(service: ResearchService) -> None:
    reply = await deep_plan(service, user="U1")
    for kind in (ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL):
        refused = await service.decide(click(reply, kind, "U2"), CollectingSink())
        assert refused.error == "not_allowed" and "Only the person" in refused.markdown
    assert await status(service, reply) is S.REVIEW_PENDING
    done = await service.decide(click(reply, ActionKind.APPROVE, "U1"), CollectingSink())
    assert done.error is None and "Research report" in done.markdown
    assert await status(service, reply) is S.COMPLETED


async def test_an_admin_may_decide_for_the_requester(service: ResearchService) -> None:
    reply = await deep_plan(service, user="U1")
    cancelled = await service.decide(click(reply, ActionKind.CANCEL, "ADMIN"), CollectingSink())
    assert cancelled.error is None and "cancelled by ADMIN" in cancelled.markdown
    assert await status(service, reply) is S.CANCELLED


async def test_double_click_runs_once_and_refuses_the_second(service: ResearchService) -> None:
    reply = await deep_plan(service)
    first = await service.decide(click(reply, ActionKind.APPROVE, "U1"), CollectingSink())
    second = await service.decide(click(reply, ActionKind.APPROVE, "U1"), CollectingSink())
    assert first.error is None
    assert second.error == "stale" and "already" in second.markdown


async def test_twenty_racing_approvals_start_exactly_one_run(service: ResearchService, source: FakeRepoSource) -> None:
    reply = await deep_plan(service)
    replies = await asyncio.gather(*(service.decide(click(reply, ActionKind.APPROVE, "U1"), CollectingSink())
                                     for _ in range(20)))
    assert sum(r.error is None for r in replies) == 1
    assert {r.error for r in replies} == {None, "stale"}
    session = await service.store.get(session_id_of(reply))
    assert [d.kind for d in session.decisions] == ["approve"]
    assert len(session.results) == len(session.plan.steps)  # type: ignore[union-attr]


async def test_a_click_on_an_older_plan_version_is_stale(service: ResearchService) -> None:
    first = await deep_plan(service)
    revised = await service.decide(click(first, ActionKind.REVISE, "U1", value=f"{first.actions[1].value}:focus on TypeScript"),
                                   CollectingSink())
    assert revised.error is None and revised.actions[0].value.endswith(":2")
    stale = await service.decide(click(first, ActionKind.APPROVE, "U1"), CollectingSink())
    assert stale.error == "stale" and "revision 2" in stale.markdown
    assert await status(service, first) is S.REVIEW_PENDING
    ok = await service.decide(click(revised, ActionKind.APPROVE, "U1"), CollectingSink())
    assert ok.error is None


async def test_malformed_and_unknown_buttons_are_refused_kindly(service: ResearchService) -> None:
    reply = await deep_plan(service)
    for value, code in (("garbage", "invalid_action"), ("../../etc/passwd:1", "invalid_action"),
                        ("00000000-0000-4000-8000-000000000000:1", "not_found")):
        refused = await service.decide(click(reply, ActionKind.APPROVE, "U1", value=value), CollectingSink())
        assert refused.error == code and refused.markdown


async def test_pending_reviews_expire(tmp_path: Path, source: FakeRepoSource) -> None:
    settings = ResearchSettings(data_dir=tmp_path, review_ttl_seconds=0.2)
    service = build_research_service(settings, source)
    reply = await deep_plan(service)
    await asyncio.sleep(0.3)
    expired = await service.decide(click(reply, ActionKind.APPROVE, "U1"), CollectingSink())
    assert expired.error == "expired" and "expired" in expired.markdown
    session = await service.store.get(session_id_of(reply))
    assert session.status is S.CANCELLED and session.decisions[-1].kind == "expire"
    again = await service.decide(click(reply, ActionKind.APPROVE, "U1"), CollectingSink())
    assert again.error == "expired"


async def test_overdue_reviews_are_swept_at_start_up(tmp_path: Path, source: FakeRepoSource) -> None:
    settings = ResearchSettings(data_dir=tmp_path, review_ttl_seconds=0.1)
    reply = await deep_plan(build_research_service(settings, source))
    await asyncio.sleep(0.2)
    restarted = build_research_service(settings, source)
    assert await restarted.resume_incomplete(wait=True) == []
    assert (await restarted.store.get(session_id_of(reply))).status is S.CANCELLED


async def test_revise_by_message_keeps_feedback_history_and_every_plan(service: ResearchService) -> None:
    chat = RecordingCoordinator()
    bot = BotService(chat, research=service)  # type: ignore[arg-type]
    plan = await deep_plan(service)
    ask = await bot.handle_action(click(plan, ActionKind.REVISE, "U1"))
    assert ask.error is None and "feedback" in ask.markdown

    other = await bot.handle_message(IncomingMessage(key=KEY, text="hello bot", author="U2"))
    assert other.markdown == "chat answer" and chat.messages == ["hello bot"]  # not the requester's

    second = await bot.handle_message(IncomingMessage(key=KEY, text="focus on TypeScript", author="U1"))
    assert second.actions and second.actions[0].value.endswith(":2") and "TypeScript" in second.markdown
    after = await bot.handle_message(IncomingMessage(key=KEY, text="thanks", author="U1"))
    assert after.markdown == "chat answer"  # only the next message is feedback

    third = await bot.handle_action(click(second, ActionKind.REVISE, "U1", value=f"{second.actions[1].value}:skip redux"))
    session = await service.store.get(session_id_of(plan))
    assert [p.version for p in session.plans] == [1, 2, 3]
    assert [f.text for f in session.feedback] == ["focus on TypeScript", "skip redux"]
    assert [f.plan_version for f in session.feedback] == [1, 2]
    assert session.plans[0].feedback is None and session.plans[2].feedback == "skip redux"
    queries = [q for s in session.plans[2].steps for q in s.search_queries]
    assert any("typescript" in q for q in queries) and not any("redux" in q.split() for q in queries)
    assert third.actions[0].value.endswith(":3") and session.status is S.REVIEW_PENDING


async def test_approval_state_survives_a_restart_and_the_plan_still_runs(settings: ResearchSettings, source: FakeRepoSource) -> None:
    first = build_research_service(settings, source, store=FileResearchStore(settings.data_dir))
    plan = await deep_plan(first)
    await first.aclose()
    restarted = build_research_service(settings, FakeRepoSource(), store=FileResearchStore(settings.data_dir))
    sink = CollectingSink()
    report = await restarted.decide(click(plan, ActionKind.APPROVE, "U1"), sink)
    assert report.error is None and "### Sources" in report.markdown
    assert (await restarted.store.get(session_id_of(plan))).status is S.COMPLETED
    assert any(log.startswith("Plan approved by U1") for log in sink.logs())


async def test_revise_wait_survives_a_restart(settings: ResearchSettings, source: FakeRepoSource) -> None:
    first = build_research_service(settings, source)
    plan = await deep_plan(first)
    await first.decide(click(plan, ActionKind.REVISE, "U1"), CollectingSink())
    restarted = build_research_service(settings, source)
    revised = await restarted.take_feedback(IncomingMessage(key=KEY, text="only Python projects", author="U1"))
    assert revised is not None and revised.actions[0].value.endswith(":2")


async def test_cancel_of_a_pending_plan(service: ResearchService) -> None:
    plan = await deep_plan(service)
    reply = await service.decide(click(plan, ActionKind.CANCEL, "U1"), CollectingSink())
    assert "Nothing was run" in reply.markdown
    late = await service.decide(click(plan, ActionKind.APPROVE, "U1"), CollectingSink())
    assert late.error == "stale" and "cancelled" in late.markdown


async def test_research_disabled_and_click_routing_through_the_bot_service(service: ResearchService) -> None:
    plan = await deep_plan(service)
    bot = BotService(RecordingCoordinator(), research=service)  # type: ignore[arg-type]
    refused = await bot.handle_action(ActionClick(key=KEY, kind=ActionKind.APPROVE, value=plan.actions[0].value, user="U9"))
    assert refused.error == "not_allowed"
    disabled = await BotService(RecordingCoordinator()).handle_action(click(plan, ActionKind.APPROVE, "U1"))  # type: ignore[arg-type]
    assert disabled.error == "research_disabled"


async def test_feedback_is_taken_where_the_revise_click_happened(service: ResearchService) -> None:
    plan = await deep_plan(service)  # started from a slash command in the channel
    thread = KEY.model_copy(update={"thread": "plan-message-ts"})  # the plan's own thread
    await service.decide(ActionClick(key=thread, kind=ActionKind.REVISE, value=plan.actions[1].value, user="U1"))
    assert await service.take_feedback(IncomingMessage(key=KEY, text="other chat", author="U1")) is None
    revised = await service.take_feedback(IncomingMessage(key=thread, text="focus on Python", author="U1"))
    assert revised is not None and revised.actions[0].value.endswith(":2")
    assert await service.store.feedback_wait(thread.conversation_id) is None  # consumed


async def test_random_valid_flows_never_hit_an_illegal_transition(settings: ResearchSettings) -> None:
    """SC-004: any mix of clicks and messages, by anyone, in any order, gets a normal answer."""
    import random

    rng = random.Random(5)
    service = build_research_service(settings, FakeRepoSource())
    bot = BotService(RecordingCoordinator(), research=service)  # type: ignore[arg-type]
    expected = {None, "not_allowed", "stale", "expired", "empty_feedback"}
    for _ in range(12):
        plans = [await deep_plan(service)]
        for _ in range(6):
            reply = plans[-1] if rng.random() < 0.8 else rng.choice(plans)
            user = rng.choice(["U1", "U1", "U2", "ADMIN"])
            step = rng.choice(["approve", "revise", "revise_inline", "cancel", "message"])
            if step == "message":
                answer = await bot.handle_message(IncomingMessage(key=KEY, text=rng.choice(["more on Python", ""]), author=user))
            else:
                kind = {"approve": ActionKind.APPROVE, "cancel": ActionKind.CANCEL}.get(step, ActionKind.REVISE)
                value = reply.actions[0].value + (":only recent projects" if step == "revise_inline" else "")
                answer = await bot.handle_action(ActionClick(key=KEY, kind=kind, value=value, user=user))
            assert answer.error in expected, (step, answer.error, answer.markdown)
            if answer.actions:
                plans.append(answer)
    for session in await service.store.list_sessions():
        assert session.status in (S.REVIEW_PENDING, S.COMPLETED, S.CANCELLED), session.status
        assert [p.version for p in session.plans] == list(range(1, len(session.plans) + 1))


async def test_refusal_previews_a_decision_without_saving(service: ResearchService) -> None:
    """Adapters ask before opening a form (Discord's Revise modal): the words a click would get."""
    reply = await deep_plan(service, user="U1")
    value, session_id = reply.actions[1].value, session_id_of(reply)
    version = (await service.store.get(session_id)).version
    assert await service.refusal(value, "U1") is None
    assert "Only the person" in await service.refusal(value, "U2")
    assert "revision 7" in await service.refusal(f"{session_id}:7", "U1")
    assert await service.refusal("not-a-button", "U1")  # malformed: refused, never a crash
    assert (await service.store.get(session_id)).version == version  # nothing was written
