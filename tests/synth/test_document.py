"""The synthesizer's document: typed sections with the data each platform draws, and its one
Markdown rendering (what the shell and ``omg ask --json`` show)."""

from __future__ import annotations

from core.models import (
    ChoicesSection,
    Clarification,
    Comparison,
    ComparisonRow,
    RepoCardsSection,
    RepoDetailSection,
    Reply,
    TableSection,
    TextSection,
    follow_up_actions,
    to_markdown,
)
from tests.synth.factories import repo, repo_detail, repo_list


def test_a_search_is_prose_around_two_runs_of_cards(run) -> None:
    out = run(repo_list(6))
    kinds = [s.kind for s in out.document]
    assert kinds[:3] == ["text", "repo_cards", "repo_cards"] and set(kinds[3:]) == {"text"}
    top, rest = (s for s in out.document if isinstance(s, RepoCardsSection))
    assert top.title == "Top 3 picks" and not top.compact and [c.position for c in top.cards] == [1, 2, 3]
    first = top.cards[0]
    assert first.full_name == "pmndrs/zustand" and first.html_url == "https://github.com/pmndrs/zustand"
    assert first.stars > 0 and first.overall is not None and "stars" in first.facts and first.why
    assert rest.compact and rest.title == "More results" and rest.cards[0].why is None
    assert out.markdown == to_markdown(out.document)


def test_a_comparison_table_carries_cells_and_links(run) -> None:
    data = Comparison(items=[ComparisonRow(repo=repo(0)), ComparisonRow(repo=repo(2))])
    out = run(data)
    [table] = [s for s in out.document if isinstance(s, TableSection)]
    assert table.title == "Key differences" and table.header[:2] == ["Repository", "Stars"]
    assert table.rows[0][0].url == "https://github.com/pmndrs/zustand"
    assert "| [pmndrs/zustand](https://github.com/pmndrs/zustand) |" in out.markdown


def test_an_analysis_opens_with_the_repository_facts(run) -> None:
    out = run(repo_detail(0))
    detail = out.document[0] if isinstance(out.document[0], RepoDetailSection) else out.document[1]
    assert isinstance(detail, RepoDetailSection)
    assert detail.full_name == "pmndrs/zustand" and detail.facts[0].startswith("**Stars:**")
    assert "## pmndrs/zustand\n[pmndrs/zustand](https://github.com/pmndrs/zustand)" in out.markdown


def test_clarification_options_are_choices_and_become_actions_once(run) -> None:
    out = run(Clarification(question="Which one did you mean?", options=["Analyze zustand", "Search again"]))
    [choices] = [s for s in out.document if isinstance(s, ChoicesSection)]
    assert choices.options == ["Analyze zustand", "Search again"]
    assert "- Analyze zustand\n- Search again" in out.markdown
    actions = follow_up_actions(out.document, ["Search again", "What can you do?"])
    assert [(a.kind.value, a.label) for a in actions] == [
        ("option", "Analyze zustand"), ("option", "Search again"), ("suggestion", "What can you do?")]


def test_a_plain_text_reply_is_a_one_section_document_and_round_trips() -> None:
    reply = Reply(conversation_id="c", markdown="Hello **there**")
    assert reply.document == [TextSection(markdown="Hello **there**")]
    wire = reply.dump()
    assert wire["markdown"] == "Hello **there**"
    assert Reply.model_validate(wire) == reply
