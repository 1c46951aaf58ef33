"""The Discord adapter: threads as conversations, embeds, persistent buttons, slash commands.

    backend.py        DiscordBackend: wiring, connect / reconnect without the privileged intent
    client.py         the discord.py client: intents, command tree, persistent buttons, hooks
    messages.py       gateway messages -> conversations (conversations.py: the routing rules)
    clicks.py         buttons and the plan-revision form (buttons.py: custom_id codec, DynamicItem)
    commands.py       /search /analyze /compare /ask /research (sync.py: deliberate syncing)
    turns.py          the platform side of the kernel (bot/turns.py)
    progress.py       the status message, paced by core.pacing
    render.py         every message we show (markdown.py: Discord Markdown and splitting)
    payloads.py       typed views of Discord's payloads (Place, ChatMessage, CommandCall)
    settings.py       DISCORD_* settings and endpoint overrides
"""

from bot.discord.backend import DiscordBackend

__all__ = ["DiscordBackend"]
