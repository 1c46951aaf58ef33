"""The Slack adapter: threads as conversations, Block Kit answers, buttons, paced progress.

    backend.py    SlackBackend: wiring, HTTP or Socket Mode, graceful shutdown
    listeners.py  bolt listeners: payload -> ack -> background work
    assistant.py  AI-app assistant threads (bolt AsyncAssistant): prompts, title, status
    stream.py     answers streamed natively (chat.startStream/appendStream/stopStream)
    turns.py      the platform side of the kernel (bot/turns.py)
    progress.py   the status message and assistant status, paced by core.pacing
    render.py     a reply's document as Block Kit (blockkit.py: limits and packing; mrkdwn.py: text)
    api.py        Web API calls and Slack's failure modes (429, msg_too_long)
    payloads.py   typed Slack wire payloads
"""

from bot.slack.backend import SlackBackend

__all__ = ["SlackBackend"]
