"""The work behind each acknowledged Slack request: call the core, show progress, answer.

Thin on purpose: a message, a click or a command becomes one ``BotService`` call; its ``Reply``
becomes Slack messages through ``render``. Duplicates are dropped before anything is posted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.slack import render
from bot.slack.api import SlackApi, SlackCallFailed
from bot.slack.blockkit import SlackMessage
from bot.slack.mrkdwn import to_mrkdwn
from bot.slack.progress import AssistantStatus, StatusRef, ThreadRef, TurnProgress
from bot.slack.threads import ThreadIndex, conversation_key
from bot.throttle import CoalescingEditor
from bot.turns import CoreCall, answer, reply_of
from core.coordinator import IncomingMessage
from core.models import ActionKind, ConversationKey, ProgressSink, Reply, null_sink
from core.service import ActionClick, BotService
from core.store.base import EventDeduper

log = logging.getLogger("omg.slack")

DEDUPE_TTL = 3600.0  # Slack retries within minutes; a click's id never repeats


@dataclass(frozen=True, slots=True)
class Place:
    """A thread in a workspace: where a conversation lives and the bot answers."""

    team: str | None
    channel: str
    thread_ts: str

    @property
    def key(self) -> ConversationKey:
        return conversation_key(self.team, self.channel, self.thread_ts)

    @property
    def thread(self) -> ThreadRef:
        return ThreadRef(self.channel, self.thread_ts)


class Turns:
    def __init__(
        self,
        *,
        service: BotService,
        deduper: EventDeduper,
        api: SlackApi,
        editor: CoalescingEditor,
        assistant: AssistantStatus | None,
        threads: ThreadIndex,
    ) -> None:
        self.service = service
        self.deduper = deduper
        self.api = api
        self.editor = editor
        self.assistant = assistant
        self.threads = threads

    async def first_time(self, *keys: str) -> bool:
        """False when any of these delivery ids was seen before (a retry or a twin event)."""
        for key in keys:
            if not await self.deduper.first_time(f"slack:{key}", DEDUPE_TTL):
                return False
        return True

    def progress(self, place: Place, first_line: str = "Working on it…") -> TurnProgress:
        return TurnProgress(
            api=self.api, editor=self.editor, assistant=self.assistant, thread=place.thread,
            first_line=first_line,
        )

    async def run(self, place: Place, call: CoreCall) -> Reply | None:
        """Run one core call with a status message in ``place`` and deliver its reply."""
        return await answer(self.progress(place), call, render.render_reply,
                            conversation_id=place.key.conversation_id, log=log)

    async def _call(self, place: Place, call: CoreCall, progress: ProgressSink) -> Reply:
        return await reply_of(call, progress, conversation_id=place.key.conversation_id, log=log)

    # -- the three kinds of work ---------------------------------------------------------------

    async def message(self, place: Place, text: str, user: str) -> None:
        self.threads.remember(place.key)
        await self.run(place, lambda progress: self.service.handle_message(
            IncomingMessage(key=place.key, text=text, author=user), progress))

    async def suggestion(self, place: Place, click: ActionClick) -> None:
        """A suggestion or option button: continues the thread as if the clicker typed it."""
        chose = render.chose(click.user, click.value)
        await self.api.post(place.channel, chose, thread_ts=place.thread_ts)
        await self.run(place, lambda progress: self.service.handle_action(click, progress))

    async def decision(
        self, place: Place, click: ActionClick, plan: SlackMessage | None, plan_ts: str
    ) -> None:
        """Approve / Revise / Cancel: refusals go to the clicker only; the plan loses its
        buttons once decided."""
        progress = self.progress(place, "Working on the plan…")
        reply = await self._call(place, lambda p: self.service.handle_action(click, p), progress)
        if reply.duplicate:
            await progress.abandon()
            return
        if reply.error is not None:
            await progress.abandon()
            await self.ephemeral(place, click.user, reply.markdown)
            return
        if plan is not None:
            blocks = render.decided(plan.blocks, click.kind, click.user)
            decided = plan.model_copy(update={"blocks": blocks})
            try:  # through the editor: the plan may have been posted (edited in) a moment ago
                await self.editor.finish(StatusRef(place.channel, plan_ts), decided)
            except Exception as exc:  # noqa: BLE001 - the decision stands either way
                log.info("could not update the plan message", extra={"error": repr(exc)})
        await progress.deliver(render.render_reply(reply))

    async def feedback(self, place: Place, click: ActionClick, classification: dict) -> None:
        log.info(
            "answer feedback",
            extra={
                "conversation_id": place.key.conversation_id,
                "user": click.user,
                "verdict": click.value,
                "classification": classification,
            },
        )
        reply = await self._call(place, lambda p: self.service.handle_action(click, p), null_sink)
        if not reply.duplicate:
            await self.ephemeral(place, click.user, reply.markdown or "Thanks for the feedback!")

    async def ephemeral(self, place: Place, user: str, markdown: str) -> None:
        try:
            await self.api.ephemeral(
                place.channel, user, render.note(to_mrkdwn(markdown)), thread_ts=place.thread_ts
            )
        except SlackCallFailed as exc:
            log.warning("ephemeral note failed", extra={"error": str(exc)})


def click_of(place: Place, kind: ActionKind, value: str, user: str) -> ActionClick:
    return ActionClick(key=place.key, kind=kind, value=value, user=user)
