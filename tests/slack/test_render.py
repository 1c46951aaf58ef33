"""bot.slack.render: each structured type as Block Kit, always within Slack's limits."""

from __future__ import annotations

import json
import re

from bot.slack import blockkit as bk
from bot.slack import render
from bot.rendering import split_markdown
from core.models import (
    Action,
    ActionKind,
    Clarification,
    Classification,
    Comparison,
    ComparisonRow,
    DimensionScores,
    Intent,
    RepoDetailData,
    RepoList,
    RepositoryDetail,
    RepoCard,
    RepoCardsSection,
    RepoDetailSection,
    Reply,
    ScoredRepository,
    TableCell,
    TableSection,
    TextSection,
)
from tests.fakes import documents
from tests.fakes.slack_api import validate_message


def repo(name: str, stars: int = 45_300, language: str | None = "TypeScript", overall: float = 8.4,
         why: str = "Tiny, unopinionated state management.") -> ScoredRepository:
    return ScoredRepository(full_name=name, stars=stars, language=language, why=why,
                            scores=DimensionScores(overall=overall, maintenance=7.5, activity=9.0))


def valid(messages: list[bk.SlackMessage]) -> list[bk.SlackMessage]:
    for message in messages:
        assert validate_message(message.args()) == [], message.args()
    return messages


def texts(message: bk.SlackMessage) -> str:
    return json.dumps(message.blocks, ensure_ascii=False)


def answer(markdown: str, **kwargs) -> Reply:
    return Reply(conversation_id="c", markdown=markdown, intent=Intent.SEARCH, confidence=0.92,
                 classification=Classification(intent=Intent.SEARCH, confidence=0.92), **kwargs)


def card(position: int, name: str, stars: int = 45_300, overall: float | None = 8.4,
         why: str | None = "Tiny, unopinionated state management.") -> RepoCard:
    return RepoCard(position=position, full_name=name, html_url=f"https://github.com/{name}",
                    stars=stars, language="TypeScript", overall=overall,
                    facts=f"{stars} stars · TypeScript", description="A library.", why=why)


def document_answer(*sections, **kwargs) -> Reply:
    return Reply(conversation_id="c", document=list(sections), intent=Intent.SEARCH, confidence=0.92,
                 classification=Classification(intent=Intent.SEARCH, confidence=0.92), **kwargs)


def test_repo_cards_are_native_sections_between_the_prose_blocks():
    reply = document_answer(
        TextSection(markdown="Based on your query, I found **2 repositories** for *react state*."),
        RepoCardsSection(title="Top 2 picks", cards=[
            card(1, "pmndrs/zustand"), card(2, "pmndrs/jotai", 18_200, 7.9, "**Atomic** state.")]),
        TextSection(markdown="Would you like me to analyze any of these?"),
    )
    [message] = valid(render.render_reply(reply))
    kinds = [b["type"] for b in message.blocks]
    assert kinds[:5] == ["markdown", "section", "section", "section", "markdown"]
    assert message.blocks[0]["text"].startswith("Based on your query, I found **2 repositories**")
    assert message.blocks[1]["text"]["text"] == "*Top 2 picks*"
    first, second = message.blocks[2]["text"]["text"], message.blocks[3]["text"]["text"]
    assert first.startswith("1. *<https://github.com/pmndrs/zustand|pmndrs/zustand>*")
    assert ":star: 45.3k" in first and "TypeScript" in first and "score *8.4*/10" in first
    assert "Tiny, unopinionated state management." in first
    assert second.endswith("\nAtomic state.")  # the why line, as plain text under the facts
    assert "2 repositories" in message.text  # plain fallback for notifications


def test_a_card_says_when_the_language_asked_for_is_not_known_offline():
    unknown = card(1, "sabre-io/dav").model_copy(update={"stars": None, "language": None, "language_unconfirmed": True})
    [message] = valid(render.render_reply(document_answer(RepoCardsSection(title="Top pick", cards=[unknown]))))
    assert "no star figures offline · language not known offline" in message.blocks[1]["text"]["text"]


def test_a_list_of_fifty_repos_stays_within_the_limits():
    cards = [card(n, f"owner/repo-{n}", why="w" * 500) for n in range(1, 51)]
    messages = valid(render.render_reply(document_answer(
        TextSection(markdown="Found 50."), RepoCardsSection(title="Results", cards=cards))))
    assert "…and 40 more." in texts(messages[-1])


