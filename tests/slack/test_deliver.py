"""Replies nobody is waiting for (a research report resumed after a restart) reach their thread."""

from __future__ import annotations

from bot.backends import reply_router
from bot.shell import ShellBackend
from core.models import ConversationKey, Reply
from tests.fakes.slack_api import TEAM


async def test_router_delivers_a_resumed_report_into_the_slack_thread(slack) -> None:
    shell = ShellBackend(slack.app.ports, interactive=False)
    deliver = reply_router([shell, slack.backend])
    key = ConversationKey(platform="slack", team=TEAM, channel="C9", thread="1700000000.000100")
    await deliver(key, Reply(conversation_id=key.conversation_id,
                             markdown="## Research report\nEverything **done**."))
    posted = slack.fake.thread("C9", "1700000000.000100")
    assert len(posted) == 1 and "Research report" in posted[0].text
