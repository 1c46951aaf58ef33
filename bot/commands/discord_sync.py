"""``omg discord-sync [--force] [--guild ID]``: register the Discord slash commands deliberately.

Logs in over REST only (no gateway), syncs when the command definitions changed since the last
recorded sync (or always with ``--force``), records the sync under ``OMG_DATA_DIR/discord/``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Mapping

from core.config import load_environment


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("discord-sync", help="register the Discord slash commands")
    parser.add_argument("--force", action="store_true", help="sync even if nothing changed")
    parser.add_argument("--guild",
                        help="sync to this server id (default: DISCORD_GUILD_ID, else global)")
    parser.set_defaults(func=lambda args: asyncio.run(sync_commands(args)))


async def sync_commands(args: argparse.Namespace, env: Mapping[str, str] | None = None) -> int:
    import discord

    from bot.discord.client import Listeners, OmgClient
    from bot.discord.commands import SlashCommands
    from bot.discord.settings import DiscordSettings, apply_endpoints
    from bot.discord.sync import CommandSync
    from core.tasks import TaskTracker

    values = dict(env if env is not None else load_environment())
    if args.guild:
        values["DISCORD_GUILD_ID"] = str(args.guild)
    settings = DiscordSettings.from_env(values)
    problems = settings.problems()
    if problems:
        print("Discord is not set up yet: " + " ".join(problems), file=sys.stderr)
        return 2
    restore = apply_endpoints(settings)
    client = OmgClient(settings, message_content=False)
    client.sync_policy = "never"  # sync below, once, with the --force choice
    commands = SlashCommands(client=client, turns=None, tracker=TaskTracker())
    client.listeners = Listeners(commands=commands)
    try:
        await client.login(settings.token)
        result = await CommandSync(settings).sync(client, client.tree, force=args.force)
    except discord.LoginFailure:
        print("Discord refused DISCORD_TOKEN: copy the bot token again from the Developer Portal.",
              file=sys.stderr)
        return 1
    except discord.HTTPException as exc:
        print(f"Discord refused the sync: {exc}", file=sys.stderr)
        return 1
    finally:
        await client.close()
        restore()
    where = "globally (may take a while to show everywhere)" if result.scope == "global" else (
        f"to server {result.scope.split(':', 1)[1]} (instant)")
    if result.synced:
        print(f"Synced {len(result.commands)} commands {where}: /" + ", /".join(result.commands))
    else:
        print(f"Commands are up to date ({where.split(' (')[0]}); use --force to sync anyway.")
    return 0
