"""Rendering stays within Discord's limits whatever the core hands over (checked by the fake's
independent oracle), and the custom_id codec round-trips."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.discord import buttons as btn
from bot.discord import render
from bot.discord.conversations import arrival_of, thread_name
from bot.routing import Where, route
from bot.discord.markdown import to_discord
from bot.rendering import split_markdown
from bot.discord.payloads import Author, ChatMessage, without_bot_mention
from core.agents.base import AgentResult
from core.models import (
    Action,
    ActionKind,
    Comparison,
    ComparisonRow,
    DimensionScores,
    Document,
    Intent,
    RepoCard,
    RepoCardsSection,
    RepoDetailData,
    RepoList,
    Reply,
    RepositoryDetail,
    ScoredRepository,
    StructuredData,
    TableCell,
    TableSection,
    TextSection,
)
from core.synth.base import SynthesisContext
from core.synth.synthesizer import DefaultSynthesizer
from tests.fakes import documents
from tests.fakes.discord_limits import message_violations


def wire(message: render.Outgoing) -> dict[str, Any]:
    kwargs = message.send_kwargs()
    view = kwargs.get("view")
    return {"content": kwargs["content"], "embeds": [e.to_dict() for e in kwargs["embeds"]],
            "components": view.to_components() if view else []}


def repo(i: int, *, long: bool = False) -> ScoredRepository:
    name = f"owner{i}/{'x' * (90 if long else 5)}{i}"
    return ScoredRepository(full_name=name, stars=1000 * i, language="Python",
                            description=("d" * 3000) if long else f"repo {i}",
                            why=("w" * 2000) if long else "why", scores=DimensionScores(overall=7.5))


def synthesized(data: StructuredData) -> Document:
    """The document the real synthesizer makes of ``data``."""
    context = SynthesisContext(intent=Intent.SEARCH, message="find things")
    return DefaultSynthesizer().synthesize(AgentResult(data=data), context).document


def reply(**kw: Any) -> Reply:
    return Reply(conversation_id="c", markdown=kw.pop("markdown", "Hello"), intent=Intent.SEARCH, **kw)


@pytest.mark.parametrize("long", [False, True])
def test_big_structured_answers_fit(long: bool) -> None:
    items = [repo(i, long=long) for i in range(1, 40)]
    cases = [
        reply(document=[TextSection(markdown="x " * 5000), *synthesized(RepoList(items=items))]),
        reply(document=synthesized(Comparison(items=[
            ComparisonRow(repo=r, highlights=["h" * 500] * 3, warnings=["w" * 500] * 3)
            for r in items]))),
        reply(document=synthesized(RepoDetailData(repo=RepositoryDetail(**items[0].model_dump())))),
        reply(suggestions=[], actions=[Action(kind=ActionKind.SUGGESTION, label="s" * 200 + str(i),
                                              value="v" * 300 + str(i)) for i in range(40)]),
    ]
    for case in cases:
        messages = render.render_reply(case)
        for message in messages:
            assert message_violations(wire(message)) == []
        assert sum(len(m.buttons) for m in messages) <= 25
        listed = [a for a in render.buttoned(case.actions) if btn.is_listed(a)]
        choices = [f.value for m in messages for e in m.embeds if e.title == "Choices" for f in e.fields]
        assert choices == [a.value for a in listed]  # every long choice can be found again


def card(n: int) -> RepoCard:
    return RepoCard(position=n, full_name=f"owner{n}/xxxxx{n}", html_url=f"https://github.com/owner{n}/xxxxx{n}",
                    stars=1000 * n, language="Python", overall=7.0, facts="", description="A tool.", why="Fast.")


def test_repo_cards_are_an_embed_between_the_prose() -> None:
    document = [TextSection(markdown="Found two."), RepoCardsSection(title="Top 2 picks", cards=[card(1), card(2)]),
                TextSection(markdown="Want more?")]
    [message] = render.render_reply(reply(document=document))
    assert message.content == "Found two.\n\nWant more?"
    [embed] = message.embeds
    assert embed.title == "Top 2 picks"
    assert [f.name for f in embed.fields] == ["1. owner1/xxxxx1", "2. owner2/xxxxx2"]
    assert "score **7.0**/10" in embed.fields[0].value and "*Fast.*" in embed.fields[0].value


def test_a_comparison_table_is_an_embed_with_a_field_per_repository() -> None:
    table = TableSection(title="Key differences", header=["Repository", "Stars", "Quality"], rows=[
        [TableCell(text="a/one", url="https://github.com/a/one"), TableCell(text="1k"), TableCell(text="7.0")],
        [TableCell(text="b/two", url="https://github.com/b/two"), TableCell(text="2k"), TableCell(text="6.5")],
    ])
    [message] = render.render_reply(reply(document=[TextSection(markdown="I compared 2."), table]))
    [embed] = message.embeds
    assert [f.name for f in embed.fields] == ["a/one", "b/two"]
    assert embed.fields[1].value == "[b/two](https://github.com/b/two)\nStars: **2k**\nQuality: **6.5**"


def long_report(chars: int) -> str:
    paragraphs: list[str] = []
    n = 0
    while sum(len(p) + 2 for p in paragraphs) < chars:
        paragraphs.append(f"### Finding {n}\nParagraph {n}: " + " ".join(f"word{n}-{k}" for k in range(60)))
        n += 1
    return "\n\n".join(paragraphs)


def test_a_13000_character_report_arrives_in_at_most_six_messages() -> None:
    markdown = long_report(13_000)
    messages = render.render_reply(reply(markdown=markdown, footer="Research session s1"))
    assert len(messages) <= 6
    for message in messages:
        assert message.content == "" and len(message.embeds) <= 10
        assert sum(len(e) for e in message.embeds) <= 6000
        assert all(len(e.description or "") <= 4096 for e in message.embeds)
        for embed in message.embeds:
            discord.Embed.from_dict(embed.to_dict())  # discord.py's own model takes it back
    text = "\n\n".join(e.description or "" for m in messages for e in m.embeds)
    for n in range(markdown.count("### Finding")):
        assert f"word{n}-59" in text  # every paragraph arrived, once
    assert messages[-1].buttons and not any(m.buttons for m in messages[:-1])


def test_footer_and_feedback() -> None:
    [message] = render.render_reply(reply(footer="LLM cost: $0.0001"))
    assert message.content.endswith("-# LLM cost: $0.0001")
    assert [b.label for b in message.buttons] == ["Helpful", "Wrong answer"]
    [failed] = render.render_reply(reply(error="timeout"))
    assert failed.buttons == []


def test_plan_buttons_come_first_without_feedback() -> None:
    actions = [Action(kind=k, label=k.value.title(), value="sess-1:2")
               for k in (ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL)]
    [message] = render.render_reply(reply(actions=actions))
    assert [(b.label, b.row, b.style) for b in message.buttons] == [
        ("Approve", 0, "success"), ("Revise", 0, None), ("Cancel", 0, "danger")]
    assert message.buttons[0].custom_id == "omg:a:sess-1:2"


@pytest.mark.parametrize("text", ["short", "é" * 95, "x" * 94, "x" * 95, "line\nbreak", "a:b:c"])
def test_custom_id_round_trip(text: str) -> None:
    custom_id = btn.encode(ActionKind.SUGGESTION, text)
    assert len(custom_id) <= 100
    decoded = btn.decode(custom_id)
    assert decoded is not None and decoded.kind is ActionKind.SUGGESTION
    if decoded.value is not None:
        assert decoded.value == text
    else:
        assert decoded.digest == btn.digest(text)
    assert btn.decode("omg:S:not-hex") is None and btn.decode("other:s:x") is None


def test_markdown_tables_headings_and_splitting() -> None:
    text = to_discord("#### Deep\n\n| a | b |\n|---|---|\n| **1** | [x](http://y) |\n\n---\nend")
    assert text == "**Deep**\n\n```\na  b\n-  -\n1  x\n```\n\nend"
    code = "```py\n" + "\n".join(f"line {i}" for i in range(600)) + "\n```"
    parts = split_markdown(code, 2000)
    assert len(parts) > 1 and all(len(p) <= 2000 and p.count("```") % 2 == 0 for p in parts)
    assert all(p.startswith("```py") for p in parts)


def test_thread_names_and_mentions() -> None:
    assert thread_name("<@9001> **find** react   state") == "find react state"
    long = thread_name("word " * 60)
    assert len(long) <= 100 and long.endswith("…")
    assert thread_name("<@9001>", fallback="Question from alice") == "Question from alice"
    assert without_bot_mention("<@9001> hi <@5001>", 9001) == "hi <@5001>"
    assert without_bot_mention("<@&77> hi <@&78>", 9001, ("77",)) == "hi <@&78>"


def message(kind: str, **kw: Any) -> ChatMessage:
    values: dict[str, Any] = {"id": "1", "channel_id": "2", "guild_id": "3", "kind": kind,
                              "author": Author(id="5", name="a"), "content": "hi"}
    values.update(kw)
    return ChatMessage(**values)


async def where(msg: ChatMessage, participates: bool = False) -> Where:
    async def takes_part() -> bool:
        return participates

    return await route(arrival_of(msg), takes_part)


async def test_routing_rules() -> None:
    assert await where(message("dm", guild_id=None)) is Where.HERE
    assert await where(message("channel")) is Where.IGNORE
    assert await where(message("channel", mentions_bot=True)) is Where.NEW_THREAD
    assert await where(message("thread", parent_id="2")) is Where.IGNORE
    assert await where(message("thread", parent_id="2"), participates=True) is Where.HERE
    assert await where(message("thread", parent_id="2", mentions_bot=True)) is Where.HERE
    assert await where(message("thread", parent_id="2", mentions_others=True),
                       participates=True) is Where.IGNORE  # people talking to each other
    assert await where(message("other", mentions_bot=True)) is Where.IN_PLACE
    assert await where(message("other")) is Where.IGNORE
    assert await where(message("channel", reply_anchor="9")) is Where.REPLY_CHAIN
    assert await where(message("thread", parent_id="2", reply_anchor="9")) is Where.IGNORE  # threads: membership


def test_a_plan_is_an_embed_with_a_field_per_step() -> None:
    [message] = render.render_reply(reply(document=[documents.plan()]))
    assert wire(message) and message_violations(wire(message)) == []
    [embed] = message.embeds
    assert embed.title == "Research plan · Deep Probe · revision 2"
    assert embed.description and embed.description.startswith("> Should we migrate")
    names = [f.name for f in embed.fields]
    assert names == ["1. Browse", "2. Analyze", "3. Search", "4. Browse", "5. Analyze",
                     "Revised for the feedback", "Your decision"]
    discord.Embed.from_dict(embed.to_dict())


def test_a_13000_character_report_section_reads_in_order_in_at_most_six_messages() -> None:
    messages = render.render_reply(reply(document=[documents.report(13_000)], footer="Research session s1"))
    assert len(messages) <= 6
    for message in messages:
        assert message.content == "" and message_violations(wire(message)) == []
        for embed in message.embeds:
            discord.Embed.from_dict(embed.to_dict())
    embeds = [e for m in messages for e in m.embeds]
    answer = embeds[0]
    assert answer.title == "Research report: Should we migrate from Redux to Zustand?"
    assert answer.description and answer.description.startswith("**Stay on Redux**")
    assert [f.name for f in answer.fields] == ["Confidence", "Not checked"]
    assert embeds[-1].title == "Sources" and "(https://github.com/owner40/project-40)" in (embeds[-1].description or "")
    assert embeds[-1].footer.text == "Research session s1"
    text = "\n".join(e.description or "" for e in embeds)
    assert text.index("### Measured comparison") < text.index("### Evidence") < text.index("### Steps")
