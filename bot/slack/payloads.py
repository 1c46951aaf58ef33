"""Slack wire payloads, typed apart from the domain objects (only the fields we read).

Events API envelopes and events arrive as JSON; interactivity payloads and slash commands
arrive form-encoded and bolt hands them to us as dicts. Unknown fields are ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# Message subtypes that are still a person talking; everything else (edits, deletions, joins,
# bot messages, channel topic changes...) is ignored.
CONVERSATIONAL_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


class SlackModel(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)


class MessageEvent(SlackModel):
    """A ``message`` or ``app_mention`` event."""

    type: str
    subtype: str | None = None
    channel: str = ""
    channel_type: str | None = None  # "channel" | "group" | "im" | "mpim" (absent on app_mention)
    user: str | None = None
    bot_id: str | None = None
    text: str = ""
    ts: str = ""
    thread_ts: str | None = None
    client_msg_id: str | None = None
    team: str | None = None

    @property
    def is_dm(self) -> bool:
        return self.channel_type == "im" or self.channel.startswith("D")

    def delivery_id(self, team: str | None) -> str:
        """One id for a retried event, for the twin app_mention / message events of a mention and
        for the same message seen by the assistant listener: BotService drops the repeats."""
        return f"{team}:{self.client_msg_id or f'{self.channel}:{self.ts}'}"

    @property
    def thread(self) -> str:
        """The thread this message belongs to (a top-level message starts its own)."""
        return self.thread_ts or self.ts


class EventEnvelope(SlackModel):
    """An Events API ``event_callback``."""

    event_id: str | None = None
    team_id: str | None = None
    api_app_id: str | None = None
    event: dict = Field(default_factory=dict)


class IdRef(SlackModel):
    id: str = ""
    team_id: str | None = None


class Container(SlackModel):
    type: str | None = None
    message_ts: str | None = None
    thread_ts: str | None = None
    channel_id: str | None = None
    is_ephemeral: bool = False


class ClickedMessage(SlackModel):
    ts: str = ""
    thread_ts: str | None = None
    text: str = ""
    blocks: list[dict] = Field(default_factory=list)


class BlockAction(SlackModel):
    action_id: str
    block_id: str | None = None
    value: str = ""
    action_ts: str | None = None


class BlockActionsPayload(SlackModel):
    """An interactivity payload of type ``block_actions`` (a button click)."""

    type: str = "block_actions"
    user: IdRef
    team: IdRef | None = None
    channel: IdRef | None = None
    container: Container = Field(default_factory=Container)
    message: ClickedMessage | None = None
    actions: list[BlockAction] = Field(default_factory=list)
    trigger_id: str | None = None
    response_url: str | None = None

    @property
    def channel_id(self) -> str:
        return (self.channel.id if self.channel else "") or self.container.channel_id or ""

    @property
    def team_id(self) -> str | None:
        return (self.team.id if self.team else None) or self.user.team_id

    @property
    def message_ts(self) -> str:
        return (self.message.ts if self.message else "") or self.container.message_ts or ""

    @property
    def thread(self) -> str:
        """The thread the clicked message lives in (its own ts when it is top-level)."""
        if self.message and self.message.thread_ts:
            return self.message.thread_ts
        return self.container.thread_ts or self.message_ts


class SlashCommand(SlackModel):
    command: str
    text: str = ""
    user_id: str
    channel_id: str
    team_id: str | None = None
    channel_name: str | None = None
    trigger_id: str | None = None
    response_url: str | None = None
