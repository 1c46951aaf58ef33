"""``omg run``: serve every configured platform (the shell when no platform token is set).

Shutdown (SIGTERM, SIGINT): every backend stops receiving and lets the answers in flight finish
(Slack: up to 20 s); research runs this instance took over get ``OMG_SHUTDOWN_GRACE`` seconds
(default 20) to finish, and are otherwise stopped at a step boundary with their lease released,
so another instance (or the next start) continues them from the last finished step. Every
finished step is already saved, so a deploy never loses one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from bot.app import open_app
from bot.backends import reply_router, select_backends
from core.config import env_float, load_environment
from core.errors import StoreError, log_failure

log = logging.getLogger("omg.run")


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="start the bot (Slack / Discord from env, else the shell)")
    parser.set_defaults(func=lambda args: asyncio.run(serve()))


async def serve() -> int:
    try:
        env = load_environment()
        shell_only = not (env.get("SLACK_BOT_TOKEN") or env.get("DISCORD_TOKEN"))
        app = await open_app(log_to_file=shell_only and sys.stdin.isatty())
    except StoreError as exc:  # REDIS_URL set but Redis unreachable: say so, do not split state
        print(f"omg: {exc.user_message}", file=sys.stderr)
        return 1
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
    if stopper in done:
        log.warning("shutting down: finishing work in flight")
    grace = env_float(app.env, "OMG_SHUTDOWN_GRACE", 20.0)
    stopped, *_ = await asyncio.gather(  # no new takeovers; answers and runs in flight finish
        app.checkpoint(grace), *(backend.shutdown() for backend in backends), return_exceptions=True
    )
    if isinstance(stopped, int) and stopped:
        log.warning("research runs stopped at a checkpoint for another instance", extra={"count": stopped})
    for task in tasks:
        task.cancel()
    stopper.cancel()
    await asyncio.gather(*tasks, stopper, return_exceptions=True)
    await app.aclose()
    for task in done:
        failure = None if task is stopper or task.cancelled() else task.exception()
        if failure is not None:
            log_failure(log, "backend failed", failure)
            return 1
    return 0
