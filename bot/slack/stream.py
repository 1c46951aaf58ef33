"""Delivering an answer with Slack's native message streaming, where Slack allows it.

``chat.startStream`` / ``chat.appendStream`` / ``chat.stopStream`` (through slack_sdk's
``chat_stream`` helper) write the answer's Markdown into one message as it is sent; the final
``stopStream`` attaches the blocks that follow it: a comparison's table block, then buttons,
feedback and the footer. Streams are replies to a person: in a DM or an assistant thread as is,
in a channel's thread with the recipient named (their user and team ids).

A reply streams when it fits one message and needs no blocks of its own above its end: a plan
(its buttons are edited away once decided) and a research report (a header, context blocks,
several messages) are posted as Block Kit instead. Where Slack refuses, the caller posts.
"""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.rendering import is_plan
from bot.slack import render
from bot.slack.blockkit import MAX_BLOCKS, MAX_MARKDOWN_TEXT, Block
from core.models import ConversationKey, Reply, ReportSection, TableSection, to_markdown

log = logging.getLogger("omg.slack.stream")

STREAM_BUFFER = 1024  # characters buffered between appendStream calls
STREAM_PIECE = 600  # the answer is appended in slices of this size (appendStream takes 12,000)


def streamed(reply: Reply) -> tuple[str, list[Block]] | None:
    """(the Markdown to stream, the blocks to stop with), or None when the reply is posted instead."""
    if is_plan(reply) or any(isinstance(s, ReportSection) for s in reply.document):
        return None
    table = next((s for s in reply.document if isinstance(s, TableSection)), None)
    markdown = to_markdown([s for s in reply.document if s is not table]).strip() or "…"
    blocks = (render.table_blocks(table) if table else []) + render.trailing_blocks(reply)
    if len(markdown) > MAX_MARKDOWN_TEXT or len(blocks) > MAX_BLOCKS:
        return None
    return markdown, blocks


async def stream_reply(client: AsyncWebClient, place: ConversationKey, reply: Reply, user: str) -> bool:
    """Stream ``reply`` into the thread; False when it is not for streaming or Slack refused (a
    stream refused half-way is deleted, so the caller's post is the only answer)."""
    parts = streamed(reply)
    if parts is None:
        return False
    markdown, blocks = parts
    stream = await client.chat_stream(channel=place.channel, thread_ts=place.thread, buffer_size=STREAM_BUFFER,
                                      recipient_team_id=place.team, recipient_user_id=user or None)
    try:
        for start in range(0, len(markdown), STREAM_PIECE):  # slices: concatenated, they are the text
            await stream.append(markdown_text=markdown[start : start + STREAM_PIECE])
        await stream.stop(blocks=blocks or None)
        return True
    except SlackApiError as exc:
        log.info("streaming refused, posting instead", extra={"error": exc.response.get("error")})
        if stream.ts is not None:
            try:
                await client.chat_delete(channel=place.channel, ts=stream.ts)
            except SlackApiError:
                log.info("could not delete a broken stream")
        return False
