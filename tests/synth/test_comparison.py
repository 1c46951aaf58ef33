"""comparison summaries: overview, differences table, winner per dimension, recommendation."""

from __future__ import annotations

from core.models import Intent
from tests.synth.factories import comparison, repo_list

COMPARE = {"intent": Intent.COMPARE, "message": "compare zustand vs redux"}


PRODUCTION = {"maturity": 0.4, "maintenance": 0.3, "activity": 0.2, "community": 0.1}


def table_rows(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("|")]


def test_overview_names_the_repos(run) -> None:
    out = run(comparison(3), **COMPARE)
    assert out.markdown.startswith(
        "I compared **3 repositories**: pmndrs/zustand, reduxjs/redux and pmndrs/jotai."
    )


def test_differences_table_in_markdown(run) -> None:
    rows = table_rows(run(comparison(3), **COMPARE).markdown)
    assert rows[0].startswith("| Repository | Stars | Language | Last change | Quality |")
    assert rows[1].startswith("|---|---|")
    assert len(rows) == 2 + 3
    assert rows[2].startswith("| [pmndrs/zustand](https://github.com/pmndrs/zustand) | 58.6k | TypeScript |")
    assert all(row.count("|") == rows[0].count("|") for row in rows)


def test_table_shows_the_dimensions_the_need_cares_about(run) -> None:
    rows = table_rows(run(comparison(2, need="a small team"), **COMPARE).markdown)
    assert "| Documentation |" in rows[0] and "| Ease of use |" in rows[0]


def test_table_cells_escape_pipes(run) -> None:
    data = comparison(2)
    data.items[0].repo.language = "C|C++"
    assert "C\\|C++" in run(data, **COMPARE).markdown


def test_winner_per_dimension(run) -> None:
    md = run(comparison(3), **COMPARE).markdown
    winners = md.split("### Winner by dimension")[1]
    assert "- **Popularity:** reduxjs/redux (61.5k stars)" in winners
    assert "- **Maintenance** (how quickly issues and pull requests get handled): pmndrs/zustand (8.6/10)" in winners
    assert "Relevance" not in winners


def test_ties_are_called_ties(run) -> None:
    data = comparison(2)
    data.items[1].repo.scores.activity = data.items[0].repo.scores.activity
    assert "a tie between pmndrs/zustand and reduxjs/redux" in run(data, **COMPARE).markdown


def test_highlights_and_warnings(run) -> None:
    md = run(comparison(3), **COMPARE).markdown
    notes = md.split("### Strengths and watch-outs")[1]
    assert "**reduxjs/redux**\n- Most popular: 61,509 stars." in notes
    assert "- Watch out: No release in 14 months." in notes


def test_final_recommendation_without_a_need(run) -> None:
    md = run(comparison(2), **COMPARE).markdown
    assert "### My recommendation\nOverall, I'd pick **pmndrs/zustand**: it has the best quality score" in md


def test_final_recommendation_honours_the_need(run) -> None:
    data = comparison(2, need="a small team")
    data.items[1].repo.scores.ease_of_use = 9.8  # redux wins on what a small team needs
    data.items[1].repo.scores.documentation = 9.5
    md = run(data, **COMPARE).markdown
    assert "You mentioned you need it for a small team" in md
    assert "For a small team, I'd pick **reduxjs/redux**: it leads on ease of use and documentation" in md


def test_comparators_pick_and_reasons_win(run) -> None:
    data = comparison(3, need="production use", recommended="pmndrs/jotai", weights=PRODUCTION,
                      recommendation_reasons=["Best fit for production: mature and well maintained"])
    data.items[2].fit = 8.9
    md = run(data, **COMPARE).markdown
    assert "For production use, I'd pick **pmndrs/jotai**.\n- Best fit for production: mature and well maintained." in md
    assert "| Quality | Fit for your need |" in md


def test_fit_column_when_a_need_changed_the_weights(run) -> None:
    data = comparison(2, need="production use", weights=PRODUCTION)
    data.items[0].fit, data.items[1].fit = 7.4, None
    rows = table_rows(run(data, **COMPARE).markdown)
    assert "| Quality | Fit for your need |" in rows[0]
    assert "| 8.6 | 7.4 |" in rows[2] and "| 8.2 | n/a |" in rows[3]


def test_no_fit_column_without_a_weighted_need(run) -> None:
    data = comparison(2)
    data.items[0].fit, data.items[1].fit = 8.6, 8.2  # default weights: the fit is the quality score
    rows = table_rows(run(data, **COMPARE).markdown)
    assert "Fit" not in rows[0] and "| Quality |" in rows[0]


def test_a_near_tie_is_not_called_a_win(run) -> None:
    data = comparison(2)
    data.items[0].fit, data.items[1].fit = 9.7, 9.65
    md = run(data, **COMPARE).markdown
    final = md.split("### My recommendation")[1]
    assert "I'd pick" not in final
    assert "too close to call between **pmndrs/zustand** and **reduxjs/redux**" in final
    assert "(9.7 vs 9.7 out of 10)" in final and "What would decide it:" in final
    assert "has more stars" in final


def test_single_repo_comparison_asks_for_another(run) -> None:
    md = run(comparison(1), **COMPARE).markdown
    assert "I could only find one of the repositories to compare: **pmndrs/zustand**" in md
    assert "### My recommendation" not in md


def test_at_most_ten_rows(run) -> None:
    out = run(comparison(12), **COMPARE)
    assert len(table_rows(out.markdown)) == 2 + 10
    assert len(out.data.items) == 10 and "I kept the first 10 of the 12" in out.markdown


def test_suggestions_analyze_the_winner_and_compare_with_another(run) -> None:
    out = run(comparison(2), intent=Intent.COMPARE, message="compare the first two", previous=repo_list(4))
    assert out.suggestions[0] == "Analyze pmndrs/zustand"
    assert out.suggestions[1] == "Compare pmndrs/zustand vs pmndrs/jotai"
    assert "Show me more options" in out.suggestions
    assert any(s.startswith("Search for ") for s in out.suggestions)


def test_follow_up_acknowledgement(run) -> None:
    out = run(comparison(2), intent=Intent.COMPARE, message="compare the first two",
              previous=repo_list(4), previous_query="find React libraries")
    assert out.markdown.startswith("_Following up on the React libraries we found..._")


def test_a_recognised_need_is_weighed_in_an_unknown_one_is_said_plainly(run) -> None:
    from core.analysis.need import DEFAULT_WEIGHTS, extract_need

    known = extract_need("compare them for a small team")
    data = comparison(2, need=known.text, weights=known.weights)
    assert "so I weighed that in" in run(data, **COMPARE).markdown
    unknown = comparison(2, need="for machine learning", weights=DEFAULT_WEIGHTS)
    md = run(unknown, **COMPARE).markdown
    assert "weighed that in" not in md and "I used my standard weights" in md
