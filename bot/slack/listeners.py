"""Bolt listeners: parse the payload, decide in microseconds whether it is ours, acknowledge,
and hand the work to ``Turns`` in the background. Assistant threads are answered by
``bot.slack.assistant`` (bolt's assistant middleware sees their events first).

Events are acknowledged by bolt when the listener returns (``process_before_response``), actions
and commands by an explicit ``ack()`` first. Nothing here waits on the network before the ack.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import aiohttp
from pydantic import ValidationError
from slack_bolt.async_app import AsyncAck, AsyncApp
from slack_bolt.response import BoltResponse
from slack_sdk.webhook.async_client import AsyncWebhookClient

from bot.slack import render
from bot.slack.api import SlackApi, SlackCallFailed
from bot.slack.blockkit import SlackMessage
from bot.progress import MessageRef
from bot.slack.mrkdwn import addressed_to_someone_else, escape, from_slack, mentions
from bot.slack.payloads import (
    CONVERSATIONAL_SUBTYPES,
    BlockActionsPayload,
    EventEnvelope,
    MessageEvent,
    SlashCommand,
)
from bot.slack.turns import SlackPlatform, conversation_key
from bot.routing import Arrival, Where, route
from core.tasks import TaskTracker
from bot.threads import ThreadIndex
from bot.turns import TurnRunner
from core.models import ActionClick, ActionKind, ConversationKey
from core.research.goal import split_mode_flags

SlackTurns = TurnRunner[ConversationKey, SlackMessage]

log = logging.getLogger("omg.slack")

RESEARCH_USAGE = (
    "Usage: `/research <goal> [--quick|--deep]`, e.g. "
    "`/research which Python web framework suits a small team --deep`."
)


class SlackListeners:
    def __init__(
        self, *, api: SlackApi, platform: SlackPlatform, turns: SlackTurns, threads: ThreadIndex,
        tracker: TaskTracker,
    ) -> None:
        self.api = api
        self.platform = platform
        self.turns = turns
        self.threads = threads
        self.tracker = tracker

    def register(self, bolt: AsyncApp) -> None:
        bolt.event("app_mention")(self.on_message_event)
        bolt.event("message")(self.on_message_event)
        bolt.action(re.compile(r"^omg:"))(self.on_click)
        bolt.command("/omg")(self.on_omg)
        bolt.command("/research")(self.on_research)
        bolt.error(self.on_error)

    async def on_error(self, error: Exception) -> BoltResponse | None:
        """A signed payload our typed models cannot read will not read better on a retry:
        acknowledge it (200, so Slack does not redeliver it) and log it without its body.
        Anything else keeps bolt's 500 (a retry may succeed)."""
        if isinstance(error, ValidationError):
            log.warning("ignored a malformed slack payload",
                        extra={"problems": [e["type"] for e in error.errors()][:5]})
            return BoltResponse(status=200, body="")
        log.error("slack listener failed", exc_info=error)
        return None

    # -- messages ------------------------------------------------------------------------------

    async def on_message_event(self, body: dict[str, Any]) -> None:
        envelope = EventEnvelope.model_validate(body)
        event = MessageEvent.model_validate(envelope.event)
        if not self._is_person_talking(event):
            return
        mentioned = event.type == "app_mention" or mentions(event.text, self.api.bot_user_id)
        self.tracker.spawn(self._message(envelope, event, mentioned), name="slack-message")

    def _is_person_talking(self, event: MessageEvent) -> bool:
        if event.subtype not in CONVERSATIONAL_SUBTYPES or event.bot_id or not event.user:
            return False
        return event.user != self.api.bot_user_id

    async def _message(self, envelope: EventEnvelope, event: MessageEvent, mentioned: bool) -> None:
        team = envelope.team_id or event.team  # the bot's workspace (Slack Connect users differ)
        place = conversation_key(team, event.channel, event.thread)  # a mention: its own thread
        arrival = Arrival(
            space="dm" if event.is_dm else "thread" if event.thread_ts else "channel",
            mentioned=mentioned,
            addressed_elsewhere=addressed_to_someone_else(event.text, self.api.bot_user_id))
        if await route(arrival, lambda: self.threads.participates(place)) is Where.IGNORE:
            return
        text = from_slack(event.text, bot_user_id=self.api.bot_user_id)
        await self.turns.message(place, text, event.user or "", delivery_id=event.delivery_id(team))

    # -- buttons -------------------------------------------------------------------------------

    async def on_click(self, ack: AsyncAck, body: dict[str, Any]) -> None:
        await ack()
        payload = BlockActionsPayload.model_validate(body)
        for action in payload.actions:
            kind = render.parse_action_id(action.action_id)
            if kind is not None:
                self.tracker.spawn(self._click(payload, action.value, kind, action.action_ts),
                                   name="slack-click")

    async def _click(
        self, payload: BlockActionsPayload, value: str, kind: ActionKind, action_ts: str | None
    ) -> None:
        place = conversation_key(payload.team_id, payload.channel_id, payload.thread)
        user = payload.user.id
        delivery = f"{payload.message_ts}:{action_ts or payload.trigger_id}:{user}"
        if kind is ActionKind.FEEDBACK:
            verdict, classification = render.feedback_value(value)
            log.info("answer feedback", extra={
                "conversation_id": place.conversation_id, "user": user, "verdict": verdict,
                "classification": classification})
            click = ActionClick(key=place, kind=kind, value=verdict, user=user, delivery_id=delivery)
            thanks = await self.turns.feedback(place, click)
            if thanks is not None:
                await self.platform.ephemeral(place, user, thanks.markdown or "Thanks for the feedback!")
            return
        click = ActionClick(key=place, kind=kind, value=value, user=user, delivery_id=delivery)
        if kind not in render.DECISIONS:
            await self.turns.choice(place, click)
            return
        message = payload.message
        plan = (SlackMessage(text=message.text or "Research plan", blocks=message.blocks)
                if message and message.blocks else None)
        plan_ref = MessageRef(payload.channel_id, payload.message_ts)
        refusal = await self.turns.decision(
            place, click, lambda: self.platform.mark_decided(plan, plan_ref, kind, user))
        if refusal is not None:
            await self.platform.ephemeral(place, user, refusal.markdown)

    # -- slash commands ------------------------------------------------------------------------

    async def on_omg(self, ack: AsyncAck, body: dict[str, Any]) -> None:
        command = SlashCommand.model_validate(body)
        text = command.text.strip()
        if not text or text.lower() in ("help", "?", "-h", "--help"):
            await ack(text=render.HELP, response_type="ephemeral")
            return
        await ack()
        self.tracker.spawn(self._ask(command, text), name="slack-command")

    async def on_research(self, ack: AsyncAck, body: dict[str, Any]) -> None:
        command = SlashCommand.model_validate(body)
        goal_only, _ = split_mode_flags(command.text)
        if not goal_only:
            await ack(text=RESEARCH_USAGE, response_type="ephemeral")
            return
        await ack()
        self.tracker.spawn(self._research(command, command.text.strip()), name="slack-research")

    async def _ask(self, command: SlashCommand, text: str) -> None:
        place = await self._open_thread(command, f"<@{command.user_id}> asked: *{escape(text)}*")
        if place is not None:
            await self.turns.message(place, text, command.user_id, delivery_id=command.trigger_id)

    async def _research(self, command: SlashCommand, goal: str) -> None:
        """The goal goes to the core as typed: ``--quick`` / ``--deep`` are read there."""
        place = await self._open_thread(command, f"<@{command.user_id}> started research: *{escape(goal)}*")
        if place is not None:
            await self.turns.research(place, goal, command.user_id, delivery_id=command.trigger_id)

    async def _open_thread(self, command: SlashCommand, label: str) -> ConversationKey | None:
        """Commands have no thread: post what was asked, and answer in a thread under it."""
        try:
            posted = await self.api.post(command.channel_id, render.note(label), thread_ts=None)
        except SlackCallFailed as exc:
            await self._cannot_post(command, exc)
            return None
        place = conversation_key(command.team_id, command.channel_id, posted[0])
        self.threads.remember(place)
        return place

    async def _cannot_post(self, command: SlashCommand, exc: SlackCallFailed) -> None:
        hint = "I couldn't post in this channel."
        if exc.error in ("not_in_channel", "channel_not_found"):
            hint = "I'm not in this channel yet: invite me with `/invite @oh-my-github`, or DM me."
        if command.response_url:
            try:
                await AsyncWebhookClient(command.response_url).send(text=hint, response_type="ephemeral")
            except (aiohttp.ClientError, TimeoutError, OSError) as err:  # the hint is a courtesy
                log.warning("could not answer the command", extra={"error": repr(err)})

