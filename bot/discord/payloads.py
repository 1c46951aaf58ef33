"""Typed views of what Discord sends us, kept apart from discord.py objects and domain models.

discord.py hands the adapter rich objects (``Message``, ``Interaction``); the rest of the adapter
works on these small frozen models instead, so routing rules are testable without a gateway and
nothing below this module depends on discord.py's caching (a thread missing from the cache after a
restart is just a ``thread`` with no known owner).
"""

from __future__ import annotations

import re
from typing import Literal

import discord
from pydantic import BaseModel, ConfigDict

from core.models import ConversationKey

ChannelKind = Literal["dm", "channel", "thread", "other"]

_TEXT_CHANNELS = (discord.ChannelType.text, discord.ChannelType.news)
_THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread,
            discord.ChannelType.news_thread)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Author(Frozen):
    id: str
    name: str
    bot: bool = False


class Place(Frozen):
    """Where a conversation lives: a thread of a guild channel, or a DM channel.

    ``inline`` is the fallback where no thread could be opened (missing permission, a channel
    without threads): the conversation is anchored at the question's message id (``thread``)
    and the bot answers in the channel itself, replying to that message.
    """

    guild: str | None
    channel: str  # the thread's parent channel, or the DM channel
    thread: str | None = None  # None in a DM
    inline: bool = False

    @property
    def post_to(self) -> int:
        """The channel id messages are sent to (the thread itself, or the DM / the channel)."""
        return int(self.channel if self.inline or not self.thread else self.thread)

    @property
    def key(self) -> ConversationKey:
        return ConversationKey(platform="discord", team=self.guild, channel=self.channel,
                               thread=self.thread or "dm")


def place_in(
    kind: ChannelKind, guild_id: str | None, channel_id: str, parent_id: str | None
) -> Place | None:
    """The conversation of a DM or a thread channel (None in a plain channel)."""
    if kind == "dm":
        return Place(guild=None, channel=channel_id)
    if kind == "thread" and parent_id:
        return Place(guild=guild_id, channel=parent_id, thread=channel_id)
    return None


class ChatMessage(Frozen):
    id: str
    channel_id: str
    guild_id: str | None
    kind: ChannelKind
    parent_id: str | None = None  # for a thread
    thread_owner_id: str | None = None  # None when the thread is not in the cache
    author: Author
    content: str
    mentions_bot: bool = False
    bot_roles: tuple[str, ...] = ()  # the bot's own role, when that was mentioned instead
    system: bool = False  # joins, pins, thread-created notices...
    # a reply to one of the bot's messages in a channel: the question message that anchors that
    # in-channel conversation (the bot's answers there reply to it; see ``Place.inline``)
    reply_anchor: str | None = None
    mentions_others: bool = False  # it mentions people other than the bot

    def place(self) -> Place | None:
        """The conversation this message belongs to as it stands (None in a plain channel)."""
        return place_in(self.kind, self.guild_id, self.channel_id, self.parent_id)

    def thread_place(self) -> Place:
        """The conversation a new thread started from this message would be."""
        return Place(guild=self.guild_id, channel=self.channel_id, thread=self.id)


class CommandCall(Frozen):
    interaction_id: str
    name: str
    user: Author
    guild_id: str | None
    channel_id: str
    kind: ChannelKind
    parent_id: str | None = None

    def place(self) -> Place | None:
        return place_in(self.kind, self.guild_id, self.channel_id, self.parent_id)


# -- from discord.py objects -----------------------------------------------------------------------


def author_of(user: discord.abc.User) -> Author:
    return Author(id=str(user.id), name=user.display_name, bot=user.bot)


Channel = discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | discord.PartialMessageable


