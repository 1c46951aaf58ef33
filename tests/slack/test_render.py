"""bot.slack.render: each structured type as Block Kit, always within Slack's limits."""

from __future__ import annotations

import json
import re

from bot.slack import blockkit as bk
from bot.slack import render
from bot.slack.mrkdwn import split_text, to_mrkdwn
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
    Reply,
    ScoredRepository,
)
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


def test_repo_list_is_a_compact_card_per_repo_replacing_the_markdown_listing():
    items = [repo("pmndrs/zustand"), repo("pmndrs/jotai", 18_200, overall=7.9, why="Atomic state.")]
    markdown = (
        "Based on your query, I found **2 repositories** for *react state*.\n\n"
        "### Top 2 picks\n1. **[pmndrs/zustand](https://github.com/pmndrs/zustand)**: 45k stars\n"
        "2. **[pmndrs/jotai](https://github.com/pmndrs/jotai)**: 18k stars\n\n"
        "Would you like me to analyze any of these?"
    )
    [message] = valid(render.render_reply(answer(markdown, structured_data=RepoList(items=items))))
    sections = [b["text"]["text"] for b in message.blocks if b["type"] == "section"]
    assert sections[0].startswith("Based on your query")
    card = sections[1]
    assert "<https://github.com/pmndrs/zustand|pmndrs/zustand>" in card
    assert ":star: 45.3k" in card and "TypeScript" in card and "score *8.4*/10" in card
    assert "Tiny, unopinionated state management." in card
    assert "Top 2 picks" not in texts(message)  # the listing became the cards
    assert "analyze any of these" in sections[-1]
    assert "2 repositories" in message.text  # plain fallback for notifications


def test_a_list_of_fifty_repos_stays_within_the_limits():
    items = [repo(f"owner/repo-{n}", why="w" * 500) for n in range(50)]
    messages = valid(render.render_reply(answer("Found 50.", structured_data=RepoList(items=items))))
    assert "…and 40 more." in texts(messages[-1])


def comparison() -> Comparison:
    return Comparison(items=[ComparisonRow(repo=repo("pmndrs/zustand")),
                             ComparisonRow(repo=repo("pmndrs/jotai", 18_200, overall=7.9))])


def test_comparison_is_a_table_with_a_column_per_repo():
    reply = answer("Comparing 2.\n\nZustand wins.", structured_data=comparison())
    [message] = valid(render.render_reply(reply))
    text = message.blocks[0]["text"]["text"]
    lead, table, verdict = text.partition("```")[0], text.split("```")[1], text.split("```")[2]
    assert lead.strip() == "Comparing 2." and "Zustand wins." in verdict
    assert re.search(r"^\s+zustand\s+jotai$", table, re.MULTILINE)
    assert re.search(r"^Overall\s+8\.4\s+7\.9$", table, re.MULTILINE)


def test_a_wide_markdown_comparison_table_is_replaced_by_the_narrow_one():
    markdown = ("I compared 2.\n\n*Key differences*\n| Repository | Stars | A | B | C | D | E |\n"
                "|---|---|---|---|---|---|---|\n| zustand | 45k | 1 | 2 | 3 | 4 | 5 |\n\nDone.")
    [message] = valid(render.render_reply(answer(markdown, structured_data=comparison())))
    text = message.blocks[0]["text"]["text"]
    assert "Repository" not in text and "Key differences" in text and "Done." in text
    assert re.search(r"^Stars\s+45\.3k\s+18\.2k$", text, re.MULTILINE)


def test_a_markdown_table_becomes_preformatted_text():
    markdown = "Intro.\n\n| Repo | Stars |\n|---|---|\n| **zustand** | 45k |\n| jotai | 18k |"
    text = to_mrkdwn(markdown)
    assert "```\nRepo     Stars\n-------  -----\nzustand  45k\njotai    18k\n```" in text


def test_clarification_options_are_buttons():
    data = Clarification(question="Which one?", options=["Search for it", "Analyze pmndrs/zustand"])
    reply = answer("Which one did you mean?", structured_data=data, actions=[
        Action(kind=ActionKind.OPTION, label=o, value=o) for o in data.options])
    [message] = valid(render.render_reply(reply))
    buttons = [e for b in message.blocks if b["type"] == "actions" for e in b["elements"]]
    labels = [b["text"]["text"] for b in buttons]
    assert labels[:2] == ["Search for it", "Analyze pmndrs/zustand"]
    assert buttons[0]["action_id"] == "omg:option:0" and buttons[0]["value"] == "Search for it"


def test_repo_detail_is_the_markdown_as_mrkdwn():
    detail = RepositoryDetail(full_name="pmndrs/zustand", stars=45_300)
    reply = answer("## zustand\n- **Stars:** 45k", structured_data=RepoDetailData(repo=detail))
    [message] = valid(render.render_reply(reply))
    assert message.blocks[0]["text"]["text"] == "*zustand*\n• *Stars:* 45k"


def test_feedback_buttons_carry_the_classification_and_the_footer_is_a_context_block():
    [message] = valid(render.render_reply(answer("Hello", footer="Data: offline snapshot.")))
    feedback = next(b for b in message.blocks if b.get("block_id") == render.FEEDBACK_BLOCK)
    verdict, meta = render.feedback_value(feedback["elements"][1]["value"])
    assert verdict == "wrong" and meta["intent"] == "search" and meta["confidence"] == 0.92
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


def test_a_10000_character_answer_is_split_into_valid_messages_losing_nothing():
    paragraphs = [f"Paragraph {n}: " + " ".join(f"word{n}-{k}" for k in range(60)) for n in range(25)]
    markdown = "\n\n".join(paragraphs)
    assert len(markdown) > 10_000
    reply = answer(markdown, suggestions=["More"], actions=[
        Action(kind=ActionKind.SUGGESTION, label="More", value="More")], footer="footer")
    messages = valid(render.render_reply(reply))
    assert len(messages) >= 3
    for message in messages:
        assert sum(bk.block_chars(b) for b in message.blocks) <= bk.MESSAGE_BUDGET
    body = "\n\n".join(b["text"]["text"] for m in messages for b in m.blocks
                       if b["type"] == "section")
    for n in range(25):
        assert f"word{n}-59" in body  # every paragraph arrived in full
    assert all(b["type"] != "actions" for m in messages[:-1] for b in m.blocks)  # buttons last
    assert messages[-1].blocks[-1]["type"] == "context"
    assert messages[1].text.startswith("(continued 2/")


def test_split_text_reopens_a_cut_code_block_and_never_cuts_a_link():
    code = "```\n" + "\n".join(f"line {n}" for n in range(400)) + "\n```"
    parts = split_text(code, 1000)
    assert len(parts) > 2 and all(len(p) <= 1000 and p.count("```") == 2 for p in parts)
    linked = " ".join("<https://example.com/some/long/path|a label with spaces>" for _ in range(60))
    for part in split_text(linked, 500):
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
