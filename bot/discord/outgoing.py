"""Outgoing Discord messages and Discord's limits: what a message may hold, and packing
sections of text and embeds into as few messages as those limits allow: a short answer is
message text above its embeds; a long one (more text than one message's 2,000 characters)
carries its text in embed descriptions, filling each message's 6,000 embed characters before
starting the next.

Limits: content 2,000 characters; embed title 256, description 4,096, 25 fields, field name 256,
field value 1,024, footer 2,048; 6,000 characters across a message's embeds; 10 embeds per
message (buttons: ``bot.discord.buttons``). Every message goes out with
``AllowedMentions.none()``: answers quote repository descriptions, which must never ping anyone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.discord import buttons as btn
from bot.discord.buttons import ButtonSpec
from bot.rendering import clip, split_markdown

MAX_CONTENT = 2000
MAX_TITLE = 256
MAX_DESCRIPTION = 4096
MAX_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_EMBED_TOTAL = 6000
MAX_EMBEDS = 10
NO_MENTIONS = discord.AllowedMentions.none()
MIN_PROSE = 500  # below this much room left in a message, prose starts the next one
PROSE_COLOUR = discord.Colour(0x2F81F7)

Section = str | discord.Embed  # a run of Markdown, or an embed, in reading order


@dataclass
class Outgoing:
    """One Discord message as we mean to send it (or to edit a message into)."""

    content: str = ""
    embeds: list[discord.Embed] = field(default_factory=list)
    buttons: list[ButtonSpec] = field(default_factory=list)

    def send_kwargs(self) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"content": self.content or None, "embeds": self.embeds,
                                  "allowed_mentions": NO_MENTIONS}
        view = btn.build_view(self.buttons)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Replace everything: content, embeds and buttons (None clears)."""
        return {"content": self.content or None, "embeds": self.embeds,
                "view": btn.build_view(self.buttons), "allowed_mentions": NO_MENTIONS}

    def embed_chars(self) -> int:
        return sum(len(e) for e in self.embeds)


def pack(sections: Sequence[Section], footer: str | None = None, *, in_order: bool = False) -> list[Outgoing]:
    """Sections as messages: one message when they fit (its text above its embeds); otherwise,
    and always with ``in_order``, text in embed descriptions between the embeds around it."""
    sections = [s for s in sections if not isinstance(s, str) or s.strip()]
    if footer:
        if sections and isinstance(sections[-1], discord.Embed):
            sections[-1].set_footer(text=clip(footer, MAX_FOOTER))
        else:
            sections.append(f"-# {' '.join(footer.split())}")
    texts = [s for s in sections if isinstance(s, str)]
    embeds = [fit_embed(s) for s in sections if isinstance(s, discord.Embed)]
    joined = "\n\n".join(texts)
    if (not in_order and len(joined) <= MAX_CONTENT and len(embeds) <= MAX_EMBEDS
            and sum(len(e) for e in embeds) <= MAX_EMBED_TOTAL):
        return [Outgoing(content=joined, embeds=embeds)]  # the common case: one message
    return _in_embeds(sections)


def _in_embeds(sections: Sequence[Section]) -> list[Outgoing]:
    """Text as embed descriptions (4,096 each), every message filled up to 6,000 embed
    characters and 10 embeds, in reading order."""
    messages = [Outgoing()]

    def room() -> int:
        return MAX_EMBED_TOTAL - messages[-1].embed_chars()

    for section in sections:
        if isinstance(section, discord.Embed):
            embed = fit_embed(section)
            if messages[-1].embeds and (len(messages[-1].embeds) >= MAX_EMBEDS or len(embed) > room()):
                messages.append(Outgoing())
            messages[-1].embeds.append(embed)
            continue
        rest = section
        while rest.strip():
            if messages[-1].embeds and (len(messages[-1].embeds) >= MAX_EMBEDS or room() < MIN_PROSE):
                messages.append(Outgoing())
            head, *tail = split_markdown(rest, min(MAX_DESCRIPTION, room()))
            messages[-1].embeds.append(discord.Embed(colour=PROSE_COLOUR, description=head))
            rest = "\n\n".join(tail)
    return [m for m in messages if m.embeds] or [Outgoing(content="…")]


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Clip an embed to Discord's per-embed limits (whatever built it)."""
    if embed.title:
        embed.title = clip(embed.title, MAX_TITLE)
    if embed.description:
        embed.description = clip(embed.description, MAX_DESCRIPTION)
    fields = embed.fields[:MAX_FIELDS]
    embed.clear_fields()
    for f in fields:
        embed.add_field(name=clip(f.name or "\u200b", MAX_FIELD_NAME),
                        value=clip(f.value or "\u200b", MAX_FIELD_VALUE), inline=f.inline)
    if embed.footer and embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, MAX_FOOTER))
    while len(embed) > MAX_EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > MAX_EMBED_TOTAL and embed.description:
        excess = len(embed) - MAX_EMBED_TOTAL
        embed.description = clip(embed.description, max(1, len(embed.description) - excess))
    return embed
