"""Slash commands (defer within 3 s, follow up, thread) and research plan decisions."""

from __future__ import annotations

from tests.discord.conftest import DiscordHarness, button
from tests.fakes.discord_fake import ALICE, BOB, CHANNEL_ID, DM_CHANNEL_ID, StoredMessage

DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, MODAL = 5, 6, 9


def ephemeral_notes(harness: DiscordHarness, channel: int) -> list[str]:
    return [m.content for m in harness.fake.in_channel(channel) if m.ephemeral]


async def slash(harness: DiscordHarness, name: str, options: dict[str, str], **kw: object):
    record = await harness.fake.slash(name, options, **kw)  # type: ignore[arg-type]
    await harness.settle()
    return record


async def test_search_command_defers_follows_up_and_answers_in_a_thread(
    discord_bot: DiscordHarness,
) -> None:
    fake = discord_bot.fake
    record = await slash(discord_bot, "search", {"query": "react state management"})

    assert record.responses[0][0] == DEFERRED_CHANNEL_MESSAGE
    assert record.answered_after is not None and record.answered_after < 3.0
    anchor = fake.messages[record.original_message_id]  # the "thinking…" message, followed up
    assert anchor.content == f"<@{ALICE}> used `/search`: **react state management**"
    assert anchor.flags & 128 == 0
    thread = fake.channels[anchor.id]
    assert thread["name"] == "react state management"
    answer = discord_bot.last_bot_message(anchor.id)
    assert answer.content.startswith("Found **2** repositories")
    # follow-ups in that thread continue the conversation
    await discord_bot.say(anchor.id, "and the second one?")
    assert discord_bot.last_bot_message(anchor.id).content.startswith("You said: and the second one?")


async def test_commands_map_to_what_a_user_would_type(discord_bot: DiscordHarness) -> None:
    record = await slash(discord_bot, "compare", {"repos": "zustand, jotai redux"})
    anchor = discord_bot.fake.messages[record.original_message_id]
    assert discord_bot.last_bot_message(anchor.id).content.startswith(
        "You said: compare zustand, jotai and redux")
    record = await slash(discord_bot, "analyze", {"repo": "pmndrs/zustand"})
    anchor = discord_bot.fake.messages[record.original_message_id]
    assert discord_bot.last_bot_message(anchor.id).content.startswith("You said: analyze pmndrs/zustand")


async def test_ask_inside_a_thread_continues_it(discord_bot: DiscordHarness) -> None:
    question = await discord_bot.mention("hello")
    threads_before = len(discord_bot.fake.threads())
    await slash(discord_bot, "ask", {"question": "what next?"}, channel_id=question.id)
    assert len(discord_bot.fake.threads()) == threads_before
    assert discord_bot.last_bot_message(question.id).content.startswith("You said: what next?")
    conversation = await discord_bot.app.store.get(f"discord:7001:{CHANNEL_ID}:{question.id}")
    assert conversation is not None and len(conversation.messages) == 4


async def test_ask_in_a_dm(discord_bot: DiscordHarness) -> None:
    await slash(discord_bot, "ask", {"question": "private question"}, channel_id=DM_CHANNEL_ID)
    assert discord_bot.last_bot_message(DM_CHANNEL_ID).content.startswith("You said: private question")


async def start_research(harness: DiscordHarness, user: int = ALICE) -> tuple[int, StoredMessage]:
    record = await slash(harness, "research", {"goal": "best react state library", "mode": "deep_probe"},
                         user=user)
    thread = record.original_message_id
    assert thread is not None
    plan = harness.last_bot_message(thread)
    assert "Research plan" in plan.content
    return thread, plan


