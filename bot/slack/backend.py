"""``SlackBackend``: wires the bolt app, the Web API client, the paced editor and the listeners.

Socket Mode when ``SLACK_APP_TOKEN`` is set, HTTP mode (``SLACK_SIGNING_SECRET``, ``PORT``,
``/slack/events``) otherwise; the Web API base URL comes from ``SLACK_API_URL``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import aiohttp
from slack_bolt.async_app import AsyncApp
from slack_sdk.web.async_client import AsyncWebClient

from bot.base import Backend, Ports, SetupError
from bot.slack import render
from bot.slack.api import BotIdentity, SlackApi, SlackCallFailed
from bot.slack.blockkit import SlackMessage
from core.pacing.budget import EditBudget
from bot.slack.assistant import SlackAssistant
from bot.slack.listeners import SlackListeners
from bot.progress import MessageRef
from bot.slack.progress import AssistantStatus
from bot.slack.server import HttpReceiver, SocketReceiver
from bot.slack.settings import SlackSettings
from bot.slack.turns import SlackPlatform
from bot.threads import ThreadIndex
from bot.turns import TurnRunner
from core.pacing.editor import CoalescingEditor
from core.models import ConversationKey, Reply

log = logging.getLogger("omg.slack")
WORKSPACE_EDITS_PER_MINUTE = 45  # chat.update is Tier 3 (about 50 a minute per workspace)


class SlackBackend(Backend):
    name = "slack"
    platforms = ("slack",)

    def __init__(
        self,
        ports: Ports,
        *,
        settings: SlackSettings | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        assistant_status: bool = True,
    ) -> None:
        super().__init__(ports)
        self.settings = settings or SlackSettings.from_env(ports.env)
        self._sleep = sleep
        self._assistant_status = assistant_status
        self._stopped = asyncio.Event()
        self._closing: asyncio.Future[None] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._receiver: HttpReceiver | SocketReceiver | None = None
        self.api: SlackApi | None = None
        self.editor: CoalescingEditor[MessageRef[str], SlackMessage] | None = None
        self._assistant: AssistantStatus | None = None
        self.bolt: AsyncApp | None = None

    @property
    def port(self) -> int:
        return self._receiver.port if isinstance(self._receiver, HttpReceiver) else 0

    async def start(self) -> None:
        """Connect (auth.test), then listen: returns once Slack can reach the bot."""
        problems = self.settings.problems()
        if problems:
            raise SetupError("Slack is not set up yet: " + " ".join(problems))
        self._session = aiohttp.ClientSession()
        client = AsyncWebClient(
            token=self.settings.bot_token, base_url=self.settings.api_url, session=self._session,
            logger=logging.getLogger("omg.slack.sdk"),
        )
        self.api = SlackApi(client, sleep=self._sleep)
        identity = await self._connect(self.api)
        log.info("slack connected", extra={"bot_user": identity.user_id, "team": identity.team_id})
        interval = self.settings.edit_interval
        self.editor = CoalescingEditor(  # bucket: edits paced across instances too (REDIS_URL)
            self._edit_status, min_interval=interval, sleep=self._sleep,
            bucket=self.ports.edit_bucket, key=lambda ref: f"slack:{ref.channel}:{ref.message}",
            # a bot token belongs to one workspace: this editor's edits are the workspace's
            budget=EditBudget(limit=WORKSPACE_EDITS_PER_MINUTE, window=60.0),
            group=lambda ref: identity.team_id,
        )
        if self._assistant_status:
            self._assistant = AssistantStatus(self.api, min_interval=interval, sleep=self._sleep)
        api = self.api
        threads = ThreadIndex(  # threads the store forgot: did the bot post or get mentioned?
            self.ports.store, platform_check=lambda key: api.bot_in_thread(key.channel, key.thread))
        platform = SlackPlatform(api=self.api, editor=self.editor, assistant=self._assistant)
        turns = TurnRunner(service=self.ports.service, platform=platform, threads=threads, log=log)
        self.bolt = AsyncApp(
            client=client,
            signing_secret=self.settings.signing_secret or "",
            process_before_response=True,  # listeners return at once; the work runs in tasks
            attaching_conversation_kwargs_enabled=False,
            logger=logging.getLogger("omg.slack.bolt"),
            name="oh-my-github",
        )
        self.assistant = SlackAssistant(api=self.api, turns=turns, tracker=self.tracker, status=self._assistant)
        self.bolt.assistant(self.assistant.build())
        SlackListeners(api=self.api, platform=platform, turns=turns, threads=threads,
                       tracker=self.tracker).register(self.bolt)
        if self.settings.socket_mode:
            self._receiver = SocketReceiver(self.bolt, app_token=self.settings.app_token or "")
            await self._receiver.start()
        else:
            self._receiver = HttpReceiver(
                self.bolt, host=self.settings.host, port=self.settings.port, path=self.settings.path
            )
            try:
                await self._receiver.start()
            except OSError as exc:
                await self.shutdown()
                raise SetupError(
                    f"Could not listen on {self.settings.host}:{self.settings.port} "
                    f"({exc.strerror or exc}). Set PORT to a free port."
                ) from None

    async def _connect(self, api: SlackApi) -> BotIdentity:
        try:
            return await api.connect()
        except SlackCallFailed as exc:
            await self.shutdown()
            raise SetupError(
                f"Slack refused SLACK_BOT_TOKEN ({exc.error}). Copy the Bot User OAuth Token "
                "(xoxb-...) from your app's Install App page."
            ) from None
        except aiohttp.ClientError as exc:
            await self.shutdown()
            raise SetupError(
                f"Could not reach Slack at {self.settings.api_url} ({type(exc).__name__}). "
                "Check the network, or SLACK_API_URL."
            ) from None

    async def _edit_status(self, ref: MessageRef[str], message: SlackMessage) -> None:
        assert self.api is not None
        await self.api.update(ref.channel, ref.message, message)

    async def deliver(self, key: ConversationKey, reply: Reply) -> None:
        """Post a reply nobody is waiting for (a resumed research report) into its thread."""
        if self.api is None:
            raise RuntimeError("the Slack backend is not connected")
        await self.api.post_all(key.channel, render.render_reply(reply), thread_ts=key.thread)

    async def serve(self) -> None:
        try:
            await self.start()
            await self._stopped.wait()
        finally:
            await self.shutdown()

    async def shutdown(self) -> None:
        """Stop receiving, let in-flight answers finish (``shutdown_grace``), then close.
        Safe to call more than once, and concurrently."""
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        self._stopped.set()
        if self._receiver is not None:
            await self._receiver.stop()
            self._receiver = None
        await self._drain(self.settings.shutdown_grace)
        if self._assistant is not None:
            await self._assistant.aclose()
        if self.editor is not None:
            await self.editor.aclose()
        if self._session is not None:
            await self._session.close()
            self._session = None
