"""Conversations through the real discord.py client: mentions open threads, threads continue,
DMs are conversations, bots are ignored, progress edits one status message."""

from __future__ import annotations

from tests.discord.conftest import DiscordHarness
from tests.discord.scripted import LONG_ANSWER_CHARS
from tests.fakes.discord_fake import ALICE, BOB, BOT_ID, CHANNEL_ID, DM_CHANNEL_ID


async def test_mention_opens_a_thread_named_after_the_question_and_answers_there(
    slow_bot: DiscordHarness,
) -> None:
    fake = slow_bot.fake
    question = await slow_bot.mention("find react state management libraries")

    thread = fake.channels[question.id]
    assert thread["name"] == "find react state management libraries"
    assert thread["parent_id"] == str(CHANNEL_ID)
    assert slow_bot.bot_messages(CHANNEL_ID) == []  # nothing in the channel itself
    answers = slow_bot.bot_messages(question.id)
    assert len(answers) == 1, [m.content for m in answers]
    status = answers[0]
    # the status message was edited with progress (paced), then replaced by the answer
    assert len(status.channel_edits) >= 2
    assert "Found **2** repositories" in status.content
    embed = status.embeds[0]
    assert [f["name"] for f in embed["fields"]] == ["1. pmndrs/zustand", "2. pmndrs/jotai"]
    labels = [b["label"] for b in status.buttons()]
    assert labels[:2] == ["Analyze pmndrs/zustand", "Compare pmndrs/zustand vs pmndrs/jotai"]
    assert "Helpful" in labels and "Wrong answer" in labels
    key = f"discord:{fake.channels[question.id]['guild_id']}:{CHANNEL_ID}:{question.id}"
    assert await slow_bot.app.store.get(key) is not None
    edits = [c for c in fake.calls_to("PATCH /channels/{cid}/messages/{mid}")]
    assert all(c.body.get("allowed_mentions") == {"parse": []} for c in edits)


async def test_status_shows_progress_steps_before_the_answer(slow_bot: DiscordHarness) -> None:
    fake = slow_bot.fake
    await fake.user_message(CHANNEL_ID, "find state libs", mention_bot=True)
    status = await fake.wait_for(lambda: [m for m in fake.messages.values()
                                          if m.by_bot and m.channel_edits and "⏳" in m.content])
    assert "⏳" in status[0].content
    await slow_bot.settle()


async def test_follow_up_in_the_thread_needs_no_mention(discord_bot: DiscordHarness) -> None:
    question = await discord_bot.mention("hello there")
    await discord_bot.say(question.id, "and how are you?")

    contents = [m.content for m in discord_bot.bot_messages(question.id)]
    assert contents[-1].startswith("You said: and how are you?")
    conversation = await discord_bot.app.store.get(f"discord:7001:{CHANNEL_ID}:{question.id}")
    assert conversation is not None and len(conversation.messages) == 4


