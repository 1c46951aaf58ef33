"""Search keywords from goals: technologies kept, opinion filler dropped, revise feedback folded in."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from core.models import ActionKind, CollectingSink
from core.research import ResearchSettings, build_research_service
from core.research.goal import InvalidGoal, read_goal
from core.models.research import ResearchMode, StepType
from core.research.planner import LocalPlanner, PlanRequest
from core.research.queries import keywords, technologies
from tests.research.conftest import KEY, click
from tests.research.fakes import FakeRepoSource

QUICK, DEEP = ResearchMode.QUICK_SCAN, ResearchMode.DEEP_PROBE


def plan(goal: str, mode: ResearchMode, feedback: list[str] | None = None):  # noqa: ANN201
    return LocalPlanner().build(PlanRequest(session_id="s", goal=goal, mode=mode, rationale="why.",
                                            feedback=feedback or [], today=date(2026, 11, 1)))


def queries_of(goal: str, mode: ResearchMode, feedback: list[str] | None = None) -> list[str]:
    return [q for s in plan(goal, mode, feedback).steps if s.type is StepType.SEARCH for q in s.search_queries]


@pytest.mark.parametrize(("goal", "wanted", "dropped"), [
    ("Is Rust a good choice for our backend rewrite from Go?", {"rust", "go", "backend"}, {"choice", "rewrite"}),
    ("Is the debate about monorepos worth it?", {"monorepos"}, {"debate", "worth"}),
    ("What's the state of WebAssembly outside the browser?", {"webassembly"}, {"state", "outside", "browser"}),
    ("Does Tailwind hurt accessibility?", {"tailwind", "accessibility"}, {"hurt"}),
    ("Which vector database should we standardize on?", {"vector database"}, {"standardize", "vector", "database"}),
    ("open source feature flag services for a 10 person startup", {"feature flag"},
     {"open", "source", "services", "person", "startup", "10", "feature", "flag"}),
    ("React state management libraries", {"react", "state management"}, {"state", "management", "libraries"}),
    ("Kotlin Multiplatform or Flutter for our mobile app?", {"kotlin", "flutter"}, set()),
    ("Top 5 Python ORMs", {"python", "orms"}, {"5", "top"}),
])
def test_keywords_keep_technologies_and_drop_filler(goal: str, wanted: set[str], dropped: set[str]) -> None:
    words = keywords(goal)
    assert wanted <= set(words), words
    assert not dropped & set(words), words


def test_technologies_come_first_and_go_needs_its_capital() -> None:
    assert keywords("Is Rust a good choice for our backend rewrite from Go?")[:2] == ["rust", "go"]
    assert technologies("react state management") == ["react"]
    assert "state management" in keywords("react state management")
    assert technologies("where to go for kafka") == ["kafka"]


def test_two_named_technologies_get_one_query_each_and_a_combined_one() -> None:
    landscape = plan("Is Rust a good choice for our backend rewrite from Go?", DEEP).steps[0].search_queries
    assert "rust OR go" in landscape
    assert "rust backend" in landscape and "go backend" in landscape


def test_a_two_word_option_keeps_its_technology() -> None:
    landscape = plan("Kotlin Multiplatform or Flutter for our mobile app?", DEEP).steps[0].search_queries
    assert landscape[0] == "kotlin OR flutter"
    assert any(q.startswith("kotlin multiplatform") for q in landscape)
    assert all("OR flutter language:" not in q for q in queries_of("Kotlin Multiplatform or Flutter?", QUICK))


def test_feedback_technologies_reach_every_comparison_query() -> None:
    goal, feedback = "Should we migrate from Redux to Zustand?", ["also look at jotai and focus on bundle size"]
    steps = plan(goal, DEEP, feedback).steps
    assert steps[0].search_queries[0] == "redux OR zustand OR jotai"
    assert "jotai" in steps[0].search_queries
    follow = next(s for s in steps if s.purpose == "feedback").search_queries
    assert follow[0] == "redux OR zustand OR jotai bundle size"
    assert all("zustand" in q or "jotai" in q or "redux" in q for q in follow)


def test_earlier_feedback_is_not_lost() -> None:
    queries = queries_of("Should we migrate from Redux to Zustand?", DEEP,
                         ["also look at jotai", "focus on bundle size", "skip redux"])
    assert any("jotai" in q for q in queries)
    assert all("redux" not in q for q in queries)
    assert any("bundle size" in q for q in queries)


@pytest.mark.parametrize("raw", ["asdkjh qwe zzz", "the", "\x1b[31m\x1b[0m;;[[]", "\x1b[31m\x1b[0m",
                                 "what is it", "2024"])
def test_goals_without_a_meaningful_word_are_unclear(raw: str) -> None:
    with pytest.raises(InvalidGoal) as caught:
        read_goal(raw)
    assert caught.value.code == "unclear_goal"


@pytest.mark.parametrize("raw", ["react", "kafka alternatives", "서울 날씨", "Go", "C++ vs Rust", "k8s operators"])
def test_short_real_goals_still_work(raw: str) -> None:
    assert read_goal(raw).text == raw


def test_feature_flag_goal_plans_searches_for_the_subject() -> None:
    for mode in (QUICK, DEEP):
        queries = queries_of("open source feature flag services for a 10 person startup", mode)
        assert queries[0] == "feature flag", queries
        assert not any(w in q.split() for q in queries for w in ("open", "source", "services", "person", "startup"))


def test_revise_feedback_is_read_as_an_instruction() -> None:
    goal = "open source feature flag services for a 10 person startup"
    steps = plan(goal, DEEP, ["search for feature flag and feature toggle projects, leave out archived ones"]).steps
    follow = next(s for s in steps if s.purpose == "feedback").search_queries
    assert follow == ["feature flag archived:false", "feature toggle archived:false"]
    searches = [q for s in steps for q in s.search_queries]
    assert all(q.endswith("archived:false") for q in searches)
    assert not any(w in q.split() for q in searches for w in ("open", "ones", "leave", "out", "projects"))


def test_revise_narrows_to_a_language() -> None:
    narrowed = queries_of("static site generators", DEEP, ["narrow it to Python"])
    assert any(q.endswith("language:python") for q in narrowed), narrowed


async def test_a_revise_that_leaves_out_archived_projects_drops_them_from_the_report(tmp_path: Path) -> None:
    service = build_research_service(ResearchSettings(data_dir=tmp_path), FakeRepoSource())
    first = await service.start("Which React state management library should we use? --deep", key=KEY, requester="U1")
    before = (await service.decide(click(first, ActionKind.APPROVE, "U1"), CollectingSink())).markdown
    assert "old/react-state-kit" in before  # archived, found by the searches

    first = await service.start("Which React state management library should we use? --deep", key=KEY, requester="U1")
    revise = f"{next(a.value for a in first.actions if a.kind is ActionKind.REVISE)}:leave out archived ones"
    second = await service.decide(click(first, ActionKind.REVISE, "U1", value=revise), CollectingSink())
    assert "archived:false" in second.markdown
    after = (await service.decide(click(second, ActionKind.APPROVE, "U1"), CollectingSink())).markdown
    assert "old/react-state-kit" not in after
