"""Slack's AI-app surface through bolt's ``AsyncAssistant``: assistant threads (the AI apps panel
and the app's DM threads).

- ``assistant_thread_started``: suggested prompts.
- ``assistant_thread_context_changed``: the channel the user is looking at is kept per thread
  (``ThreadContexts``; bolt's default handler saves it there).
- a user's message: the thread gets a title from its first question, a status with loading
  messages while the core works (its progress steps become the status), and the answer is
  streamed natively (``bot.slack.stream``), with feedback buttons at its foot.

Like every listener, these return at once (bolt acknowledges when they do); the work runs in a
tracked task. Messages outside assistant threads never reach this module.
"""

from __future__ import annotations

import logging
from typing import Any

from slack_bolt.context.assistant.thread_context import AssistantThreadContext
from slack_bolt.context.assistant.thread_context_store.async_store import AsyncAssistantThreadContextStore
from slack_bolt.context.set_status.async_set_status import AsyncSetStatus
from slack_bolt.context.set_suggested_prompts.async_set_suggested_prompts import AsyncSetSuggestedPrompts
from slack_bolt.context.set_title.async_set_title import AsyncSetTitle
from slack_bolt.middleware.assistant.async_assistant import AsyncAssistant
from slack_sdk.errors import SlackApiError

from bot.slack import render, stream
from bot.slack.api import SlackApi
from bot.slack.blockkit import SlackMessage
from bot.slack.mrkdwn import from_slack
from bot.slack.payloads import EventEnvelope, MessageEvent
from bot.progress import MessageRef
from bot.slack.progress import AssistantStatus
from bot.slack.turns import conversation_key
from core.tasks import TaskTracker
from bot.turns import TurnRunner
from core.recent import Recent
from core.models import ConversationKey, LogEvent, ProgressEvent, Reply

log = logging.getLogger("omg.slack.assistant")

SUGGESTED_PROMPTS = [
    {"title": "Find libraries", "message": "find react state management libraries"},
    {"title": "Compare two repos", "message": "compare zustand and jotai"},
    {"title": "Check a repository", "message": "is fastapi well maintained?"},
    {"title": "What can you do?", "message": "what can you do?"},
]
PROMPTS_TITLE = "Try one of these:"
THINKING = "is thinking…"
LOADING_MESSAGES = [
    "Reading your question…",
    "Looking through GitHub…",
    "Weighing activity, maintenance and community…",
    "Writing it up…",
]
MAX_TITLE = 80
MAX_THREADS = 5000  # contexts and titles remembered (oldest forgotten first)


class ThreadContexts(AsyncAssistantThreadContextStore):
    """The channel each assistant thread's user is viewing, and which threads have a title;
    bounded and per process (a context lost to a restart only means a default title again)."""

    def __init__(self, limit: int = MAX_THREADS) -> None:
        self._contexts: Recent[tuple[str, str], dict[str, str]] = Recent(limit)
        self._titled: Recent[tuple[str, str], None] = Recent(limit)

    async def save(self, *, channel_id: str, thread_ts: str, context: dict[str, str]) -> None:
        self._contexts[(channel_id, thread_ts)] = dict(context)

    async def find(self, *, channel_id: str, thread_ts: str) -> AssistantThreadContext | None:
        found = self._contexts.get((channel_id, thread_ts))
        return AssistantThreadContext(found) if found else None

    def first_question(self, channel_id: str, thread_ts: str) -> bool:
        """True once per thread: the first question names it."""
        key = (channel_id, thread_ts)
        if key in self._titled:
            return False
        self._titled[key] = None
        return True


class SlackAssistant:
    def __init__(
        self, *, api: SlackApi, turns: TurnRunner[ConversationKey, SlackMessage], tracker: TaskTracker,
        status: AssistantStatus | None = None, contexts: ThreadContexts | None = None,
    ) -> None:
        self.api = api
        self.turns = turns
        self.tracker = tracker
        self.status = status
        self.contexts = contexts or ThreadContexts()

    def build(self) -> AsyncAssistant:
        assistant = AsyncAssistant(thread_context_store=self.contexts)
        assistant.thread_started(self.on_thread_started)
        assistant.user_message(self.on_user_message)
        return assistant  # thread_context_changed: bolt's default saves into ``contexts``

    async def on_thread_started(
        self, payload: dict[str, Any], set_suggested_prompts: AsyncSetSuggestedPrompts
    ) -> None:
        thread = payload.get("assistant_thread") or {}
        if thread.get("context") and thread.get("channel_id") and thread.get("thread_ts"):
            await self.contexts.save(channel_id=thread["channel_id"], thread_ts=thread["thread_ts"],
                                     context=thread["context"])
        self.tracker.spawn(_quietly("suggested prompts", set_suggested_prompts(
            prompts=SUGGESTED_PROMPTS, title=PROMPTS_TITLE)), name="slack-prompts")

    async def on_user_message(
        self, body: dict[str, Any], set_status: AsyncSetStatus, set_title: AsyncSetTitle
    ) -> None:
        envelope = EventEnvelope.model_validate(body)
        event = MessageEvent.model_validate(envelope.event)
        if not event.user or event.subtype is not None or event.user == self.api.bot_user_id:
            return
        self.tracker.spawn(self._answer(envelope, event, set_status, set_title), name="slack-assistant")

    async def _answer(
        self, envelope: EventEnvelope, event: MessageEvent, set_status: AsyncSetStatus,
        set_title: AsyncSetTitle,
    ) -> None:
        team = envelope.team_id or event.team
        key = conversation_key(team, event.channel, event.thread)
        text = from_slack(event.text, bot_user_id=self.api.bot_user_id)
        if self.contexts.first_question(key.channel, key.thread):
            await _quietly("thread title", set_title(" ".join(text.split())[:MAX_TITLE] or "New chat"))
        await _quietly("status", set_status(status=THINKING, loading_messages=LOADING_MESSAGES))

        live = AssistantTurn(api=self.api, status=self.status, place=key, user=event.user or "")
        await self.turns.message(key, text, event.user or "", delivery_id=event.delivery_id(team), live=live)


class AssistantTurn:
    """A turn in an assistant thread (a ``bot.turns.LiveTurn``): no status message, Slack's own
    status under the thread follows the core's steps, and the answer is streamed (else posted)."""

    def __init__(self, *, api: SlackApi, status: AssistantStatus | None, place: ConversationKey, user: str) -> None:
        self.api = api
        self.status = status
        self.place = place
        self.user = user

    async def __call__(self, event: ProgressEvent) -> None:
        if self.status is not None and isinstance(event, LogEvent) and event.content.strip():
            self.status.show(MessageRef(self.place.channel, self.place.thread), event.content)

    async def deliver(self, reply: Reply) -> None:
        if not await stream.stream_reply(self.api.client, self.place, reply, self.user):  # it clears the status
            await self.api.post_all(self.place.channel, render.render_reply(reply), thread_ts=self.place.thread)

    async def abandon(self) -> None:
        if self.status is not None:
            await self.status.clear(MessageRef(self.place.channel, self.place.thread))


async def _quietly(what: str, call: Any) -> None:
    """Titles, statuses and prompts are niceties: a refusal is one log line."""
    try:
        await call
    except SlackApiError as exc:
        error = exc.response.get("error") if exc.response is not None else None
        log.info("assistant call refused", extra={"what": what, "error": error})
