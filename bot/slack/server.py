"""How Slack reaches the app: an HTTP endpoint (Events API, interactivity, commands) or a
Socket Mode connection. Both hand each request to the same bolt ``AsyncApp``."""

from __future__ import annotations

import logging

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler
from slack_bolt.async_app import AsyncApp

log = logging.getLogger("omg.slack.server")


class HttpReceiver:
    """``POST <path>`` for everything Slack sends, ``GET /healthz`` for load balancers."""

    def __init__(self, bolt: AsyncApp, *, host: str, port: int, path: str) -> None:
        self.bolt = bolt
        self.host = host
        self.port = port
        self.path = path
        self._runner: web.AppRunner | None = None

    def web_app(self) -> web.Application:
        app = web.Application()
        app.add_routes([web.post(self.path, self.handle), web.get("/healthz", self.health)])
        return app

    async def start(self) -> int:
        self._runner = web.AppRunner(self.web_app(), access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, self.host, self.port).start()
        if self._runner.addresses:
            self.port = self._runner.addresses[0][1]  # the real port when asked for port 0
        log.warning(
            "slack http mode listening", extra={"host": self.host, "port": self.port, "path": self.path}
        )
        return self.port

    async def handle(self, request: web.Request) -> web.Response:
        try:
            bolt_request = await to_bolt_request(request)
        except (ValueError, TypeError, AttributeError, KeyError):  # bolt reads the body before
            # checking the signature, and trusts its shape: this is not a request from Slack
            return web.Response(status=400, text="bad request")
        response = await self.bolt.async_dispatch(bolt_request)
        reply = await to_aiohttp_response(response)
        if request.headers.get("X-Slack-Retry-Num") and response.status == 200:
            # a redelivery we have now acknowledged: the event is de-duplicated, stop retrying
            reply.headers["X-Slack-No-Retry"] = "1"
        return reply

    async def health(self, request: web.Request) -> web.Response:
        return web.Response(text="ok")

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


class SocketReceiver:
    """Socket Mode: an outgoing WebSocket, no public URL needed (``SLACK_APP_TOKEN``)."""

    def __init__(self, bolt: AsyncApp, *, app_token: str) -> None:
        self.handler = AsyncSocketModeHandler(bolt, app_token, web_client=bolt.client)

    async def start(self) -> None:
        await self.handler.connect_async()
        log.warning("slack socket mode connected")

    async def stop(self) -> None:
        await self.handler.close_async()
