"""Which platforms to serve, from the environment: Slack and/or Discord, else the shell."""

from __future__ import annotations

from bot.app import BotApp
from bot.base import Backend


def select_backends(app: BotApp) -> list[Backend]:
    """Slack when SLACK_BOT_TOKEN is set, Discord when DISCORD_TOKEN is set (both may run in one
    process); with no platform token, the terminal shell."""
    backends: list[Backend] = []
    if app.env.get("SLACK_BOT_TOKEN"):
        from bot.slack import SlackBackend

        backends.append(SlackBackend(app.ports))
    if app.env.get("DISCORD_TOKEN"):
        from bot.discord import DiscordBackend

        backends.append(DiscordBackend(app.ports))
    if not backends:
        from bot.shell import ShellBackend

        backends.append(ShellBackend(app.ports))
    return backends


def reply_router(backends: list[Backend]):
    """One notifier for the research service: each reply goes to the backend of its platform."""
    from core.models import ConversationKey, Reply

    async def deliver(key: ConversationKey, reply: Reply) -> None:
        for backend in backends:
            if key.platform in backend.platforms:
                await backend.deliver(key, reply)
                return
        await backends[0].deliver(key, reply)

    return deliver
