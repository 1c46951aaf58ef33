"""A small fake Discord on loopback: REST under ``/api/v10`` and a JSON gateway at ``/gateway``.

Point the real discord.py at it (``Route.BASE = fake.rest_base``,
``DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)``), then drive it like users do::

    message = await fake.user_message(CHANNEL_ID, "find react state libs", mention_bot=True)
    await fake.click(message_id, custom_id, user=ALICE)
    await fake.slash("search", {"query": "react state"}, channel_id=CHANNEL_ID)

The gateway serves HELLO, answers IDENTIFY with READY + GUILD_CREATE and dispatches events as
text frames, and withholds message content from a client without the MESSAGE_CONTENT intent
(``privileged_content = False``: the intent is not granted, IDENTIFY is closed with 4014). The
REST side (``discord_rest``) keeps messages, threads and interactions, records every call,
checks Discord's limits and can answer 429s.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakes import discord_payloads as p
from tests.fakes.discord_rest import (
    ALICE,
    APP_ID,
    BOB,
    BOT_ID,
    CHANNEL_ID,
    DM_CHANNEL_ID,
    GUILD_ID,
    TOKEN,
    Call,
    DiscordRest,
    InteractionRecord,
    StoredMessage,
)
from tests.fakes.loopback import serve_on_loopback, stop_serving

MESSAGE_CONTENT_INTENT = 1 << 15
COMPONENT_INTERACTION, COMMAND_INTERACTION, MODAL_INTERACTION = 3, 2, 5
__all__ = ["ALICE", "APP_ID", "BOB", "BOT_ID", "CHANNEL_ID", "DM_CHANNEL_ID", "GUILD_ID", "TOKEN",
           "Call", "FakeDiscord", "InteractionRecord", "StoredMessage"]


class FakeDiscord(DiscordRest):
    def __init__(self) -> None:
        super().__init__()
        self.identifies: list[dict[str, Any]] = []
        self.privileged_content = True  # False: the intent is not enabled for the application
        self._sockets: list[web.WebSocketResponse] = []
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -----------------------------------------------------------------------------

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner, self.port = await serve_on_loopback(app)

    async def stop(self) -> None:
        await stop_serving(self._runner, self._sockets)

    @property
    def rest_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # -- switches and queries ----------------------------------------------------------------

    def in_channel(self, channel_id: int) -> list[StoredMessage]:
        return [m for m in self.messages.values() if m.channel_id == channel_id and not m.deleted]

    def threads(self) -> list[dict[str, Any]]:
        return [c for c in self.channels.values() if c["type"] == p.PUBLIC_THREAD]

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            value = predicate()
            if value:
                return value
            await asyncio.sleep(0.01)
        raise AssertionError("timed out waiting for the fake Discord")

    # -- what users do -------------------------------------------------------------------------

    async def user_message(
        self, channel_id: int, content: str, *, author: int = ALICE, mention_bot: bool = False,
        mention_role: bool = False, from_bot: dict[str, Any] | None = None,
        reply_to: int | None = None,
    ) -> StoredMessage:
        """A user's message; ``mention_role`` mentions the bot's managed role instead of the bot;
        ``reply_to``: a Discord reply to that message (which pings its author)."""
        mentions = [self.bot] if mention_bot else []
        if mention_bot:
            content = f"<@{BOT_ID}> {content}"
        if mention_role:
            content = f"<@&{p.BOT_ROLE_ID}> {content}"
        sender = from_bot or self.users[author]
        if reply_to is not None and self.messages[reply_to].by_bot and not mentions:
            mentions = [self.bot]  # a reply pings the author of the message it answers
        stored = self._store(channel_id, sender, content, mentions=mentions, reference=reply_to)
        payload = self._message_payload(stored)
        if reply_to is not None:  # Discord resolves the replied-to message into the event
            payload["referenced_message"] = self._message_payload(self.messages[reply_to])
        if mention_role:
            payload["mention_roles"] = [str(p.BOT_ROLE_ID)]
        is_dm = self.channels[channel_id]["type"] == p.DM
        if not (self._content_intent() or mentions or mention_role or is_dm):
            payload["content"] = ""  # what Discord sends a bot without the privileged intent
        await self.dispatch("MESSAGE_CREATE", payload)
        return stored

    async def click(self, message_id: int, custom_id: str, *, user: int = ALICE) -> InteractionRecord:
        stored = self.messages[message_id]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(COMPONENT_INTERACTION, data, stored.channel_id, user,
                                    self._message_payload(stored))

    async def slash(
        self, name: str, options: dict[str, str], *, channel_id: int = CHANNEL_ID, user: int = ALICE
    ) -> InteractionRecord:
        data: dict[str, Any] = {
            "id": str(p.snowflake()), "name": name, "type": 1,
            "options": [{"name": k, "type": 3, "value": v} for k, v in options.items()],
        }
        return await self._interact(COMMAND_INTERACTION, data, channel_id, user)

    async def submit_modal(
        self, custom_id: str, values: dict[str, str], *, channel_id: int, user: int = ALICE,
        message_id: int | None = None,
    ) -> InteractionRecord:
        rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
                for k, v in values.items()]
        message = self._message_payload(self.messages[message_id]) if message_id else None
        return await self._interact(MODAL_INTERACTION, {"custom_id": custom_id, "components": rows},
                                    channel_id, user, message)

    async def _interact(
        self, itype: int, data: dict[str, Any], channel_id: int, user: int,
        message: dict[str, Any] | None = None,
    ) -> InteractionRecord:
        iid, token = p.snowflake(), secrets.token_hex(16)
        record = InteractionRecord(iid, token, itype, channel_id, user, time.monotonic())
        self.interactions[iid] = record
        channel = self.channels[channel_id]
        if message is not None:
            record.source_id = int(message["id"])
        await self.dispatch("INTERACTION_CREATE", p.interaction(
            iid, token, itype, data, application_id=APP_ID, channel=channel,
            actor=self.users[user], message_payload=message))
        return record

    # -- gateway -------------------------------------------------------------------------------

    def _content_intent(self) -> bool:
        return bool(self.identifies) and bool(
            self.identifies[-1].get("intents", 0) & MESSAGE_CONTENT_INTENT)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        for ws in list(self._sockets):
            if not ws.closed:
                await ws.send_str(frame)  # text frames: discord.py decompresses binary ones

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41_250}}))
        try:
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                if frame["op"] == 1:
                    await ws.send_str(json.dumps({"op": 11}))
                elif frame["op"] == 2:
                    await self._identify(ws, frame["d"])
        finally:
            if ws in self._sockets:
                self._sockets.remove(ws)
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> None:
        self.identifies.append(data)
        if not self.privileged_content and data.get("intents", 0) & MESSAGE_CONTENT_INTENT:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        self._sockets = [s for s in self._sockets if not s.closed] + [ws]
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": self._seq, "d": {
            "v": 10, "user": self.bot, "guilds": [{"id": str(GUILD_ID), "unavailable": True}],
            "session_id": secrets.token_hex(8), "resume_gateway_url": self.gateway_url,
            "application": {"id": str(APP_ID), "flags": 0}, "private_channels": [],
            "relationships": [], "shard": [0, 1],
        }}))
        members = [p.member(self.bot), *(p.member(u) for u in self.users.values())]
        channels = [c for c in self.channels.values() if c["type"] == p.TEXT]
        active = [t for t in self.threads() if not t["thread_metadata"]["archived"]]
        guild = p.guild(GUILD_ID, "test guild", channels, members, active,
                        owner_bot_id=str(BOT_ID))
        self._seq += 1
        await ws.send_str(json.dumps({"op": 0, "t": "GUILD_CREATE", "s": self._seq, "d": guild}))

    # -- REST ----------------------------------------------------------------------------------
