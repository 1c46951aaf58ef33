"""Buttons that survive restarts: everything a click needs travels in its ``custom_id``.

A ``custom_id`` is ``omg:<code>:<data>`` (at most 100 characters). The code names the action kind
(``s`` suggestion, ``o`` option, ``a`` approve, ``r`` revise, ``c`` cancel, ``f`` feedback) and the
data is the action's value, so a click on a message posted before a restart, with nothing in
memory, still carries the text to send or the ``<session>:<version>`` to decide.

A value that does not fit (a long suggestion or clarification option) is sent as an upper-case
code and a 16-hex-digit digest of the text, and the text itself is listed in the message (the
"Choices" the renderer adds). Discord sends the clicked message with every click, so the text is
found again by digest among the message's lines: still stateless, still restart-proof.

``ActionButton`` is a ``discord.ui.DynamicItem`` registered with ``client.add_dynamic_items``:
discord.py matches any incoming ``custom_id`` against the template and hands the click to the
client's ``on_action_button(interaction, action)`` hook.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, runtime_checkable

import discord
from pydantic import BaseModel, ConfigDict

from bot.rendering import PER_ROW
from core.models import Action, ActionKind

MAX_CUSTOM_ID = 100
MAX_LABEL = 80
MAX_ROWS = 5
DIGEST_CHARS = 16

CODES: dict[ActionKind, str] = {
    ActionKind.SUGGESTION: "s", ActionKind.OPTION: "o", ActionKind.APPROVE: "a",
    ActionKind.REVISE: "r", ActionKind.CANCEL: "c", ActionKind.FEEDBACK: "f",
}
KINDS: dict[str, ActionKind] = {code: kind for kind, code in CODES.items()}
TEMPLATE = re.compile(r"omg:(?P<code>[soarcfSOARCF]):(?P<data>.{1,96})", re.DOTALL)
STYLES = {"primary": discord.ButtonStyle.primary, "danger": discord.ButtonStyle.danger,
          "success": discord.ButtonStyle.success}


class ButtonAction(BaseModel):
    """A decoded ``custom_id``: the kind, and the value or the digest of a listed value."""

    model_config = ConfigDict(frozen=True)

    kind: ActionKind
    value: str | None = None
    digest: str | None = None


class ButtonSpec(BaseModel):
    """One button as the renderer decides it (built into discord.py items by ``build_view``)."""

    model_config = ConfigDict(frozen=True)

    custom_id: str
    label: str
    style: str | None = None
    row: int = 0
    disabled: bool = False
    emoji: str | None = None


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:DIGEST_CHARS]


def encode(kind: ActionKind, value: str) -> str:
    inline = f"omg:{CODES[kind]}:{value}"
    if len(inline) <= MAX_CUSTOM_ID and "\n" not in value:
        return inline
    return f"omg:{CODES[kind].upper()}:{digest(value)}"


def is_listed(action: Action) -> bool:
    """True when the value does not fit the custom_id and must be listed in the message."""
    return encode(action.kind, action.value).split(":", 2)[1].isupper()


def decode(custom_id: str) -> ButtonAction | None:
    match = TEMPLATE.fullmatch(custom_id)
    if match is None:
        return None
    code, data = match.group("code"), match.group("data")
    kind = KINDS[code.lower()]
    if code.isupper():
        return ButtonAction(kind=kind, digest=data) if re.fullmatch(r"[0-9a-f]{16}", data) else None
    return ButtonAction(kind=kind, value=data)


_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")


def candidate_lines(message: discord.Message) -> Iterable[str]:
    """Every line a listed value could be on: content, embed descriptions and field values."""
    texts = [message.content]
    for embed in message.embeds:
        texts.append(embed.description or "")
        texts += [f.value or "" for f in embed.fields]
    for text in texts:
        for line in text.splitlines():
            stripped = _BULLET.sub("", line).strip()
            if stripped:
                yield stripped


def resolve(action: ButtonAction, message: discord.Message | None) -> str | None:
    """The value of a click: inline, or found by digest among the message's listed lines."""
    if action.value is not None:
        return action.value
    if message is None or action.digest is None:
        return None
    return next((line for line in candidate_lines(message) if digest(line) == action.digest), None)


def clip_label(label: str) -> str:
    label = " ".join(label.split()) or "…"
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1].rstrip() + "…"


# -- discord.py items --------------------------------------------------------------------------------


@runtime_checkable
class ButtonReceiver(Protocol):
    """The client that takes the clicks (``bot.discord.client.OmgClient``)."""

    async def on_action_button(self, interaction: discord.Interaction, action: ButtonAction) -> None: ...


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=TEMPLATE):
    def __init__(
        self, custom_id: str, *, label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary, disabled: bool = False,
        emoji: str | discord.PartialEmoji | None = None, row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id, disabled=disabled,
                              emoji=emoji),
            row=row,
        )
        self.action = decode(custom_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> "ActionButton":
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match.group(0), label=button.label if button else None,
            style=button.style if button else discord.ButtonStyle.secondary,
            disabled=button.disabled if button else False,
            emoji=button.emoji if button else None,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        client = interaction.client
        if isinstance(client, ButtonReceiver) and self.action is not None:
            await client.on_action_button(interaction, self.action)


def build_view(specs: list[ButtonSpec]) -> discord.ui.View | None:
    if not specs:
        return None
    view = discord.ui.View(timeout=None)
    for spec in specs[: MAX_ROWS * PER_ROW]:
        view.add_item(ActionButton(
            spec.custom_id, label=clip_label(spec.label),
            style=STYLES.get(spec.style or "", discord.ButtonStyle.secondary),
            disabled=spec.disabled, emoji=spec.emoji, row=spec.row,
        ))
    return view


def buttons_of(message: discord.Message) -> Iterator[tuple[int, discord.Button]]:
    """(row, button) for every button on a message."""
    for row_index, row in enumerate(message.components):
        if isinstance(row, discord.ActionRow):
            yield from ((row_index, c) for c in row.children if isinstance(c, discord.Button))


def rebuilt_view(
    message: discord.Message, *, keep: Callable[[ButtonAction], bool] = lambda a: True,
    disable: Callable[[ButtonAction, str], bool] = lambda a, cid: False,
) -> discord.ui.View | None:
    """The message's buttons again, minus those ``keep`` rejects, some disabled: used to mark a
    chosen option or a decided plan without re-rendering the answer."""
    view = discord.ui.View(timeout=None)
    for row_index, component in buttons_of(message):
        action = decode(component.custom_id) if component.custom_id else None
        if action is None or component.custom_id is None:
            if component.url:
                view.add_item(discord.ui.Button(label=component.label, url=component.url, row=row_index))
            continue
        if keep(action):
            view.add_item(ActionButton(
                component.custom_id, label=component.label, style=component.style,
                disabled=component.disabled or disable(action, component.custom_id),
                emoji=component.emoji, row=row_index,
            ))
    return view if view.children else None
