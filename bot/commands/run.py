"""``omg run``: serve every configured platform (the shell when no platform token is set)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from bot.app import build_app
from bot.backends import reply_router, select_backends
from core.logs import configure_logging

log = logging.getLogger("omg.run")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="start the bot (Slack / Discord from env, else the shell)")
    parser.set_defaults(func=lambda args: asyncio.run(serve()))


async def serve() -> int:
    app = await build_app()
    configure_logging(app.settings.log_level, env=app.env)
    backends = select_backends(app)
    loop = asyncio.get_running_loop()
    tasks = [asyncio.create_task(b.serve(), name=b.name) for b in backends]
    if app.research is not None:
        app.research.notifier = reply_router(backends)
    await app.resume_research()  # research runs a restart interrupted continue in the background
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    stopper = asyncio.create_task(stop.wait())
    done, _ = await asyncio.wait([*tasks, stopper], return_when=asyncio.FIRST_COMPLETED)
    for backend in backends:
        await backend.shutdown()
    for task in tasks:
        task.cancel()
    stopper.cancel()
    await asyncio.gather(*tasks, stopper, return_exceptions=True)
    await app.aclose()
    for task in done:
        if task is not stopper and not task.cancelled() and task.exception():
            log.error("backend failed", exc_info=task.exception())
            return 1
    return 0
