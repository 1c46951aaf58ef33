"""The whole bot behind the fake Discord: ``build_app`` with the offline catalog, the real
classifier, agents, synthesizer and research service (no network, no LLM)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import build_app
from core.errors import NotAllowed
from tests.discord.conftest import DiscordHarness, bot_settings, button, stop_harness
from tests.fakes.discord_fake import ALICE, BOB, FakeDiscord

MODAL = 9


@pytest.fixture
async def harness(fake: FakeDiscord, endpoints: None, tmp_path: Path) -> AsyncIterator[DiscordHarness]:
    """The real core (offline catalog, no LLM) behind the fake Discord."""
    app = await build_app(env={"OMG_DATA_DIR": str(tmp_path), "OMG_GITHUB": "offline",
                               "LLM_PROVIDER": "none"}, memory=True)
    harness = DiscordHarness(fake, app, bot_settings(tmp_path))
    await harness.start()
    try:
        yield harness
    finally:
        await stop_harness(harness)
        await app.aclose()


async def deep_plan(fake: FakeDiscord, harness: DiscordHarness):  # type: ignore[no-untyped-def]
    """``/research`` a deep goal (Alice asks): the thread it opened and the plan message in it."""
    record = await fake.slash("research", {"goal": "compare python web frameworks for a small team",
                                           "mode": "deep_probe"})
    await harness.settle()
    thread = record.original_message_id
    assert thread is not None
    return thread, harness.bot_messages(thread)[-1]


async def test_search_analyze_and_an_approved_research(
    fake: FakeDiscord, harness: DiscordHarness,
) -> None:
    question = await harness.mention("find react state management libraries")
    [answer] = harness.bot_messages(question.id)
    assert answer.embeds and len(answer.embeds[0]["fields"]) >= 3
    analyze = next(b for b in answer.buttons() if b["label"].startswith("Analyze"))
    before = len(harness.bot_messages(question.id))
    await fake.click(answer.id, analyze["custom_id"])
    await harness.settle()
    analysis = harness.bot_messages(question.id)[before:]
    titles = [e.get("title") for m in analysis for e in m.embeds]
    assert analyze["label"].removeprefix("Analyze ") in titles
    assert analysis[-1].buttons()

    thread, plan = await deep_plan(fake, harness)
    approve = button(plan, "Approve")["custom_id"]
    await fake.click(plan.id, approve, user=BOB)
    await harness.settle()
    notes = [m.content for m in fake.in_channel(thread) if m.ephemeral]
    assert len(notes) == 1 and "only" in notes[0].lower(), notes
    await fake.click(plan.id, approve, user=ALICE)
    await harness.settle(timeout=30)
    assert fake.messages[plan.id].buttons() == []
    report = harness.bot_messages(thread)[-1]
    assert report.id != plan.id and "research" in report.text().lower()
    await fake.click(plan.id, approve, user=ALICE)
    await harness.settle()
    assert len([m for m in fake.in_channel(thread) if m.ephemeral]) == 2


async def test_revise_opens_its_form_at_once_and_the_submission_is_decided_by_the_service(
    fake: FakeDiscord, harness: DiscordHarness,
) -> None:
    thread, plan = await deep_plan(fake, harness)
    revise = button(plan, "Revise")["custom_id"]

    opened = await fake.click(plan.id, revise, user=BOB)  # the form comes first, for anyone
    await harness.settle()
    assert opened.responses[0][0] == MODAL
    await fake.submit_modal(revise, {"feedback": "only tiny ones"}, channel_id=thread,
                            message_id=plan.id, user=BOB)  # not the requester: refused
    await harness.settle()
    notes = [m.content for m in fake.in_channel(thread) if m.ephemeral]
    assert notes == [NotAllowed().user_message], notes
    assert harness.bot_messages(thread)[-1].id == plan.id  # no new plan

    opened = await fake.click(plan.id, revise, user=ALICE)
    await harness.settle()
    assert opened.responses[0][0] == MODAL
    await fake.submit_modal(revise, {"feedback": "only small frameworks"}, channel_id=thread,
                            message_id=plan.id, user=ALICE)
    await harness.settle()
    new_plan = harness.bot_messages(thread)[-1]
    assert new_plan.id != plan.id and button(new_plan, "Approve")

    await fake.click(plan.id, revise, user=ALICE)  # the old plan's form: stale on submission
    await harness.settle()
    await fake.submit_modal(revise, {"feedback": "again"}, channel_id=thread,
                            message_id=plan.id, user=ALICE)
    await harness.settle()
    notes = [m.content for m in fake.in_channel(thread) if m.ephemeral]
    assert len(notes) == 2 and "revision 1" in notes[-1] and "revision 2" in notes[-1], notes


async def test_a_follow_up_in_the_thread_needs_no_mention(
    fake: FakeDiscord, harness: DiscordHarness,
) -> None:
    question = await harness.mention("find react state management libraries")
    assert len(harness.bot_messages(question.id)) == 1
    await harness.say(question.id, "which one is the most popular?")
    answer = harness.bot_messages(question.id)[1:]
    first = answer[0].content + "".join(e.get("description", "") for e in answer[0].embeds)
    assert answer and "Following up" in first  # a long answer moves into embed descriptions
    assert all(len(m.content) <= 2000 for m in answer) and answer[-1].buttons()
