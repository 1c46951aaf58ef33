"""How many chat messages a long answer takes: a 13,000-character research report (the typed report
section the research service builds: answer, findings, evidence, steps, sources), the same size
as plain Markdown text (headings, paragraphs, lists), rendered by the Slack and Discord
renderers, and a real search answer (the synthesizer's document for 10 repositories). Targets (issue 13): a
13,000-character report in <= 3 Slack messages and <= 6 Discord messages (8 and 17 before).
Every payload is checked against the platform limits with the fakes' validators.

    .venv/bin/python -m bench.reply_messages
"""

from __future__ import annotations

from bench._util import report
from bot.discord import render as discord_render
from bot.slack import render as slack_render
from core.agents.base import AgentResult
from core.models import DimensionScores, Intent, Reply, RepoList, ScoredRepository
from core.synth.base import SynthesisContext
from core.synth.synthesizer import DefaultSynthesizer
from tests.fakes import documents
from tests.fakes.discord_limits import message_violations
from tests.fakes.slack_api import validate_message

REPORT_CHARS = 13_000


def research_report(chars: int) -> str:
    """A report shaped like the research reports: sections of prose with bullet lists."""
    sections: list[str] = ["# Research report\n\n**Answer:** zustand suits the team best."]
    n = 0
    while sum(len(s) + 2 for s in sections) < chars:
        bullets = "\n".join(f"- finding {n}.{k}: " + "evidence " * 8 for k in range(4))
        prose = f"Section {n} weighs the candidates on activity, maintenance and community. " * 4
        sections.append(f"## Step {n}\n\n{prose.strip()}\n\n{bullets}")
        n += 1
    return "\n\n".join(sections)[:chars]


def search_answer() -> Reply:
    items = [ScoredRepository(full_name=f"owner{n}/library-{n}", stars=50_000 // n, language="TypeScript",
                              description="A state management library for React. " * 3,
                              why="Matches 'state management' in its description.",
                              scores=DimensionScores(overall=8.0 - n / 10, activity=7.0, maintenance=6.5))
             for n in range(1, 25)]
    synthesis = DefaultSynthesizer().synthesize(
        AgentResult(data=RepoList(items=items)),
        SynthesisContext(intent=Intent.SEARCH, message="find react state management libraries"),
    )
    return Reply(conversation_id="bench", document=synthesis.document, intent=Intent.SEARCH,
                 suggestions=synthesis.suggestions)


def measure(label: str, reply: Reply, slack_target: float | None, discord_target: float | None) -> None:
    slack = slack_render.render_reply(reply)
    discord = discord_render.render_reply(reply)
    slack_problems = sum(len(validate_message(m.args())) for m in slack)
    discord_problems = 0
    for message in discord:
        kwargs = message.send_kwargs()
        view = kwargs.get("view")
        wire = {"content": kwargs["content"], "embeds": [e.to_dict() for e in kwargs["embeds"]],
                "components": view.to_components() if view else []}
        discord_problems += len(message_violations(wire))
    report(f"{label}: Slack messages", len(slack), "msgs", slack_target)
    report(f"{label}: Discord messages", len(discord), "msgs", discord_target)
    report(f"{label}: payloads over the limits", slack_problems + discord_problems, "count", 0)


def main() -> None:
    section = documents.report(REPORT_CHARS)
    typed = Reply(conversation_id="bench", document=[section], intent=Intent.CHAT, footer="Research session s1")
    print(f"  a {len(typed.markdown):,}-character research report (typed report section)")
    measure("report", typed, 3, 6)
    text = research_report(REPORT_CHARS)
    print(f"  a {len(text):,}-character report as Markdown text")
    measure("text report", Reply(conversation_id="bench", markdown=text, intent=Intent.CHAT), 3, 6)
    reply = search_answer()
    print(f"  a search answer: 24 repositories, {len(reply.markdown):,} characters as Markdown")
    measure("search", reply, None, None)


if __name__ == "__main__":
    main()
