"""The backend contract: one small module per platform implements it.

A backend owns the connection to one chat platform. It turns platform events into
``BotService`` calls and renders the ``Reply`` it gets back; it holds no conversation state
of its own (that lives in the stores), so a restart or a second instance loses nothing.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the composition root imports every component; backends only need the type
    from bot.app import BotApp


class Backend(ABC):
    name: str = "backend"

    def __init__(self, app: BotApp) -> None:
        self.app = app

    @abstractmethod
    async def serve(self) -> None:
        """Run until stopped (Ctrl-C, end of input, shutdown())."""

    async def shutdown(self) -> None:
        """Stop accepting work; finish or checkpoint what is in flight. Default: nothing to do."""
