"""Serve a fake's aiohttp app on 127.0.0.1 at a free port (tests never reach the internet)."""

from __future__ import annotations

from typing import Any

from aiohttp import web


async def serve_on_loopback(app: web.Application, **runner_options: Any) -> tuple[web.AppRunner, int]:
    """The started runner (``cleanup()`` stops it) and the port the system chose."""
    runner = web.AppRunner(app, access_log=None, **runner_options)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    return runner, runner.addresses[0][1]
