"""Progress events the core emits while it works; each adapter decides how to show them."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal, Protocol, Union

from pydantic import Field

from core.models.base import WireModel
from core.models.structured import StructuredData


def _now_ms() -> int:
    return int(time.time() * 1000)


class LogEvent(WireModel):
    type: Literal["log"] = "log"
    content: str
    timestamp: int = Field(default_factory=_now_ms)


class TextEvent(WireModel):
    type: Literal["text"] = "text"
    delta: str


class DataEvent(WireModel):
    type: Literal["data"] = "data"
    structured_data: StructuredData


class DoneEvent(WireModel):
    type: Literal["done"] = "done"
    stats: dict[str, Any] = Field(default_factory=dict)


class ErrorEvent(WireModel):
    type: Literal["error"] = "error"
    code: str
    message: str


ProgressEvent = Annotated[
    Union[LogEvent, TextEvent, DataEvent, DoneEvent, ErrorEvent], Field(discriminator="type")
]


class ProgressSink(Protocol):
    """Receives progress events. Implementations must not raise and must return quickly."""

    async def __call__(self, event: ProgressEvent) -> None: ...


async def null_sink(event: ProgressEvent) -> None:
    """The default sink: progress goes nowhere."""


class CollectingSink:
    """Keeps every event; for tests, the CLI's --json mode and benchmarks."""

    def __init__(self) -> None:
        self.events: list[ProgressEvent] = []

    async def __call__(self, event: ProgressEvent) -> None:
        self.events.append(event)

    def logs(self) -> list[str]:
        return [e.content for e in self.events if isinstance(e, LogEvent)]