async def test_approval_by_someone_else_is_refused_ephemerally(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    thread, plan = await start_research(discord_bot)
    record = await fake.click(plan.id, button(plan, "Approve")["custom_id"], user=BOB)
    await discord_bot.settle()
    assert record.responses[0][0] == DEFERRED_UPDATE
    assert ephemeral_notes(discord_bot, thread) == [
        "Only the person who started this research can decide on its plan."]
    assert button(fake.messages[plan.id], "Approve")  # the plan still waits for its requester
    assert discord_bot.last_bot_message(thread).id == plan.id  # nothing public was posted


async def test_approval_by_the_requester_runs_and_retires_the_buttons(slow_bot: DiscordHarness) -> None:
    fake = slow_bot.fake
    thread, plan = await start_research(slow_bot)
    await fake.click(plan.id, button(plan, "Approve")["custom_id"], user=ALICE)
    await slow_bot.settle()

    decided = fake.messages[plan.id]
    assert decided.buttons() == []
    assert decided.content.endswith(f"-# ✅ Approved by <@{ALICE}>")
    report = slow_bot.last_bot_message(thread)
    assert report.content.startswith("## Research report")
    assert any(f"Plan approved by <@{ALICE}>" in old for old in report.history)  # the status


async def test_stale_and_double_clicks_are_refused(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    thread, plan = await start_research(discord_bot)
    approve = button(plan, "Approve")["custom_id"]
    await fake.click(plan.id, approve)
    await discord_bot.settle()
    await fake.click(plan.id, approve)  # a second click from a client that still shows it
    await discord_bot.settle()
    assert ephemeral_notes(discord_bot, thread) == [
        "This plan was already decided; use the buttons on the latest plan."]
    reports = [m for m in discord_bot.bot_messages(thread) if "Research report" in m.content]
    assert len(reports) == 1


async def test_revise_opens_a_form_and_posts_a_new_plan(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    thread, plan = await start_research(discord_bot)
    revise, approve = button(plan, "Revise")["custom_id"], button(plan, "Approve")["custom_id"]
    record = await fake.click(plan.id, revise)
    await discord_bot.settle()
    assert record.responses[0][0] == MODAL

    await fake.submit_modal(revise, {"feedback": "only TypeScript"}, channel_id=thread,
                            message_id=plan.id)
    await discord_bot.settle()
    new_plan = discord_bot.last_bot_message(thread)
    assert "v2" in new_plan.content and "only TypeScript" in new_plan.content
    assert fake.messages[plan.id].buttons() == []
    assert "Revision requested" in fake.messages[plan.id].content
    # the old plan's approve is stale now
    await fake.click(plan.id, approve)
    await discord_bot.settle()
    assert "already decided" in ephemeral_notes(discord_bot, thread)[-1]


async def test_cancel_by_the_requester(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    thread, plan = await start_research(discord_bot)
    await fake.click(plan.id, button(plan, "Cancel")["custom_id"])
    await discord_bot.settle()
    assert discord_bot.last_bot_message(thread).content == f"Research cancelled by {ALICE}."
    assert "Cancelled by" in fake.messages[plan.id].content


async def test_approval_after_a_restart(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    thread, plan = await start_research(discord_bot)
    await discord_bot.restart()
    await fake.click(plan.id, button(plan, "Approve")["custom_id"])
    await discord_bot.settle()
    assert discord_bot.last_bot_message(thread).content.startswith("## Research report")


async def test_every_interaction_is_answered_quickly(discord_bot: DiscordHarness) -> None:
    await start_research(discord_bot)
    await slash(discord_bot, "search", {"query": "x"})
    times = [i.answered_after for i in discord_bot.fake.interactions.values()]
    assert times and all(t is not None and t < 1.0 for t in times), times
    assert CHANNEL_ID


async def test_a_resumed_research_report_is_delivered_into_its_conversation(
    discord_bot: DiscordHarness,
) -> None:
    from core.models import ConversationKey, Reply

    question = await discord_bot.mention("hello")
    in_thread = ConversationKey(platform="discord", team="7001", channel=str(CHANNEL_ID),
                                thread=str(question.id))
    await discord_bot.backend.deliver(in_thread, Reply(conversation_id="c", markdown="## Report A"))
    assert discord_bot.last_bot_message(question.id).content == "## Report A"
    in_dm = ConversationKey(platform="discord", channel=str(DM_CHANNEL_ID), thread="dm")
    await discord_bot.backend.deliver(in_dm, Reply(conversation_id="c", markdown="## Report B"))
    assert discord_bot.last_bot_message(DM_CHANNEL_ID).content == "## Report B"
    anchored = await discord_bot.fake.user_message(CHANNEL_ID, "a question answered in place")
    in_place = ConversationKey(platform="discord", team="7001", channel=str(CHANNEL_ID),
                               thread=str(anchored.id))
    await discord_bot.backend.deliver(in_place, Reply(conversation_id="c", markdown="## Report C"))
    report = discord_bot.last_bot_message(CHANNEL_ID)
    assert report.content == "## Report C" and report.reference == anchored.id
