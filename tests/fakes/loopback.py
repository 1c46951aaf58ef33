"""Serve a fake's aiohttp app on 127.0.0.1 at a free port (tests never reach the internet), and
stop it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aiohttp import web


async def serve_on_loopback(app: web.Application, **runner_options: Any) -> tuple[web.AppRunner, int]:
    """The started runner (``cleanup()`` stops it) and the port the system chose."""
    runner = web.AppRunner(app, access_log=None, **runner_options)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, runner.addresses[0][1]


async def stop_serving(
    runner: web.AppRunner | None, sockets: Iterable[web.WebSocketResponse] = ()
) -> None:
    """Close the open websockets, then stop the server (nothing to do if it never started)."""
    for ws in list(sockets):
        await ws.close()
    if runner is not None:
        await runner.cleanup()
