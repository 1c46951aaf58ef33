"""``omg health``: can this configuration reach its store, GitHub and LLM providers? JSON out.

    omg health [--require store,github,llm] [--timeout 5]

Reads the same environment (and ``.env``) as ``omg run``, so it works as a readiness probe next
to a bot instance. Prints one JSON report on stdout; exits 0 when every required dependency
answers (optional ones may be down: status "degraded") and 1 when a required one is down. The
store is always required; ``--require`` (or ``OMG_HEALTH_REQUIRE``) adds github and/or llm.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
from typing import TYPE_CHECKING

from core.config import CoreSettings, load_environment
from core.errors import StoreError
from core.health import check_health, required_components
from core.logs import configure_logging
from core.store.wiring import SharedState, open_shared_state

if TYPE_CHECKING:
    from core.github.source import GitHubSource


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("health", help="report store, GitHub and LLM reachability as JSON")
    parser.add_argument("--require", default=None,
                        help="comma-separated: store,github,llm (default: OMG_HEALTH_REQUIRE or store)")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per check (default 5)")
    parser.set_defaults(func=lambda args: asyncio.run(_main(args)))


async def _main(args: argparse.Namespace) -> int:
    env = load_environment()
    settings = CoreSettings.from_env(env)
    configure_logging(settings.log_level, env=env)
    require = required_components(args.require if args.require is not None else env.get("OMG_HEALTH_REQUIRE"))
    shared: SharedState | None = None
    store_error: str | None = None
    try:
        shared = await open_shared_state(env)
    except StoreError as exc:
        store_error = exc.user_message
    source = _github(env)
    from core.llm import build_llm

    llm = build_llm(env)
    try:
        report = await check_health(
            shared=shared, source=source, llm=llm, data_dir=settings.data_dir, require=require,
            timeout=max(0.1, args.timeout), instance=f"{socket.gethostname()}:{os.getpid()}",
            store_error=store_error,
        )
    finally:
        await llm.aclose()
        if source is not None:
            await source.aclose()
        if shared is not None:
            await shared.aclose()
    print(report.model_dump_json(by_alias=True, indent=2))
    return 0 if report.healthy else 1


def _github(env: dict[str, str]) -> GitHubSource | None:
    """The live GitHub source (``ping`` is what is checked), or None when OMG_GITHUB=offline."""
    from core.github.client import GitHubClient
    from core.github.settings import GitHubSettings
    from core.github.source import GitHubSource

    settings = GitHubSettings.from_env(env)
    if settings.mode == "offline":
        return None
    return GitHubSource(GitHubClient(settings))
