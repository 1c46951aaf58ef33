"""The scripted conversations of ``bench.conversations``, as a demanding user would judge them.

Every reply of every conversation must answer in its first paragraph, be about the right
repositories, claim nothing that wasn't measured, read without garbled phrases and leave no dead
end. ``python -m bench conversations`` prints the same checks as figures.
"""

from __future__ import annotations

from bench.conversations import CONVERSATIONS, Step, check_reply, run_all
from core.models import Comparison, ResultMeta, Reply


async def test_every_scripted_conversation_passes_every_check() -> None:
    verdicts = await run_all()
    failed = [f"{v.conversation} · turn {v.turn} {v.said!r}: {'; '.join(v.failures)}"
              for v in verdicts if v.failures]
    assert not failed, "\n".join(failed)
    assert len(CONVERSATIONS) >= 35 and len(verdicts) >= 69


def test_the_checks_catch_what_users_complained_about() -> None:
    """The checker itself: each complaint from the issue is flagged."""
    step = Step("compare the first two", Comparison)
    reply = Reply(
        conversation_id="c-1",
        markdown=(
            "_Following up on the a static site generator written in Go repositories we found..._\n\n"
            "I compared 2 repositories.\n\n- Maintenance: 10.0/10 (how quickly issues and pull requests "
            "get handled)\n\nNote: Only 0 of these 10 results are in Go. You named 10 repositories. "
            "It is a HTML project.\n\nThis comes from an offline snapshot of GitHub."),
        structured_data=Comparison(items=[], meta=ResultMeta(source="catalog")),
    )
    problems = " | ".join(check_reply(step, reply, None, user_named=False))
    for expected in ("article inside a quoted request", "'Only 0 of'", "You named N", "wrong article",
                     "maintenance explained as issue handling"):
        assert expected in problems
