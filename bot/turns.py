"""One core call for a chat adapter: whatever goes wrong becomes a friendly ``Reply``.

A refusal the core explains (an ``OmgError``) is shown as its ``user_message``; anything else is
logged with its traceback and shown as ``SORRY``. The reply's ``error`` says which it was.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from core.errors import OmgError
from core.models import ProgressSink, Reply

SORRY = "Something went wrong on my side while working on that. Please try again."

CoreCall = Callable[[ProgressSink], Awaitable[Reply]]


async def reply_of(
    call: CoreCall, progress: ProgressSink, *, conversation_id: str, log: logging.Logger
) -> Reply:
    """``call(progress)``'s reply, or a reply saying what went wrong (never raises)."""
    try:
        return await call(progress)
    except OmgError as exc:
        log.warning("core refused", extra={"conversation_id": conversation_id, "error": repr(exc)})
        return Reply(conversation_id=conversation_id, markdown=exc.user_message,
                     error=type(exc).__name__)
    except Exception:
        log.exception("core call failed", extra={"conversation_id": conversation_id})
        return Reply(conversation_id=conversation_id, markdown=SORRY, error="internal")