def comparison_table() -> TableSection:
    return TableSection(title="Key differences", header=["Repository", "Stars", "Quality"], rows=[
        [TableCell(text="pmndrs/zustand", url="https://github.com/pmndrs/zustand"),
         TableCell(text="45.3k"), TableCell(text="8.4")],
        [TableCell(text="pmndrs/jotai", url="https://github.com/pmndrs/jotai"),
         TableCell(text="18.2k"), TableCell(text="7.9")],
    ])


def test_a_comparison_is_a_table_block_with_linked_repositories():
    reply = document_answer(TextSection(markdown="I compared 2."), comparison_table(),
                            TextSection(markdown="### My recommendation\nZustand wins."))
    [message] = valid(render.render_reply(reply))
    table = next(b for b in message.blocks if b["type"] == "table")
    assert [c["text"] for c in table["rows"][0]] == ["Repository", "Stars", "Quality"]
    link = table["rows"][1][0]["elements"][0]["elements"][0]
    assert link == {"type": "link", "url": "https://github.com/pmndrs/zustand", "text": "pmndrs/zustand"}
    assert [c["text"] for c in table["rows"][2][1:]] == ["18.2k", "7.9"]
    assert message.blocks[-1]["type"] == "context_actions"  # feedback after the verdict
    assert "Zustand wins." in texts(message)


def test_two_tables_never_share_a_message():
    reply = document_answer(comparison_table(), comparison_table())
    messages = valid(render.render_reply(reply))
    assert len(messages) == 2


def test_clarification_options_are_buttons():
    data = Clarification(question="Which one?", options=["Search for it", "Analyze pmndrs/zustand"])
    reply = answer("Which one did you mean?", structured_data=data, actions=[
        Action(kind=ActionKind.OPTION, label=o, value=o) for o in data.options])
    [message] = valid(render.render_reply(reply))
    buttons = [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]
    labels = [b["text"]["text"] for b in buttons]
    assert labels[:2] == ["Search for it", "Analyze pmndrs/zustand"]
    assert buttons[0]["action_id"] == "omg:option:0" and buttons[0]["value"] == "Search for it"


def test_a_repository_overview_is_a_markdown_block():
    reply = document_answer(RepoDetailSection(
        full_name="pmndrs/zustand", html_url="https://github.com/pmndrs/zustand", stars=45_300,
        description="Bear necessities.", facts=["**Stars:** 45k"]))
    [message] = valid(render.render_reply(reply))
    text = "## pmndrs/zustand\n[pmndrs/zustand](https://github.com/pmndrs/zustand): Bear necessities.\n- **Stars:** 45k"
    assert message.blocks[0] == {"type": "markdown", "text": text}


def test_feedback_is_the_ai_feedback_buttons_element_carrying_the_classification():
    [message] = valid(render.render_reply(answer("Hello", footer="Data: offline snapshot.")))
    feedback = next(b for b in message.blocks if b.get("block_id") == render.FEEDBACK_BLOCK)
    assert feedback["type"] == "context_actions"
    [element] = feedback["elements"]
    assert element["type"] == "feedback_buttons" and element["action_id"] == "omg:feedback:0"
    verdict, meta = render.feedback_value(element["negative_button"]["value"])
    assert verdict == "wrong" and meta["intent"] == "search" and meta["confidence"] == 0.92
    assert render.feedback_value(element["positive_button"]["value"])[0] == "helpful"
    footer = {"type": "mrkdwn", "text": "Data: offline snapshot."}
    assert message.blocks[-1] == {"type": "context", "elements": [footer]}


def test_plans_get_decision_buttons_and_no_feedback():
    reply = answer("**Plan** (v2)", actions=[
        Action(kind=ActionKind.APPROVE, label="Approve", value="s1:2"),
        Action(kind=ActionKind.REVISE, label="Revise", value="s1:2"),
        Action(kind=ActionKind.CANCEL, label="Cancel", value="s1:2"),
    ])
    [message] = valid(render.render_reply(reply))
    decision = next(b for b in message.blocks if b.get("block_id") == render.DECISION_BLOCK)
    assert [e.get("style") for e in decision["elements"]] == ["primary", None, "danger"]
    assert not any(b.get("block_id") == render.FEEDBACK_BLOCK for b in message.blocks)
    after = render.decided(message.blocks, ActionKind.APPROVE, "U1")
    assert not any(b.get("block_id") == render.DECISION_BLOCK for b in after)
    assert "Approved by <@U1>" in json.dumps(after[-1])