def _channel_facts(channel: Channel | None, guild_id: int | None) -> tuple[ChannelKind, str | None, str | None]:
    """(kind, parent id, thread owner id) of a channel discord.py resolved, partially or not (a
    ``PartialMessageable`` of a guild is "other" until fetched: ``MessageListener._resolve``)."""
    ctype = channel.type if channel is not None else None
    if guild_id is None or isinstance(channel, discord.abc.PrivateChannel) or ctype is discord.ChannelType.private:
        return "dm", None, None
    if isinstance(channel, discord.Thread):
        return "thread", str(channel.parent_id), str(channel.owner_id) if channel.owner_id else None
    if ctype in _THREADS:
        return "thread", None, None
    return ("channel" if ctype in _TEXT_CHANNELS else "other"), None, None


def chat_message(message: discord.Message, bot_id: int | None) -> ChatMessage:
    channel = message.channel
    guild_id = message.guild.id if message.guild else (
        channel.guild_id if isinstance(channel, discord.PartialMessageable) else None)
    kind, parent, owner = _channel_facts(message.channel, guild_id)
    mentioned = bot_id is not None and (
        any(u.id == bot_id for u in message.mentions) or f"<@{bot_id}>" in message.content
        or f"<@!{bot_id}>" in message.content)
    # people often pick the bot's managed role from the autocomplete instead of the bot itself
    roles = tuple(str(r.id) for r in message.role_mentions
                  if bot_id is not None and r.tags is not None and r.tags.bot_id == bot_id)
    return ChatMessage(
        reply_anchor=_reply_anchor(message, bot_id),
        mentions_others=any(u.id != bot_id for u in message.mentions),
        id=str(message.id), channel_id=str(message.channel.id),
        guild_id=str(guild_id) if guild_id else None, kind=kind, parent_id=parent,
        thread_owner_id=owner, author=author_of(message.author), content=message.content,
        mentions_bot=mentioned or bool(roles), bot_roles=roles,
        system=message.type not in (discord.MessageType.default, discord.MessageType.reply),
    )


def _reply_anchor(message: discord.Message, bot_id: int | None) -> str | None:
    """Follow a reply chain one step: a reply to the bot's answer continues the conversation that
    answer belongs to, anchored at the message the answer itself replies to (or, for a command's
    follow-up, which replies to nothing, at the bot's message itself). Stateless: Discord sends
    the replied-to message, with its own reference, inside the reply."""
    reference = message.reference
    replied = reference.resolved if reference is not None else None
    if bot_id is None or not isinstance(replied, discord.Message) or replied.author.id != bot_id:
        return None
    inner = replied.reference
    return str(inner.message_id) if inner is not None and inner.message_id else str(replied.id)


def interaction_place(interaction: discord.Interaction) -> Place | None:
    channel = interaction.channel
    if channel is None:
        return None
    kind, parent, _ = _channel_facts(channel, interaction.guild_id)
    gid = str(interaction.guild_id) if interaction.guild_id else None
    place = place_in(kind, gid, str(channel.id), parent)
    if place is not None:
        return place
    reference = interaction.message.reference if interaction.message is not None else None
    if kind == "channel" and reference is not None and reference.message_id:
        # a button on an answer given in the channel itself (no thread could be opened)
        return Place(guild=gid, channel=str(channel.id), thread=str(reference.message_id),
                     inline=True)
    return None


def command_of(interaction: discord.Interaction, name: str) -> CommandCall:
    channel = interaction.channel
    kind, parent, _ = _channel_facts(channel, interaction.guild_id)
    return CommandCall(
        interaction_id=str(interaction.id), name=name, user=author_of(interaction.user),
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        channel_id=str(interaction.channel_id), kind=kind, parent_id=parent,
    )


_MENTION = re.compile(r"<@(!|&)?(\d+)>")


def without_bot_mention(content: str, bot_id: int | None, roles: tuple[str, ...] = ()) -> str:
    """The question without the bot's mention tokens, user or role (other mentions are kept)."""
    def strip(match: re.Match[str]) -> str:
        is_role = match.group(1) == "&"
        ours = match.group(2) in roles if is_role else match.group(2) == str(bot_id)
        return "" if ours else match.group(0)

    return re.sub(r"[ \t]{2,}", " ", _MENTION.sub(strip, content)).strip()
