"""Button clicks and the plan-revision form: answered within 3 s, then handed to ``Turns``.

* suggestion / option: the click is answered by updating the message (the chosen suggestion, or
  every option of an answered clarification, is disabled -- visible to everyone and kept by
  Discord across restarts); then "<@user> chose: ..." and the answer follow in the conversation.
  A second click on the same button (a double click, or a race before the update lands) gets an
  ephemeral note.
* approve / cancel: deferred, then decided by the research service, which enforces
  requester-only and stale / double clicks; its refusals go to the clicker only (ephemeral).
  Once a decision stands, the plan's buttons are replaced by "Approved by @user".
* revise: a form (modal) asks what to change, sent before anything is awaited (a modal must be
  the interaction's first answer, within 3 seconds); its submission is a revise with the
  feedback inline (``<session>:<version>:<feedback>``), decided like any click: someone who may
  not decide, or an older / decided plan, gets the research service's refusal ephemerally. The
  modal is handled statelessly, by its ``custom_id``, so it works even if the bot restarted
  while the form was open.
* feedback: thanked ephemerally, logged by the service.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord import buttons as btn
from bot.discord import render
from bot.discord.buttons import ButtonAction
from bot.discord.outgoing import MAX_CONTENT, NO_MENTIONS
from bot.discord.payloads import Place, interaction_place
from bot.discord.turns import DiscordTurns
from bot.rendering import DECISIONS
from core.tasks import TaskTracker
from core.models import ActionClick, ActionKind
from core.store.base import EventDeduper

log = logging.getLogger("omg.discord.clicks")

USED_TTL = 7 * 24 * 3600.0
ALREADY_CHOSEN = "That was already picked: the answer is in the conversation."
ALREADY_ANSWERED = "This question was already answered; ask again if you'd like another option."
UNKNOWN_PLACE = "I can't tell which conversation this button belongs to. Please ask me again."
UNREADABLE = "I couldn't read that button any more. Please ask me again."
THANKS = "Thanks for the feedback!"
FEEDBACK_TWICE = "You already gave feedback on this answer. Thanks!"
FEEDBACK_FIELD = "feedback"


class ClickListener:
    """``button_state`` remembers which buttons were used (a picked suggestion, an answered
    clarification, feedback given): that is what the message shows, not delivery de-duplication,
    which the core does."""

    def __init__(self, *, turns: DiscordTurns, tracker: TaskTracker, button_state: EventDeduper) -> None:
        self.turns = turns
        self.tracker = tracker
        self.button_state = button_state

    async def _first_use(self, scope: str) -> bool:
        return await self.button_state.first_time(f"discord:{scope}", USED_TTL)

    async def on_button(self, interaction: discord.Interaction, action: ButtonAction) -> None:
        custom_id = str((interaction.data or {}).get("custom_id", ""))
        if action.kind is ActionKind.REVISE:  # the modal first: nothing may be awaited before it
            await interaction.response.send_modal(revision_modal(custom_id))
            return
        place, user = interaction_place(interaction), str(interaction.user.id)
        value = btn.resolve(action, interaction.message)
        if place is None or value is None:
            await _ephemeral(interaction, UNKNOWN_PLACE if place is None else UNREADABLE)
            return
        click = ActionClick(key=place.key, kind=action.kind, value=value, user=user, delivery_id=str(interaction.id))
        if action.kind in (ActionKind.SUGGESTION, ActionKind.OPTION):
            await self._choice(interaction, place, click, custom_id)
        elif action.kind in DECISIONS:
            await interaction.response.defer()
            self.tracker.spawn(self._decide(interaction, place, click), name="discord-decision")
        elif action.kind is ActionKind.FEEDBACK:
            message_id = interaction.message.id if interaction.message else None
            first = await self._first_use(f"fb:{message_id}:{user}")
            await _ephemeral(interaction, THANKS if first else FEEDBACK_TWICE)
            if first:
                self.tracker.spawn(self.turns.feedback(place, click), name="discord-feedback")

    async def _choice(
        self, interaction: discord.Interaction, place: Place, click: ActionClick, custom_id: str
    ) -> None:
        message = interaction.message
        option = click.kind is ActionKind.OPTION
        message_id = message.id if message else "-"
        scope = f"answered:{message_id}" if option else f"used:{message_id}:{custom_id}"
        if not await self._first_use(scope):
            await _ephemeral(interaction, ALREADY_ANSWERED if option else ALREADY_CHOSEN)
            return
        view = btn.rebuilt_view(
            message, disable=lambda a, cid: cid == custom_id or (option and a.kind is ActionKind.OPTION)
        ) if message is not None else None
        if message is not None:
            await interaction.response.edit_message(view=view)
        else:
            await interaction.response.defer()
        self.tracker.spawn(self.turns.choice(place, click), name="discord-choice")

    async def _decide(self, interaction: discord.Interaction, place: Place, click: ActionClick) -> None:
        async def retire_plan_buttons() -> None:
            await mark_decided(interaction, click.kind, click.user)

        refusal = await self.turns.decision(place, click, retire_plan_buttons)
        if refusal is not None:
            await _followup_ephemeral(interaction, refusal.markdown)

    # -- the revision form ---------------------------------------------------------------------------

    async def on_modal(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        action = btn.decode(str(data.get("custom_id", "")))
        if action is None or action.kind is not ActionKind.REVISE:
            return  # not ours
        place = interaction_place(interaction)
        value = btn.resolve(action, interaction.message)
        feedback = " ".join(_text_inputs(data.get("components") or []).get(FEEDBACK_FIELD, "").split())
        if place is None or value is None:
            await _ephemeral(interaction, UNKNOWN_PLACE if place is None else UNREADABLE)
            return
        if not feedback:
            await _ephemeral(interaction, "Tell me what should change in the plan, then send it again.")
            return
        click = ActionClick(key=place.key, kind=ActionKind.REVISE, value=f"{value}:{feedback}",
                            user=str(interaction.user.id), delivery_id=str(interaction.id))
        await interaction.response.defer()
        self.tracker.spawn(self._decide(interaction, place, click), name="discord-revision")


def revision_modal(custom_id: str) -> discord.ui.Modal:
    modal = discord.ui.Modal(title="Revise the research plan", custom_id=custom_id, timeout=None)
    modal.add_item(discord.ui.TextInput(
        label="What should change in the plan?", custom_id=FEEDBACK_FIELD,
        style=discord.TextStyle.paragraph, max_length=1000,
        placeholder="e.g. focus on TypeScript projects, leave out archived repositories",
    ))
    modal.stop()  # handled by custom_id in on_modal, not by this (in-memory) object
    return modal


async def mark_decided(interaction: discord.Interaction, kind: ActionKind, user: str) -> None:
    """The plan message after a decision: its decision buttons replaced by who decided what
    (an update of the clicked message through the interaction, as a reply to the click)."""
    message = interaction.message
    if message is None:
        return
    line = render.decided_line(kind, user)
    fits = len(message.content) + len(line) + 1 <= MAX_CONTENT
    content = f"{message.content}\n{line}".strip() if fits else message.content
    view = btn.rebuilt_view(message, keep=lambda a: a.kind not in DECISIONS)
    try:
        await interaction.edit_original_response(content=content or None, view=view,
                                                 allowed_mentions=NO_MENTIONS)
    except discord.HTTPException:  # the interaction token expired (15 minutes): edit directly
        await message.edit(content=content or None, view=view, allowed_mentions=NO_MENTIONS)


def _text_inputs(components: list[dict[str, Any]]) -> dict[str, str]:
    """custom_id -> value of every text input in a modal submission (rows or labels)."""
    found: dict[str, str] = {}
    for component in components:
        if component.get("type") == 4 and "custom_id" in component:
            found[str(component["custom_id"])] = str(component.get("value") or "")
        for key in ("components", "component"):
            inner = component.get(key)
            if isinstance(inner, list):
                found.update(_text_inputs(inner))
            elif isinstance(inner, dict):
                found.update(_text_inputs([inner]))
    return found


async def _ephemeral(interaction: discord.Interaction, text: str) -> None:
    if interaction.response.is_done():
        await _followup_ephemeral(interaction, text)
        return
    await interaction.response.send_message(render.note(text).content, ephemeral=True,
                                            allowed_mentions=NO_MENTIONS)


async def _followup_ephemeral(interaction: discord.Interaction, text: str) -> None:
    try:
        await interaction.followup.send(render.note(text).content, ephemeral=True,
                                        allowed_mentions=NO_MENTIONS)
    except discord.HTTPException as exc:  # the 15-minute token may have run out
        log.info("could not send an ephemeral note", extra={"error": repr(exc)})
