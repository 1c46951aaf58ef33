"""Empty results, agent errors, timeouts, partial results, conversational text, and no crashes."""

from __future__ import annotations

import logging

from core.agents.base import AgentResult
from core.models import Intent, RepoList, ResultMeta, SearchParams
from core.synth import DefaultSynthesizer, SynthesisContext
from tests.synth.factories import NOW, catalog_meta, comparison, repo_list


def empty_search(**params: object) -> RepoList:
    search = SearchParams(text="quantum orm", keywords=["quantum", "orm"], **params)
    return RepoList(items=[], meta=ResultMeta(source="github", query="quantum orm", search_params=search))


def test_empty_results_say_so_and_offer_alternatives(run) -> None:
    out = run(empty_search(language="Haskell", min_stars=1000), message="find quantum orm in haskell")
    assert out.markdown.startswith("Nothing on GitHub fits *quantum orm (Haskell, 1k+ stars)*.")
    assert "- Broader keywords: *Find quantum*" in out.markdown
    assert "- Another language: *Find quantum orm in Python*" in out.markdown
    assert "- Fewer filters: *Find quantum orm without filters*" in out.markdown
    assert out.suggestions[:2] == ["Find quantum", "Find quantum orm in Python"]
    assert out.error_code is None and isinstance(out.data, RepoList)


def test_candidates_left_out_can_be_shown_anyway_and_a_long_request_is_not_offered_back_as_keywords(run) -> None:
    words = "we run lots of small services and nobody notices one is down until a customer complains"
    search = SearchParams(text=words, keywords=words.split())
    meta = ResultMeta(source="catalog", query=words, search_params=search, total_candidates=60)
    out = run(RepoList(items=[], meta=meta), message=words)
    assert out.suggestions[0] == "Show the closest matches anyway"
    assert not any(s.startswith("Find ") for s in out.suggestions)
    assert run(empty_search(), message="find quantum orm").suggestions[0] != "Show the closest matches anyway"


def test_empty_results_without_params_still_suggest_something(run) -> None:
    out = run(RepoList(items=[]), message="find xyzzy")
    assert "I couldn't find any repositories matching *find xyzzy*" in out.markdown
    assert out.suggestions and "Find React state management libraries" in out.suggestions


def test_empty_catalog_results_mention_the_snapshot(run) -> None:
    out = run(RepoList(items=[], meta=catalog_meta("zzz")), message="find zzz")
    assert "offline snapshot" in out.markdown and "2026-08-22" in out.markdown


def test_null_data_for_analyze_and_compare(run) -> None:
    assert "I couldn't find that repository" in run(None, intent=Intent.ANALYZE, message="analyze foo").markdown
    assert "I couldn't find the repositories to compare" in run(
        comparison(0), intent=Intent.COMPARE, message="compare a and b").markdown


def test_agent_error_is_friendly_and_logged(run, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="omg.synth"):
        out = run(None, error="GitHub is not answering right now.", error_code="source_unavailable",
                  message="find rust web frameworks")
    assert out.markdown == (
        "Sorry, I ran into a problem while searching. GitHub is not answering right now. Please try again."
    )
    assert out.error_code == "source_unavailable" and out.data is None
    assert out.suggestions == ["find rust web frameworks", "What can you do?"]
    record = next(r for r in caplog.records if r.getMessage() == "agent reported a problem")
    assert record.error_code == "source_unavailable" and record.user_message == "find rust web frameworks"


def test_timeout_without_results(run) -> None:
    out = run(None, error="That took longer than I allow myself.", error_code="timeout")
    assert out.markdown.startswith("Sorry, searching took too long, so I stopped. Try refining your query")
    assert out.error_code == "timeout"


def test_timeout_with_partial_results_shows_them(run) -> None:
    out = run(repo_list(3), error="timed out", error_code="timeout", partial=True)
    assert out.markdown.startswith(
        "Here are partial results (the search timed out). Try refining your query for a complete answer."
    )
    assert "pmndrs/zustand" in out.markdown and len(out.data.items) == 3
    assert out.error_code == "timeout"
    assert "Analyze pmndrs/zustand" in out.suggestions


def test_rate_limited_partial_results(run) -> None:
    out = run(repo_list(2), error="GitHub's rate limit was reached.", error_code="rate_limited", partial=True)
    assert "Here are partial results (GitHub's rate limit" in out.markdown
    assert "GitHub's rate limit was reached." in out.markdown


def test_partial_flag_without_error_is_a_note_not_a_failure(run) -> None:
    meta = catalog_meta(notes=["pmndrs/zustand: the offline snapshot has no commit data"], partial=True)
    out = run(repo_list(2, meta=meta), partial=True)
    assert out.markdown.startswith("Based on your query")  # no "partial results" lead: nothing failed
    assert "_Note: pmndrs/zustand: The offline snapshot has no commit data._" in out.markdown
    assert out.markdown.count("parts of this answer are incomplete") == 1
    assert out.error_code is None


def test_partial_and_empty(run) -> None:
    out = run(RepoList(items=[]), partial=True, message="find zzz")
    assert "I couldn't find any repositories" in out.markdown and "incomplete" in out.markdown


def test_conversational_text_passes_through_with_generic_suggestions(run) -> None:
    out = run(None, intent=Intent.CHAT, message="thanks", text="You're welcome!")
    assert out.markdown == "You're welcome!"
    assert out.suggestions == [
        "Find React state management libraries", "Compare zustand vs redux", "What can you do?"
    ]


def test_generic_suggestions_use_the_thread(run) -> None:
    out = run(None, intent=Intent.CHAT, message="thanks", text="You're welcome!", previous=repo_list(3))
    assert out.suggestions[:2] == ["Analyze pmndrs/zustand", "Compare pmndrs/zustand vs reduxjs/redux"]


def test_lead_in_text_precedes_data(run) -> None:
    out = run(repo_list(2), text="Here is what I found on GitHub.")
    assert out.markdown.startswith("Here is what I found on GitHub.\n\nBased on your query")


def test_nothing_at_all_for_chat(run) -> None:
    out = run(None, intent=Intent.CHAT, message="hmm")
    assert "I'm not sure how to help with that yet" in out.markdown


class ExplodingSynthesizer(DefaultSynthesizer):
    """A renderer bug, injected by subclassing (no patching)."""

    def _render(self, data, rc):  # type: ignore[override]
        raise RuntimeError("renderer bug")


def test_never_raises(caplog) -> None:
    synth = ExplodingSynthesizer(clock=lambda: NOW)
    with caplog.at_level(logging.ERROR, logger="omg.synth"):
        out = synth.synthesize(AgentResult(data=repo_list(2)), SynthesisContext(intent=Intent.SEARCH, message="x"))
    assert out.error_code == "synthesis_failed" and "something went wrong on my side" in out.markdown
    assert any(r.getMessage() == "synthesis failed" for r in caplog.records)
