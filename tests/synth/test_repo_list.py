"""repo_list summaries: intro, top 3, insights, call to action, limits, context, snapshot."""

from __future__ import annotations

import re

from core.models import Intent, RepoCardsSection, RepoList, ResultMeta, SearchParams
from tests.synth.factories import SNAPSHOT, catalog_meta, repo, repo_list


def numbered_rows(markdown: str) -> list[int]:
    return [int(n) for n in re.findall(r"^(\d+)\. ", markdown, flags=re.M)]


def test_intro_counts_results_and_names_the_query(run) -> None:
    out = run(repo_list(5))
    first = out.markdown.split("\n\n")[0]
    assert first.startswith("Based on your query, I found **5 repositories**")
    assert "react state management" in first.lower()


def test_a_list_of_no_sure_fit_says_so_and_calls_them_the_closest(run) -> None:
    out = run(repo_list(5, meta=catalog_meta(uncertain=True)))
    first = out.markdown.split("\n\n")[0]
    assert first.startswith("Nothing fits *")
    assert "**5 repositories** are the closest I found; none is a sure match" in first
    assert "### Closest matches" in out.markdown and "Top 3 picks" not in out.markdown
    alone = run(repo_list(1, meta=catalog_meta(uncertain=True))).markdown.split("\n\n")[0]
    assert "This **repository** is the closest I found; it is no sure match" in alone


def test_top_three_are_highlighted_then_the_rest_listed(run) -> None:
    out = run(repo_list(6))
    top, rest = out.markdown.split("### More results")
    assert "### Top 3 picks" in top
    for name in ["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai"]:
        assert f"**[{name}](https://github.com/{name})**" in top
    assert "[mobxjs/mobx](https://github.com/mobxjs/mobx)" in rest
    assert "Bear necessities for state management" in top  # description
    assert "Matches state management for React and is actively maintained." in top  # the why
    assert "score for your query (weighted, out of 10, including how well it matches)" in top.lower()
    assert numbered_rows(out.markdown) == [1, 2, 3, 4, 5, 6]


def test_insights_cover_languages_activity_and_growth(run) -> None:
    out = run(repo_list(12))
    insights = out.markdown.split("### Insights")[1]
    assert "**Languages:** TypeScript (9) and JavaScript (3)." in insights
    assert "**Activity:** 11 of 12 had code changes in the 3 months before the snapshot" in insights
    assert "1 is archived" in insights and "archived (read-only" in out.markdown  # explained once
    assert "**Growth:** pmndrs/zustand is rising fastest, with +9.1k stars in the last 12 months" in insights
    assert "Across all 12 results" in insights


def test_ends_with_a_call_to_action(run) -> None:
    out = run(repo_list(4))
    assert "Would you like me to analyze any of these?" in out.markdown


def test_strengths_are_named_when_the_agent_gave_no_why(run) -> None:
    items = [repo(i).model_copy(update={"why": ""}) for i in range(3)]
    out = run(RepoList(items=items, meta=catalog_meta()))
    assert "Strongest on maturity (how established and stable it is) and activity" in out.markdown


def test_jargon_is_explained_once(run) -> None:
    items = [repo(i).model_copy(update={"why": ""}) for i in range(5)]
    out = run(RepoList(items=items, meta=catalog_meta()))
    assert out.markdown.count("(how recently and how often new code lands)") == 1
    assert out.markdown.count("(weighted, out of 10, including how well it matches)") == 1


def test_at_most_ten_items_are_shown_and_kept(run) -> None:
    out = run(repo_list(100))
    assert numbered_rows(out.markdown) == list(range(1, 11))
    assert "I found **100 repositories**" in out.markdown and "Here are the top 10." in out.markdown
    assert len(out.data.items) == 10  # what "the sixth one" counts over is what the user saw
    assert out.data.meta.total_candidates == 100


def test_long_descriptions_are_truncated(run) -> None:
    long_text = "A state library. " + "word " * 200  # ~1,000 characters
    out = run(RepoList(items=[repo(i, description=long_text) for i in range(5)], meta=catalog_meta()))
    for line in out.markdown.splitlines():
        assert len(line) < 700, line[:80]
    assert "…" in out.markdown
    assert all(len(r.description) <= 500 for r in out.data.items)
    assert all(r.description.endswith("…") for r in out.data.items)


def test_suggestions_name_real_repositories(run) -> None:
    out = run(repo_list(5))
    assert out.suggestions[:3] == [
        "Analyze pmndrs/zustand",
        "Analyze reduxjs/redux",
        "Compare pmndrs/zustand vs reduxjs/redux",
    ]
    assert "Refine search: TypeScript" in out.suggestions
    assert "Show me more results" in out.suggestions
    assert len(out.suggestions) <= 6


def test_refine_suggestion_skips_the_language_already_filtered(run) -> None:
    meta = catalog_meta()
    meta.search_params = SearchParams(text="state", keywords=["state"], language="TypeScript")
    out = run(repo_list(12, meta=meta))
    # the user chose the language: no other language is suggested, a narrower search is
    assert not any(s in out.suggestions for s in ("Refine search: TypeScript", "Refine search: JavaScript"))
    assert {"Refine search: only popular ones", "Refine search: actively maintained"} & set(out.suggestions)


