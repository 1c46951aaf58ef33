"""Delivering an answer with Slack's native message streaming, or by posting where it is refused.

``chat.startStream`` / ``chat.appendStream`` / ``chat.stopStream`` (through slack_sdk's
``chat_stream`` helper) write the answer's Markdown into one message as it is sent, and the final
``stopStream`` attaches the blocks that follow an answer (buttons, feedback, footer). Streaming
exists for replies to a person's message (assistant threads, and channels when the recipient is
named); where Slack refuses it the same reply is posted as ordinary Block Kit messages.
"""

from __future__ import annotations

import logging

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.slack import render
from bot.slack.api import SlackApi
from bot.slack.blockkit import MAX_BLOCKS
from core.models import Reply

log = logging.getLogger("omg.slack.stream")

STREAM_BUFFER = 1024  # characters buffered between appendStream calls
STREAM_PIECE = 600  # the answer is appended in slices of this size (appendStream takes 12,000)


async def stream_reply(
    client: AsyncWebClient,
    *,
    channel: str,
    thread_ts: str,
    reply: Reply,
    team: str | None = None,
    user: str | None = None,
) -> None:
    """Stream ``reply`` into the thread; raises ``SlackApiError`` when Slack refuses to stream."""
    stream = await client.chat_stream(channel=channel, thread_ts=thread_ts, buffer_size=STREAM_BUFFER,
                                      recipient_team_id=team, recipient_user_id=user)
    markdown = reply.markdown.strip() or "…"
    for start in range(0, len(markdown), STREAM_PIECE):  # slices: concatenated, they are the text
        await stream.append(markdown_text=markdown[start : start + STREAM_PIECE])
    trailing = render.trailing_blocks(reply)[:MAX_BLOCKS]
    await stream.stop(blocks=trailing or None)


async def deliver(
    api: SlackApi,
    *,
    channel: str,
    thread_ts: str,
    reply: Reply,
    team: str | None = None,
    user: str | None = None,
) -> bool:
    """Stream the reply where Slack allows it, else post it; True when it was streamed."""
    try:
        await stream_reply(api.client, channel=channel, thread_ts=thread_ts, reply=reply,
                           team=team, user=user)
        return True
    except SlackApiError as exc:
        error = exc.response.get("error") if exc.response is not None else None
        log.info("streaming refused, posting instead", extra={"error": error})
    for message in render.render_reply(reply):
        await api.post(channel, message, thread_ts=thread_ts)
    return False
