"""One core call for a chat adapter: whatever goes wrong becomes a friendly ``Reply``.

``reply_of``: a refusal the core explains (an ``OmgError``) is shown as its ``user_message``;
anything else is logged with its traceback and shown as ``SORRY``. The reply's ``error`` says
which it was. ``answer``: the whole turn with a status message (``bot.progress``), whose place
the rendered reply takes; a duplicate delivery removes the status and answers nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.progress import StatusMessage
from core.errors import OmgError
from core.models import ProgressSink, Reply

SORRY = "Something went wrong on my side while working on that. Please try again."

CoreCall = Callable[[ProgressSink], Awaitable[Reply]]
MsgT = TypeVar("MsgT")


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


async def answer(
    progress: StatusMessage[Any, MsgT, Any], call: CoreCall, render: Callable[[Reply], list[MsgT]],
    *, conversation_id: str, log: logging.Logger, eager_status: bool = True,
) -> Reply | None:
    """Run one core call with a status message and deliver its reply (None for a duplicate)."""
    if eager_status:
        await progress.start()
    reply = await reply_of(call, progress, conversation_id=conversation_id, log=log)
    if reply.duplicate:
        await progress.abandon()
        return None
    await progress.deliver(render(reply))
    return reply
