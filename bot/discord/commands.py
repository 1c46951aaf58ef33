"""Slash commands: ``/search``, ``/analyze``, ``/compare``, ``/ask``, ``/research``.

Each command defers at once (Discord wants an answer within 3 seconds), then follows up with a
one-line "<@user> used /search: ..." message. In a channel a thread is opened from that message
and the conversation continues there, exactly as after a mention; in a thread or a DM the
conversation is that thread or DM. The command becomes the text a user would have typed
("/search react state" -> "find react state"), so the core classifies it like any message.
"""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands

from bot.discord import render
from bot.discord.conversations import thread_name
from bot.discord.outgoing import Outgoing
from bot.discord.payloads import CommandCall, Place, command_of
from bot.discord.turns import DiscordTurns
from core.tasks import TaskTracker

log = logging.getLogger("omg.discord.commands")

Query = app_commands.Range[str, 1, 500]
Repo = app_commands.Range[str, 1, 200]
Repos = app_commands.Range[str, 1, 300]
LongText = app_commands.Range[str, 1, 1000]


MODES = [
    app_commands.Choice(name="Let the bot choose", value="auto"),
    app_commands.Choice(name="Quick Scan (runs at once)", value="quick_scan"),
    app_commands.Choice(name="Deep Probe (plan to approve first)", value="deep_probe"),
]


def search_text(query: str) -> str:
    q = " ".join(query.split())
    return q if re.match(r"(?i)^(find|search|look for|show)\b", q) else f"find {q}"


def analyze_text(repo: str) -> str:
    return f"analyze {' '.join(repo.split())}"


def compare_text(repos: str) -> str:
    names = [n for n in re.split(r"\s*(?:,|\bvs\.?\b|\band\b|\s)\s*", repos.strip()) if n]
    if len(names) < 2:
        return f"compare {' '.join(repos.split())}"
    return "compare " + ", ".join(names[:-1]) + f" and {names[-1]}"


class SlashCommands:
    """``turns`` may be None where the commands are only defined (``omg discord-sync``)."""

    def __init__(
        self, *, client: discord.Client, turns: DiscordTurns | None, tracker: TaskTracker
    ) -> None:
        self.client = client
        self.turns = turns
        self.tracker = tracker

    def register(self, tree: app_commands.CommandTree) -> None:
        @tree.command(name="search", description="Find GitHub repositories")
        @app_commands.describe(query="What you are looking for, e.g. react state management")
        async def search(interaction: discord.Interaction, query: Query) -> None:
            await self.start(interaction, "search", query, search_text(query))

        @tree.command(name="analyze", description="Analyze one GitHub repository")
        @app_commands.describe(repo="owner/name or a well-known name, e.g. pmndrs/zustand")
        async def analyze(interaction: discord.Interaction, repo: Repo) -> None:
            await self.start(interaction, "analyze", repo, analyze_text(repo))

        @tree.command(name="compare", description="Compare two or more GitHub repositories")
        @app_commands.describe(repos="Two or more repositories, e.g. zustand jotai")
        async def compare(interaction: discord.Interaction, repos: Repos) -> None:
            await self.start(interaction, "compare", repos, compare_text(repos))

        @tree.command(name="ask", description="Ask anything about GitHub repositories")
        @app_commands.describe(question="e.g. which of these is best for a small team?")
        async def ask(interaction: discord.Interaction, question: LongText) -> None:
            await self.start(interaction, "ask", question, question)

        @tree.command(name="research", description="Plan and run a research over GitHub")
        @app_commands.describe(goal="What to find out", mode="How deep (default: the bot chooses)")
        @app_commands.choices(mode=MODES)
        async def research(
            interaction: discord.Interaction, goal: LongText,
            mode: app_commands.Choice[str] | None = None,
        ) -> None:
            chosen = None if mode is None or mode.value == "auto" else mode.value
            await self.start(interaction, "research", goal, goal, research_mode=chosen)

    async def start(
        self, interaction: discord.Interaction, name: str, shown: str, text: str, *,
        research_mode: str | None = None,
    ) -> None:
        await interaction.response.defer(thinking=True)  # first: the 3-second window
        if self.turns is None:
            return
        call = command_of(interaction, name)
        place = await self._place(interaction, call, shown)
        if place is None or self.turns is None:
            return
        delivery = call.interaction_id
        if name == "research":
            work = self.turns.research(place, text, call.user.id, mode=research_mode,
                                       delivery_id=delivery)
        else:
            work = self.turns.message(place, text, call.user.id, delivery_id=delivery)
        self.tracker.spawn(work, name=f"discord-{name}")

    async def _place(
        self, interaction: discord.Interaction, call: CommandCall, shown: str
    ) -> Place | None:
        """Follow up, and decide where the conversation lives (a new thread in a channel)."""
        try:
            anchor = await interaction.followup.send(
                wait=True, **_send(render.asked(call.user.id, call.name, shown)))
        except discord.HTTPException as exc:
            log.warning("could not follow up on a command", extra={"error": repr(exc)})
            return None
        place = call.place()
        if place is not None:
            return place
        inline = Place(guild=call.guild_id, channel=call.channel_id, thread=str(anchor.id),
                       inline=True)
        channel = interaction.channel
        if call.kind != "channel" or not isinstance(channel, discord.TextChannel):
            return inline
        try:  # the follow-up comes back without guild info: start the thread through the channel
            await channel.get_partial_message(anchor.id).create_thread(
                name=thread_name(shown, fallback=f"/{call.name}"), auto_archive_duration=1440)
        except discord.HTTPException as exc:
            log.warning("could not open a thread for a command", extra={"error": repr(exc)})
            return inline
        place = Place(guild=call.guild_id, channel=call.channel_id, thread=str(anchor.id))
        if self.turns is not None:
            self.turns.threads.remember(place.key)
        return place


def _send(message: Outgoing) -> dict[str, object]:
    kwargs = message.send_kwargs()
    kwargs.pop("view", None)
    return kwargs