def test_snapshot_source_and_date_are_stated(run) -> None:
    out = run(repo_list(3))
    assert "offline snapshot" in out.markdown and SNAPSHOT.isoformat() in out.markdown


def test_live_data_has_no_snapshot_note(run) -> None:
    out = run(repo_list(3, meta=ResultMeta(source="github", query="state management")))
    assert "snapshot" not in out.markdown


def test_relaxed_filters_and_partial_meta_are_rendered(run) -> None:
    meta = catalog_meta(notes=["relaxed the star filter to 100+ stars to find more results"], partial=True)
    out = run(repo_list(3, meta=meta))
    assert "_Note: Relaxed the star filter to 100+ stars to find more results._" in out.markdown
    assert "parts of this answer are incomplete" in out.markdown


def test_follow_up_acknowledges_the_previous_search(run) -> None:
    previous = repo_list(5, meta=catalog_meta("find React libraries"))
    out = run(repo_list(4), message="what about Python?", previous=previous)
    assert out.markdown.startswith("_Following up on the React libraries we found..._")


def test_previous_query_from_context_is_used(run) -> None:
    out = run(repo_list(4), message="what about Python?", previous=repo_list(3),
              previous_query="React state management")
    assert "Following up on the React state management repositories we found" in out.markdown


def test_unrelated_new_search_is_not_called_a_follow_up(run) -> None:
    out = run(repo_list(4), message="find rust web frameworks", previous=repo_list(3))
    assert "Following up" not in out.markdown


def test_single_result_reads_naturally(run) -> None:
    out = run(repo_list(1))
    assert "I found **1 repository**" in out.markdown and "### Top pick\n" in out.markdown
    assert "### Insights" not in out.markdown
    assert "Analyze pmndrs/zustand" in out.suggestions
    assert "Search for alternatives to pmndrs/zustand" in out.suggestions


def test_unscored_catalog_rows_still_read_well(run) -> None:
    items = [repo(i).model_copy(update={"scores": repo(i).scores.model_copy(update={
        k: 0.0 for k in ["maturity", "activity", "documentation", "community", "ease_of_use",
                         "maintenance", "relevance", "overall"]}), "why": ""}) for i in range(3)]
    out = run(RepoList(items=items, meta=catalog_meta()), intent=Intent.SEARCH)
    assert "0.0/10" not in out.markdown and "Gained 9.1k stars" in out.markdown


def test_a_result_that_matches_poorly_says_so_beside_its_score(run) -> None:
    poor = repo(0)
    poor = poor.model_copy(update={"scores": poor.scores.model_copy(update={"relevance": 1.1})})
    out = run(RepoList(items=[poor, repo(1)], meta=catalog_meta()))
    assert out.markdown.count("though it matches the request poorly (relevance 1.1/10)") == 1


def test_a_repository_nothing_is_measured_of_shows_how_well_it_matches_not_a_score(run) -> None:
    from core.models import DimensionScores

    listed = repo(0).model_copy(update={
        "figures_known": False, "stars": 0, "forks": 0,
        "scores": DimensionScores(relevance=9.0, overall=9.0, unmeasured=[
            "maturity", "activity", "documentation", "community", "ease_of_use", "maintenance"]),
    })
    data = repo_list(3)
    data.items[0] = listed
    out = run(data)
    top = out.markdown.split("### More results")[0]
    assert "Matches the request 9.0/10; nothing about the project itself is measured." in top
    assert "score for your query" not in top.split("\n2. ")[0].lower()  # no score that reads as a verdict on it
    top_cards = next(section for section in out.document if isinstance(section, RepoCardsSection))
    assert top_cards.cards[0].overall is None  # no "score 9.0/10" badge on Slack or Discord
    assert top_cards.cards[1].overall is not None


def test_a_repository_whose_language_is_unknown_offline_says_so_under_a_language_filter(run) -> None:
    listed = repo(0).model_copy(update={"figures_known": False, "stars": 0, "forks": 0, "language": None})
    data = repo_list(3)
    data.items[0] = listed
    data.meta.search_params = SearchParams(text="state", keywords=["state"], language="TypeScript")
    out = run(data)
    assert out.markdown.count("whether it is written in TypeScript is not known offline") == 1
    top_cards = next(section for section in out.document if isinstance(section, RepoCardsSection))
    assert [card.language_unconfirmed for card in top_cards.cards] == [True, False, False]
    data.meta.search_params = SearchParams(text="state", keywords=["state"])
    assert "not known offline" not in run(data).markdown
    # a measured repository with no language on GitHub is not one the offline catalog cannot place
    data.items[0] = listed.model_copy(update={"figures_known": True, "stars": 900})
    data.meta.search_params = SearchParams(text="state", keywords=["state"], language="TypeScript")
    assert "not known offline" not in run(data).markdown
