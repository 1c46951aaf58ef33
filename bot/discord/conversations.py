"""Which Discord messages start or continue a conversation, and what new threads are called.

* a DM: always (one conversation per DM channel);
* a message in a plain channel: only when it mentions the bot -- a thread is opened from it;
* a message in a thread: when it mentions the bot, or when the bot takes part in the thread
  (it created the thread, or the thread's conversation is in the store);
* a mention where no thread can be opened (a voice channel's chat, an unknown channel type):
  answered in place, replying to the message;
* a reply to one of the bot's answers outside a thread (where no thread could be opened): it
  continues that answer's conversation in place, with or without a mention;
* never: bots (the bot itself included), webhooks, system messages.
"""

from __future__ import annotations

import re
from enum import Enum

from bot.discord.payloads import ChatMessage

MAX_THREAD_NAME = 100
_MARKUP = re.compile(r"<[@#][!&]?\d+>|<a?:\w+:\d+>|[*_~`|>#]+")


class Route(Enum):
    IGNORE = "ignore"
    DM = "dm"  # continue the DM's conversation
    THREAD = "thread"  # continue (or start) the thread's conversation
    NEW_THREAD = "new_thread"  # open a thread from this message
    IN_PLACE = "in_place"  # answer right there, replying to the message
    REPLY_CHAIN = "reply_chain"  # continue an in-channel conversation a reply points into


def route(message: ChatMessage, *, participates: bool) -> Route:
    if message.author.bot or message.system:
        return Route.IGNORE
    if message.kind == "dm":
        return Route.DM
    if message.kind in ("channel", "other") and message.reply_anchor and message.guild_id:
        return Route.REPLY_CHAIN
    if message.kind == "thread" and message.parent_id:
        return Route.THREAD if message.mentions_bot or participates else Route.IGNORE
    if message.kind == "channel" and message.mentions_bot:
        return Route.NEW_THREAD
    if message.kind == "other" and message.mentions_bot and message.guild_id:
        return Route.IN_PLACE
    return Route.IGNORE


def thread_name(question: str, fallback: str = "Question") -> str:
    """A thread title from the question: plain words, at most 100 characters, cut at a word."""
    text = " ".join(_MARKUP.sub(" ", question).split())
    if not text:
        return fallback[:MAX_THREAD_NAME]
    if len(text) <= MAX_THREAD_NAME:
        return text
    cut = text.rfind(" ", 0, MAX_THREAD_NAME - 1)
    cut = cut if cut >= MAX_THREAD_NAME // 2 else MAX_THREAD_NAME - 1
    return text[:cut].rstrip(" ,.;:-") + "…"