async def test_plain_channel_messages_and_bots_are_ignored(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    await discord_bot.say(CHANNEL_ID, "just chatting, no mention")
    await fake.user_message(CHANNEL_ID, "a bot mentioning us", mention_bot=True,
                            from_bot={"id": "4242", "username": "otherbot", "discriminator": "0",
                                      "avatar": None, "bot": True, "global_name": None})
    await discord_bot.settle()
    assert [m for m in fake.messages.values() if m.by_bot] == []
    assert fake.threads() == []


async def test_a_thread_the_bot_is_not_part_of_is_ignored_without_a_mention(
    discord_bot: DiscordHarness,
) -> None:
    fake = discord_bot.fake
    other = await fake.user_message(CHANNEL_ID, "people talking")
    thread = {**fake.channels[CHANNEL_ID], "id": str(other.id), "type": 11,
              "parent_id": str(CHANNEL_ID), "owner_id": str(BOB), "name": "people",
              "message_count": 0, "member_count": 2,
              "thread_metadata": {"archived": False, "auto_archive_duration": 60,
                                  "archive_timestamp": "2026-01-01T00:00:00+00:00", "locked": False}}
    fake.channels[other.id] = thread
    await fake.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
    await discord_bot.say(other.id, "nobody asked the bot")
    assert discord_bot.bot_messages(other.id) == []
    await discord_bot.mention("now we ask", channel=other.id)
    assert discord_bot.bot_messages(other.id)[-1].content.startswith("You said: now we ask")
    await discord_bot.say(other.id, "and a follow-up")  # the bot takes part now
    assert discord_bot.bot_messages(other.id)[-1].content.startswith("You said: and a follow-up")


async def test_dm_is_a_conversation(discord_bot: DiscordHarness) -> None:
    await discord_bot.say(DM_CHANNEL_ID, "hi in private")
    await discord_bot.say(DM_CHANNEL_ID, "second message")
    contents = [m.content for m in discord_bot.bot_messages(DM_CHANNEL_ID)]
    assert contents[0].startswith("You said: hi in private")
    assert contents[-1].startswith("You said: second message")
    conversation = await discord_bot.app.store.get(f"discord:{DM_CHANNEL_ID}:dm")
    assert conversation is not None and len(conversation.messages) == 4


async def test_over_long_answer_fills_embeds_and_tables_become_code_blocks(
    discord_bot: DiscordHarness,
) -> None:
    question = await discord_bot.mention("long answer please")
    parts = discord_bot.bot_messages(question.id)
    assert len(parts) == 2  # 9,000 characters: 6,000 of embeds per message
    descriptions = [e["description"] for p in parts for e in p.embeds]
    assert all(len(d) <= 4096 and d.count("```") % 2 == 0 for d in descriptions)
    assert all(sum(len(e.get("description", "")) for e in p.embeds) <= 6000 for p in parts)
    assert "| Repo |" not in descriptions[0] and "```\nRepo" in descriptions[0]
    assert parts[-1].buttons() and not any(p.buttons() for p in parts[:-1])
    assert sum(len(d) for d in descriptions) >= LONG_ANSWER_CHARS * 0.95  # nothing lost


async def test_repository_text_cannot_ping_or_inject_markdown(discord_bot: DiscordHarness) -> None:
    question = await discord_bot.mention("find libs")
    answer = discord_bot.bot_messages(question.id)[0]
    card = answer.embeds[0]["fields"][0]["value"]
    assert "\\*\\*bold\\*\\*" in card
    sends = [c for c in discord_bot.fake.calls
             if c.route.startswith(("POST /channels", "PATCH /channels")) and c.body
             and ("content" in c.body or "embeds" in c.body)]
    assert sends and all(c.body.get("allowed_mentions") == {"parse": []} for c in sends)


async def test_bot_ignores_its_own_messages(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("hello")
    count = len(discord_bot.bot_messages(question.id))
    await fake.user_message(question.id, f"<@{BOT_ID}> echo", from_bot=fake.bot)
    await discord_bot.settle()
    assert len(discord_bot.bot_messages(question.id)) == count + 1  # only the injected one


async def test_second_user_joins_the_thread(discord_bot: DiscordHarness) -> None:
    question = await discord_bot.mention("hello", user=ALICE)
    await discord_bot.say(question.id, "me too", user=BOB)
    assert discord_bot.bot_messages(question.id)[-1].content.startswith("You said: me too")


async def test_mentioning_the_bots_role_counts_as_a_mention(discord_bot: DiscordHarness) -> None:
    fake = discord_bot.fake
    question = await fake.user_message(CHANNEL_ID, "hello via the role", mention_role=True)
    await discord_bot.settle()
    assert fake.channels[question.id]["name"] == "hello via the role"
    assert discord_bot.last_bot_message(question.id).content.startswith("You said: hello via the role")


async def test_a_thread_missing_from_the_cache_after_a_restart_is_looked_up(
    discord_bot: DiscordHarness,
) -> None:
    fake = discord_bot.fake
    question = await discord_bot.mention("hello before the restart")
    fake.channels[question.id]["thread_metadata"]["archived"] = True  # not sent on reconnect
    await discord_bot.restart()
    client = discord_bot.backend.client
    assert client is not None and client.get_channel(question.id) is None
    await discord_bot.say(question.id, "and after it")
    assert discord_bot.last_bot_message(question.id).content.startswith("You said: and after it")
    assert len(fake.calls_to("GET /channels/{cid}")) == 1