def test_long_labels_and_values_are_clipped():
    long = "x" * 3000
    [message] = valid(render.render_reply(answer("Hi", actions=[
        Action(kind=ActionKind.SUGGESTION, label=long, value=long)])))
    button = message.blocks[1]["elements"][0]
    assert len(button["text"]["text"]) == 75 and len(button["value"]) == 2000


def report(chars: int) -> str:
    paragraphs: list[str] = []
    n = 0
    while sum(len(p) + 2 for p in paragraphs) < chars:
        paragraphs.append(f"### Finding {n}\nParagraph {n}: " + " ".join(f"word{n}-{k}" for k in range(60)))
        n += 1
    return "\n\n".join(paragraphs)


def test_a_13000_character_report_arrives_in_at_most_three_messages_losing_nothing():
    markdown = report(13_000)
    reply = answer(markdown, actions=[Action(kind=ActionKind.SUGGESTION, label="More", value="More")],
                   footer="footer")
    messages = valid(render.render_reply(reply))
    assert len(messages) <= 3
    body = "\n\n".join(b["text"] for m in messages for b in m.blocks if b["type"] == "markdown")
    for n in range(markdown.count("### Finding")):
        assert f"word{n}-59" in body  # every paragraph arrived in full
    for message in messages:
        assert sum(bk.markdown_chars(b) for b in message.blocks) <= bk.MAX_MARKDOWN_TEXT
    assert all(b["type"] != "actions" for m in messages[:-1] for b in m.blocks)  # buttons last
    assert messages[-1].blocks[-1]["type"] == "context"
    assert messages[1].text.startswith("(continued 2/")


def test_splitting_reopens_a_cut_code_block_and_keeps_card_lines_whole():
    code = "```\n" + "\n".join(f"line {n}" for n in range(400)) + "\n```"
    parts = split_markdown(code, 1000)
    assert len(parts) > 2 and all(len(p) <= 1000 and p.count("```") == 2 for p in parts)
    linked = "\n".join(f"{n}. <https://example.com/some/long/path|a label with spaces>" for n in range(60))
    for part in split_markdown(linked, 500):
        assert part.count("<") == part.count(">")


def test_halving_a_refused_message_keeps_the_buttons_last():
    reply = answer("\n\n".join("p" * 900 for _ in range(4)), actions=[
        Action(kind=ActionKind.SUGGESTION, label="Next", value="Next")])
    [message] = render.render_reply(reply)
    halves = valid(bk.halve(message))
    assert len(halves) >= 2
    assert halves[-1].blocks[-2]["type"] == "actions" or halves[-1].blocks[-1]["type"] == "actions"


def test_status_message_shows_the_current_step_and_finished_ones():
    message = render.status("Scoring 24 candidates", ["Searching GitHub for react state"], "")
    [current, done] = valid([message])[0].blocks
    assert "Scoring 24 candidates" in current["text"]["text"]
    assert "Searching GitHub for react state" in done["elements"][0]["text"]


def test_a_plan_is_a_header_the_goal_the_steps_and_how_to_decide() -> None:
    actions = [Action(kind=k, label=k.value.title(), value="s1:2")
               for k in (ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL)]
    [message] = valid(render.render_reply(Reply(conversation_id="c", document=[documents.plan()], actions=actions)))
    kinds = [b["type"] for b in message.blocks]
    assert kinds == ["header", "markdown", "markdown", "context", "markdown", "actions"]
    assert message.blocks[0]["text"]["text"] == "Research plan · Deep Probe · revision 2"
    assert "`redux toolkit`" in message.blocks[2]["text"] and "**Approve**" in message.blocks[4]["text"]


def test_a_report_opens_with_its_answer_and_links_its_sources() -> None:
    section = documents.report(13_000)
    messages = valid(render.render_reply(Reply(conversation_id="c", document=[section], intent=Intent.CHAT,
                                               footer="Research session s1")))
    assert len(messages) <= 3
    first = messages[0].blocks
    assert first[0] == bk.header("Research report: Should we migrate from Redux to Zustand?")
    assert first[1]["type"] == "markdown" and first[1]["text"].startswith("**Stay on Redux**")
    context = next(b for b in first if b["type"] == "context")
    assert "*Confidence:* *medium*: two measured projects" in json.dumps(context, ensure_ascii=False)
    every = "".join(texts(m) for m in messages)
    assert "[owner40/project-40](https://github.com/owner40/project-40)" in every
    assert messages[-1].blocks[-2]["type"] == "context_actions"  # feedback, then the footer
