"""What adapters hand the core: a message someone wrote, a button someone pressed.

``delivery_id`` is the platform's own id for this delivery (a Slack message's ``client_msg_id``
or ``channel:ts``, a click's ``action_ts``, a Discord message or interaction id). ``BotService``
drops a delivery it has seen before, so every adapter passes it and none de-duplicates itself.
"""

from __future__ import annotations

from core.models.base import WireModel
from core.models.conversation import ConversationKey
from core.models.reply import ActionKind


class IncomingMessage(WireModel):
    key: ConversationKey
    text: str
    author: str = "user"
    conversation_id: str | None = None  # defaults to key.conversation_id
    delivery_id: str | None = None


class ActionClick(WireModel):
    """A button press, as every adapter reports it."""

    key: ConversationKey
    kind: ActionKind
    value: str
    user: str
    delivery_id: str | None = None
    conversation_id: str | None = None
