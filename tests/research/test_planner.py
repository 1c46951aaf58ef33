"""Plans: structure per mode, executable searches for every goal (SC-003), revisions, the LLM path."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import LLMTimeout
from core.research.analyzer import load_labelled
from tests.fakes.scripted_llm import scripted_llm
from core.research.llm_planner import LLMPlanner, plan_problems
from core.models.research import ResearchMode, StepType
from core.research.planner import LocalPlanner, PlanRequest
from core.research.queries import is_executable, parse_query

QUICK, DEEP = ResearchMode.QUICK_SCAN, ResearchMode.DEEP_PROBE
GOALS = [q for q, _ in load_labelled("mode_eval.jsonl") + load_labelled("mode_train.jsonl")]


def request(goal: str, mode: ResearchMode, feedback: list[str] | None = None) -> PlanRequest:
    return PlanRequest(session_id="s", goal=goal, mode=mode, rationale="why.", feedback=feedback or [],
                       today=date(2026, 11, 1))


@pytest.mark.parametrize("mode", [QUICK, DEEP])
def test_every_plan_for_every_labelled_goal_is_valid(mode: ResearchMode) -> None:
    planner = LocalPlanner()
    for goal in GOALS:
        plan = planner.build(request(goal, mode))
        assert plan_problems(plan, mode) == [], goal
        searches = [s for s in plan.steps if s.type is StepType.SEARCH]
        assert searches and all(is_executable(q) for s in searches for q in s.search_queries), goal
        assert [s.step_id for s in plan.steps] == list(range(1, len(plan.steps) + 1))


def test_quick_scan_is_short_broad_and_recent() -> None:
    plan = LocalPlanner().build(request("state management libraries for React", QUICK))
    assert len(plan.steps) <= 3
    search = plan.steps[0]
    assert search.type is StepType.SEARCH and len(search.search_queries) == 2
    assert parse_query(search.search_queries[1]).pushed_after is not None  # recent data


def test_deep_probe_is_multi_stage_with_opposing_views_and_cross_verification() -> None:
    plan = LocalPlanner().build(request("Impact of AI on medical ethics", DEEP))
    purposes = [s.purpose for s in plan.steps]
    assert {"landscape", "recent", "evidence", "opposing_views", "cross_verify", "synthesis"} <= set(purposes)
    assert {s.type for s in plan.steps} == {StepType.SEARCH, StepType.BROWSE, StepType.ANALYZE}
    assert purposes.index("cross_verify") > purposes.index("opposing_views")


def test_named_repositories_are_searched_and_browsed() -> None:
    plan = LocalPlanner().build(request("How many stars does pmndrs/zustand have?", QUICK))
    assert plan.steps[0].search_queries[0].startswith("zustand")
    assert "pmndrs/zustand" in plan.steps[1].description


def test_revision_applies_all_feedback_so_far() -> None:
    feedback = ["focus on TypeScript", "leave out redux, only recent projects"]
    plan = LocalPlanner().build(request("Should we migrate from Redux to Zustand?", DEEP, feedback))
    queries = [q for s in plan.steps for q in s.search_queries]
    assert any("typescript" in q for q in queries)  # the first feedback still counts
    assert not any("redux" in q.split() for q in queries)
    feedback_step = next(s for s in plan.steps if s.purpose == "feedback")
    assert "leave out redux" in feedback_step.description
    assert plan.feedback == feedback[-1]
    assert plan_problems(plan, DEEP) == []


async def test_llm_plan_is_used_when_valid() -> None:
    draft = {"steps": [
        {"type": "SEARCH", "description": "Find candidates", "search_queries": ["react state", "zustand"]},
        {"type": "BROWSE", "description": "Read READMEs"},
        {"type": "SEARCH", "description": "Look for critics and opposing views", "search_queries": ["redux alternative"]},
        {"type": "ANALYZE", "description": "Cross-verify claims against activity data"},
        {"type": "ANALYZE", "description": "Synthesize"},
    ]}
    plan = await LLMPlanner(scripted_llm(draft), LocalPlanner()).plan(request("x y z goal", DEEP))
    assert plan.source == "llm" and len(plan.steps) == 5 and plan_problems(plan, DEEP) == []


async def test_llm_plan_is_repaired_to_the_rules() -> None:
    draft = {"steps": [
        {"type": "BROWSE", "description": "Read things"},
        {"type": "SEARCH", "description": "Search", "search_queries": ["", "a b", "c d", "e f"]},
        {"type": "ANALYZE", "description": "Think"},
        {"type": "ANALYZE", "description": "Think more"},
    ]}
    quick = await LLMPlanner(scripted_llm(draft), LocalPlanner()).plan(request("react hooks", QUICK))
    assert len(quick.steps) <= 3 and plan_problems(quick, QUICK) == []
    assert quick.steps[0].search_queries == ["a b", "c d"]
    deep = await LLMPlanner(scripted_llm(draft), LocalPlanner()).plan(request("react hooks", DEEP))
    assert plan_problems(deep, DEEP) == []
    assert {"opposing_views", "cross_verify"} <= {s.purpose for s in deep.steps}


@pytest.mark.parametrize("answer", [LLMTimeout(), {"steps": []}, {"steps": [{"type": "SEARCH", "description": "no queries"}]}])
async def test_llm_planner_falls_back_to_the_local_plan(answer: object) -> None:
    plan = await LLMPlanner(scripted_llm(answer), LocalPlanner()).plan(request("react hooks", DEEP))
    assert plan.source == "local" and plan_problems(plan, DEEP) == []


def test_queries_parse_back_into_search_parameters() -> None:
    params = parse_query('react "state management" language:typescript stars:10..500 pushed:>2026-01-01 topic:hooks')
    assert params.keywords == ["react"] and params.phrases == ["state management"]
    assert params.language == "typescript" and params.topics == ["hooks"]
    assert (params.min_stars, params.max_stars) == (10, 500)
    assert params.pushed_after == date(2026, 1, 1)
    assert not is_executable("stars:>5")


def test_comparison_goals_search_each_option() -> None:
    plan = LocalPlanner().build(request("Should our team migrate from Redux to Zustand?", DEEP))
    first = parse_query(plan.steps[0].search_queries[0])
    assert first.synonym_groups == [["redux", "zustand"]] and not first.keywords
    assert plan_problems(plan, DEEP) == []


def test_or_groups_parse() -> None:
    params = parse_query("deno OR node.js OR bun runtime")
    assert params.synonym_groups == [["deno", "node.js", "bun"]] and params.keywords == ["runtime"]
    assert is_executable("a OR b") and not is_executable("OR")
