"""Slack's side of the adapter kernel (``bot.turns.Platform``): how a turn shows in a thread.

A conversation's place on Slack is its ``ConversationKey`` (team, channel, thread ts). The
status message is posted in the thread and edited through the paced editor; the answer takes
its place. Notes for one person only go through ``chat.postEphemeral``.
"""

from __future__ import annotations

import logging

from bot.slack import render
from bot.slack.api import SlackApi, SlackCallFailed
from bot.slack.blockkit import SlackMessage
from bot.progress import MessageRef
from bot.slack.progress import AssistantStatus, TurnProgress
from core.pacing.editor import CoalescingEditor
from core.models import ActionKind, ConversationKey

log = logging.getLogger("omg.slack")


def conversation_key(team: str | None, channel: str, thread_ts: str) -> ConversationKey:
    return ConversationKey(platform="slack", team=team or None, channel=channel, thread=thread_ts)


class SlackPlatform:
    def __init__(
        self, *, api: SlackApi, editor: CoalescingEditor[MessageRef[str], SlackMessage],
        assistant: AssistantStatus | None,
    ) -> None:
        self.api = api
        self.editor = editor
        self.assistant = assistant

    def key(self, place: ConversationKey) -> ConversationKey:
        return place

    def stream(self, place: ConversationKey, *, first_line: str, users: tuple[str, ...] = ()) -> TurnProgress:
        return TurnProgress(api=self.api, editor=self.editor, assistant=self.assistant, place=place,
                            user=users[0] if users else None, first_line=first_line)

    def chose(self, user: str, value: str) -> SlackMessage:
        return render.chose(user, value)

    async def post(self, place: ConversationKey, message: SlackMessage) -> None:
        try:
            await self.api.post(place.channel, message, thread_ts=place.thread)
        except SlackCallFailed as exc:
            log.warning("could not post a note", extra={"error": str(exc)})

    async def ephemeral(self, place: ConversationKey, user: str, markdown: str) -> None:
        try:
            await self.api.ephemeral(
                place.channel, user, render.markdown_note(markdown), thread_ts=place.thread
            )
        except SlackCallFailed as exc:
            log.warning("ephemeral note failed", extra={"error": str(exc)})

    async def mark_decided(
        self, plan: SlackMessage | None, ref: MessageRef[str], kind: ActionKind, user: str
    ) -> None:
        """The plan message after a decision: its buttons replaced by who decided what (through
        the editor: the plan may have been edited in a moment ago)."""
        if plan is None:
            return
        blocks = render.decided(plan.blocks, kind, user)
        await self.editor.finish(ref, plan.model_copy(update={"blocks": blocks}))
