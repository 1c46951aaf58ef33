"""The backend contract: one small module per platform implements it.

A backend owns the connection to one chat platform. It turns platform events into
``BotService`` calls and renders the ``Reply`` it gets back; it holds no conversation state
of its own (that lives in the stores), so a restart or a second instance loses nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the composition root imports every component; backends only need the type
    from bot.app import BotApp
    from core.models import ConversationKey, Reply

log = logging.getLogger("omg.backend")


class Backend(ABC):
    name: str = "backend"
    #: the ``ConversationKey.platform`` values this backend can post into (see ``deliver``)
    platforms: tuple[str, ...] = ()

    def __init__(self, app: BotApp) -> None:
        self.app = app

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
