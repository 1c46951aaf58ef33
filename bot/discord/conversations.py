"""Discord's words for the routing decision (``bot.routing``), and what new threads are called.

A plain channel has threads; a voice channel's chat or an unknown channel type ("other") has
not, so a mention there is answered in place. A thread counts only with its parent channel known
(``ChatMessage.place``). Bots, webhooks and system messages are dropped before routing.
"""

from __future__ import annotations

import re

from bot.discord.payloads import ChatMessage
from bot.routing import Arrival, Space

MAX_THREAD_NAME = 100
_MARKUP = re.compile(r"<[@#][!&]?\d+>|<a?:\w+:\d+>|[*_~`|>#]+")


def arrival_of(message: ChatMessage) -> Arrival:
    space: Space = message.kind
    if space == "thread" and not message.parent_id:
        space = "other"
    return Arrival(
        space=space, mentioned=message.mentions_bot, reply_to_bot=message.reply_anchor is not None,
        addressed_elsewhere=message.mentions_others and not message.mentions_bot,
    )


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
