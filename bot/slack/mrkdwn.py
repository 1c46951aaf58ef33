"""Slack text: escaping and links for the ``mrkdwn`` we write (cards, notes, context lines), and a
user's message back to plain text for the core.

The core's Markdown itself is never converted: Slack draws it in ``markdown`` blocks.
"""

from __future__ import annotations

import re


_SLACK_LINK = re.compile(r"<((?:https?|mailto):[^>|]+)(?:\|([^>]*))?>")
_SLACK_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")
_SLACK_CHANNEL = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
_SLACK_SPECIAL = re.compile(r"<!([a-z]+)(?:\|[^>]*)?>")


def escape(text: str) -> str:
    """Escape Slack's three control characters (for any text we send)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def link(url: str, label: str) -> str:
    """A Slack link; ``|`` and ``>`` cannot appear inside one, so they are dropped/escaped."""
    safe_url = url.replace(">", "%3E").replace("|", "%7C").replace(" ", "%20")
    return f"<{safe_url}|{escape(label.replace('|', '/'))}>"


def from_slack(text: str, *, bot_user_id: str | None = None) -> str:
    """A user's Slack message as plain text for the core: the bot mention removed, links
    unwrapped (``<https://x|x>`` -> ``https://x``), entities unescaped."""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>", " ", text)
    text = _SLACK_LINK.sub(
        lambda m: m.group(1) if m.group(1).startswith("http") else m.group(2) or m.group(1), text
    )
    text = _SLACK_USER.sub(r"@\1", text)
    text = _SLACK_CHANNEL.sub(lambda m: f"#{m.group(2) or m.group(1)}", text)
    text = _SLACK_SPECIAL.sub(r"@\1", text)
    return re.sub(r"[ \t]{2,}", " ", unescape(text)).strip()


def mentions(text: str, user_id: str | None) -> bool:
    return bool(user_id) and re.search(rf"<@{re.escape(user_id or '')}(?:\|[^>]*)?>", text) is not None


def addressed_to_someone_else(text: str, user_id: str | None) -> bool:
    """A message that opens with a mention of another person ("@alice what do you think?")."""
    opening = _SLACK_USER.match(text.lstrip())
    return opening is not None and opening.group(1) != user_id
