"""The one routing decision of the chat adapters: does a message start or continue a
conversation, and where is it answered?

Each adapter describes what arrived in neutral terms (``Arrival``) after dropping what no person
wrote (bots, the bot itself, system notices); ``route`` decides the same way for every platform:

* a DM: always, in the DM (one conversation per DM channel);
* a reply to one of the bot's answers outside a thread (where no thread could be opened, Discord):
  continues that answer's conversation, in place;
* a message in a thread: when it mentions the bot, or when the bot takes part in the thread and
  the message is not addressed to someone else;
* a mention in a channel: starts a conversation in a thread from the message; where threads do
  not exist (Discord's voice-channel chats and other channel types), answered in place;
* anything else: ignored.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict

Space = Literal["dm", "thread", "channel", "other"]


class Where(Enum):
    IGNORE = "ignore"
    HERE = "here"  # continue the DM's or the thread's conversation
    NEW_THREAD = "new_thread"  # a new conversation, in a thread from this message
    IN_PLACE = "in_place"  # a new conversation, answered beside the message in the channel
    REPLY_CHAIN = "reply_chain"  # continue the in-channel conversation a reply points into


class Arrival(BaseModel):
    model_config = ConfigDict(frozen=True)

    space: Space
    mentioned: bool
    reply_to_bot: bool = False
    addressed_elsewhere: bool = False  # it mentions other people and not the bot


async def route(arrival: Arrival, participates: Callable[[], Awaitable[bool]]) -> Where:
    """``participates`` (whether the bot takes part in the thread) is asked only when needed: it
    may cost a store or platform look-up."""
    if arrival.space == "dm":
        return Where.HERE
    if arrival.reply_to_bot and arrival.space in ("channel", "other"):
        return Where.REPLY_CHAIN
    if arrival.space == "thread":
        if arrival.mentioned:
            return Where.HERE
        if arrival.addressed_elsewhere:
            return Where.IGNORE
        return Where.HERE if await participates() else Where.IGNORE
    if not arrival.mentioned:
        return Where.IGNORE
    return Where.NEW_THREAD if arrival.space == "channel" else Where.IN_PLACE
