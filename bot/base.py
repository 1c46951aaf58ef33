"""The backend contract: one small module per platform implements it.

A backend owns the connection to one chat platform. It turns platform events into
``BotService`` calls and renders the ``Reply`` it gets back; it holds no conversation state
of its own (that lives in the stores), so a restart or a second instance loses nothing.

Backends get ``Ports``, the few things a platform needs, never the composition root: the
service to call, the conversation store (which threads the bot is in), the deduper (button
state: a picked suggestion, feedback given), the shared edit bucket, and the environment their
settings are read from.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from core.errors import ConfigError
from core.models import ConversationKey, Reply
from core.service import BotService
from core.store.base import ConversationStore, EventDeduper
from core.store.buckets import EditBucket
from core.tasks import TaskTracker

log = logging.getLogger("omg.backend")


class SetupError(ConfigError):
    """A platform's settings cannot work (Slack, Discord); the message says what to change."""

    code = "platform_setup"


@dataclass(frozen=True)
class Ports:
    service: BotService
    store: ConversationStore
    deduper: EventDeduper
    env: Mapping[str, str]
    edit_bucket: EditBucket | None = None  # edits paced across instances (Redis)
    source_label: str = ""  # where answers come from, e.g. "live GitHub" (the shell's banner)
    data_dir: Path = Path(".data")  # local files a backend keeps (the shell's line history)


class Backend(ABC):
    name: str = "backend"
    #: the ``ConversationKey.platform`` values this backend can post into (see ``deliver``)
    platforms: tuple[str, ...] = ()

    def __init__(self, ports: Ports) -> None:
        self.ports = ports
        self.tracker = TaskTracker()  # what runs after an event was acknowledged

    async def idle(self) -> None:
        """Wait until every acknowledged event has been answered (tests, benchmarks)."""
        await self.tracker.idle()

    async def _drain(self, grace: float) -> None:
        """Give in-flight answers ``grace`` seconds, then cancel the rest (shutdown)."""
        cancelled = await self.tracker.drain(grace)
        if cancelled:
            log.warning("shutdown cancelled unfinished answers", extra={"backend": self.name, "count": cancelled})

    @abstractmethod
    async def serve(self) -> None:
        """Run until stopped (Ctrl-C, end of input, shutdown())."""

    async def shutdown(self) -> None:
        """Stop accepting work; finish or checkpoint what is in flight. Default: nothing to do."""

    async def deliver(self, key: ConversationKey, reply: Reply) -> None:
        """Post ``reply`` into the conversation ``key`` when nobody is waiting on a request:
        e.g. the report of a research run that resumed after a restart.

        Default: log that the reply could not be delivered (it stays in the research session,
        where ``omg research --show`` finds it). Override in backends that can post unprompted.
        """
        log.warning(
            "no way to deliver a reply here", extra={"backend": self.name, "conversation_id": key.conversation_id}
        )
