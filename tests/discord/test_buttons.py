"""Buttons: suggestions, clarification options, feedback -- and clicks after a restart."""

from __future__ import annotations

import asyncio

from tests.discord.conftest import DiscordHarness, button
from tests.discord.scripted import LONG_OPTION, LONG_SUGGESTION
from tests.fakes.discord_fake import ALICE, BOB, CHANNEL_ID

UPDATE_MESSAGE, CHANNEL_MESSAGE = 7, 4


def ephemeral_notes(harness: DiscordHarness, channel: int) -> list[str]:
    return [m.content for m in harness.fake.in_channel(channel) if m.ephemeral]


async def test_suggestion_click_continues_the_thread(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("find react state libraries")
    answer = discord_bot.last_bot_message(question.id)
    analyze = button(answer, "Analyze pmndrs/zustand")
    assert analyze["custom_id"] == "omg:s:Analyze pmndrs/zustand"

    record = await fake.click(answer.id, analyze["custom_id"], user=BOB)
    await discord_bot.settle()

    assert record.responses[0][0] == UPDATE_MESSAGE  # answered by updating the message
    clicked = button(fake.messages[answer.id], "Analyze pmndrs/zustand")
    assert clicked["disabled"] is True
    assert button(fake.messages[answer.id], "Compare").get("disabled") is not True
    contents = [m.content for m in discord_bot.bot_messages(question.id)]
    assert contents[-2] == f"<@{BOB}> chose: **Analyze pmndrs/zustand**"
    assert contents[-1].startswith("You said: Analyze pmndrs/zustand")


async def test_double_click_on_a_suggestion_is_refused_ephemerally(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("find react state libraries")
    answer = discord_bot.last_bot_message(question.id)
    custom_id = button(answer, "Analyze pmndrs/zustand")["custom_id"]
    await fake.click(answer.id, custom_id)
    second = await fake.click(answer.id, custom_id)
    await fake.wait_for(lambda: second.responses)  # the gateway frame may take a moment under load
    await discord_bot.settle()

    assert second.responses[0][0] == CHANNEL_MESSAGE
    assert any("already picked" in n for n in ephemeral_notes(discord_bot, question.id))
    chose = [m for m in discord_bot.bot_messages(question.id) if "chose:" in m.content]
    assert len(chose) == 1


async def test_a_suggestion_too_long_for_a_custom_id_still_works(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("find react state libraries")
    answer = discord_bot.last_bot_message(question.id)
    long_button = button(answer, LONG_SUGGESTION[:40])
    assert len(long_button["custom_id"]) <= 100 and long_button["custom_id"].startswith("omg:S:")
    assert len(long_button["label"]) <= 80
    assert any(e.get("title") == "Choices" for e in answer.embeds)

    await fake.click(answer.id, long_button["custom_id"])
    await discord_bot.settle()
    assert discord_bot.bot_messages(question.id)[-1].content.startswith(f"You said: {LONG_SUGGESTION}")


async def test_clarification_options_answer_once(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("something unclear")
    asked = discord_bot.last_bot_message(question.id)
    option = button(asked, LONG_OPTION[:30])
    other = button(asked, "Find react state libraries")

    await fake.click(asked.id, option["custom_id"])
    await discord_bot.settle()
    updated = fake.messages[asked.id]
    options = [b for b in updated.buttons() if b["custom_id"].startswith(("omg:o", "omg:O"))]
    assert options and all(b.get("disabled") for b in options)
    contents = [m.content for m in discord_bot.bot_messages(question.id)]
    assert contents[-2] == f"<@{ALICE}> chose: **{LONG_OPTION}**"
    assert contents[-1].startswith("Found **2** repositories")  # the option ran as a search

    await fake.click(asked.id, other["custom_id"])  # a stale client still showing it enabled
    await discord_bot.settle()
    assert any("already answered" in n for n in ephemeral_notes(discord_bot, question.id))


async def test_feedback_is_thanked_once_per_user(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("hello")
    answer = discord_bot.last_bot_message(question.id)
    helpful = button(answer, "Helpful")["custom_id"]
    await fake.click(answer.id, helpful)
    await fake.click(answer.id, helpful)
    await discord_bot.settle()
    notes = ephemeral_notes(discord_bot, question.id)
    assert notes == ["Thanks for the feedback!", "You already gave feedback on this answer. Thanks!"]


async def test_click_on_a_button_posted_before_a_restart(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("find react state libraries")
    answer = discord_bot.last_bot_message(question.id)
    long_id = button(answer, LONG_SUGGESTION[:40])["custom_id"]
    short_id = button(answer, "Analyze pmndrs/zustand")["custom_id"]

    old_client = discord_bot.backend.client
    await discord_bot.restart()
    assert discord_bot.backend.client is not old_client
    assert len(fake.identifies) == 2

    first = await fake.click(answer.id, short_id, user=ALICE)
    await discord_bot.settle()
    second = await fake.click(answer.id, long_id, user=ALICE)
    await discord_bot.settle()
    assert first.responses and second.responses
    contents = [m.content for m in discord_bot.bot_messages(question.id)]
    assert any(c.startswith("You said: Analyze pmndrs/zustand") for c in contents)
    assert contents[-1].startswith(f"You said: {LONG_SUGGESTION}")
    # and a follow-up message in the thread still needs no mention after the restart
    await discord_bot.say(question.id, "still there?")
    assert discord_bot.bot_messages(question.id)[-1].content.startswith("You said: still there?")


async def test_unknown_custom_ids_are_left_alone(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("hello")
    answer = discord_bot.last_bot_message(question.id)
    fake.messages[answer.id].components.append(
        {"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": "other:1"}]})
    record = await fake.click(answer.id, "other:1")
    await discord_bot.settle()
    assert record.responses == []
    fake.interactions.pop(record.id)  # not ours to answer; keep the 3-second check meaningful
    assert CHANNEL_ID  # the channel itself got nothing
    assert discord_bot.bot_messages(CHANNEL_ID) == []


async def test_buttons_in_a_dm(discord_bot: DiscordHarness) -> None:
    from tests.fakes.discord_fake import DM_CHANNEL_ID

    fake = discord_bot.fake
    await discord_bot.say(DM_CHANNEL_ID, "find react state libraries")
    answer = discord_bot.last_bot_message(DM_CHANNEL_ID)
    await fake.click(answer.id, button(answer, "Analyze pmndrs/zustand")["custom_id"])
    await discord_bot.settle()
    assert discord_bot.last_bot_message(DM_CHANNEL_ID).content.startswith(
        "You said: Analyze pmndrs/zustand")
    conversation = await discord_bot.app.store.get(f"discord:{DM_CHANNEL_ID}:dm")
    assert conversation is not None and len(conversation.messages) == 4


async def test_without_thread_permission_the_answer_comes_in_place(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    fake.deny_threads = True
    question = await discord_bot.mention("hello without threads")
    in_channel = discord_bot.bot_messages(CHANNEL_ID)
    assert "couldn't open a thread" in in_channel[0].content
    answer = in_channel[-1]
    assert answer.content.startswith("You said: hello without threads")
    assert answer.reference == question.id  # replies to the question
    await fake.click(answer.id, button(answer, "What can you do?")["custom_id"])
    await discord_bot.settle()
    assert discord_bot.bot_messages(CHANNEL_ID)[-1].content.startswith("You said: What can you do?")
    key = f"discord:7001:{CHANNEL_ID}:{question.id}"
    conversation = await discord_bot.app.store.get(key)
    assert conversation is not None and len(conversation.messages) == 4


async def test_a_double_clicked_suggestion_is_answered_once(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("find react state libraries")
    answer = discord_bot.last_bot_message(question.id)
    analyze = button(answer, "Analyze pmndrs/zustand")["custom_id"]
    await asyncio.gather(fake.click(answer.id, analyze, user=BOB),
                         fake.click(answer.id, analyze, user=BOB))  # two interactions
    await discord_bot.settle()
    contents = [m.content for m in discord_bot.bot_messages(question.id)]
    assert sum(c.startswith("You said: Analyze pmndrs/zustand") for c in contents) == 1
    assert sum("chose" in c for c in contents) == 1


async def test_without_threads_a_reply_to_the_answer_continues_the_conversation(
    discord_bot: DiscordHarness,
) -> None:
    fake = discord_bot.fake
    fake.deny_threads = True
    question = await discord_bot.mention("hello without threads")
    first = discord_bot.bot_messages(CHANNEL_ID)[-1]
    assert "Reply to my answer" in discord_bot.bot_messages(CHANNEL_ID)[0].content

    await fake.user_message(CHANNEL_ID, "and what can you do?", reply_to=first.id)
    await discord_bot.settle()
    second = discord_bot.bot_messages(CHANNEL_ID)[-1]
    assert second.content.startswith("You said: and what can you do?")
    assert second.reference == question.id  # still anchored at the question

    await fake.user_message(CHANNEL_ID, "thanks", reply_to=second.id)  # further down the chain
    await discord_bot.settle()
    assert discord_bot.bot_messages(CHANNEL_ID)[-1].content.startswith("You said: thanks")
    conversation = await discord_bot.app.store.get(f"discord:7001:{CHANNEL_ID}:{question.id}")
    assert conversation is not None and len(conversation.messages) == 6
    await fake.user_message(CHANNEL_ID, "people talking", reply_to=question.id)  # not to the bot
    await discord_bot.settle()
    assert len((await discord_bot.app.store.get(f"discord:7001:{CHANNEL_ID}:{question.id}")).messages) == 6
