"""The state machine: every legal transition works, every illegal one raises and changes nothing."""

from __future__ import annotations

import itertools

import pytest

from core.errors import IllegalTransition
from core.models import ConversationKey
from core.models.research import (
    Decision,
    PlanStep,
    ResearchMode,
    ResearchPlan,
    ResearchSession,
    ResearchStatus,
    StepType,
)
from core.models.research import TERMINAL
from core.research.states import ACTIVE, TRANSITIONS, can_transition, fail, transition

S = ResearchStatus
KEY = ConversationKey(platform="test", channel="c", thread="t")

# Every legal move, with the mode that makes its guard pass (None: any mode).
LEGAL = {
    (S.IDLE, S.ANALYZING): None,
    (S.ANALYZING, S.PLANNING): None,
    (S.PLANNING, S.REVIEW_PENDING): ResearchMode.DEEP_PROBE,
    (S.PLANNING, S.EXECUTING): ResearchMode.QUICK_SCAN,
    (S.REVIEW_PENDING, S.PLANNING): ResearchMode.DEEP_PROBE,
    (S.REVIEW_PENDING, S.EXECUTING): ResearchMode.DEEP_PROBE,
    (S.EXECUTING, S.COMPLETED): None,
    **{(state, S.ERROR): None for state in ACTIVE},
    **{(state, S.CANCELLED): None for state in ACTIVE},
}


def session(status: ResearchStatus, mode: ResearchMode | None = ResearchMode.DEEP_PROBE,
            *, approved: bool = True) -> ResearchSession:
    s = ResearchSession(id="00000000-0000-4000-8000-000000000000", query="q", requester="U1",
                        key=KEY, mode=mode, status=status)
    s.plans.append(ResearchPlan(session_id=s.id, rationale="r", steps=[
        PlanStep(step_id=1, type=StepType.SEARCH, description="d", search_queries=["react"])]))
    if approved:
        s.decisions.append(Decision(kind="approve", user="U1", plan_version=1))
    return s


def test_the_table_is_exactly_the_documented_flow() -> None:
    assert set(TRANSITIONS) == set(LEGAL)


@pytest.mark.parametrize(("current", "target"), sorted(LEGAL, key=str))
def test_every_legal_transition(current: ResearchStatus, target: ResearchStatus) -> None:
    s = session(current, LEGAL[(current, target)] or ResearchMode.DEEP_PROBE)
    transition(s, target)
    assert s.status is target
    assert s.history[-1]["from"] == current.value and s.history[-1]["to"] == target.value


ILLEGAL = [pair for pair in itertools.product(S, S) if pair not in LEGAL]


@pytest.mark.parametrize(("current", "target"), ILLEGAL)
def test_every_illegal_transition_raises_and_changes_nothing(current: ResearchStatus, target: ResearchStatus) -> None:
    for mode in (ResearchMode.QUICK_SCAN, ResearchMode.DEEP_PROBE):
        s = session(current, mode)
        before = s.model_dump()
        with pytest.raises(IllegalTransition) as caught:
            transition(s, target)
        assert s.model_dump() == before
        assert caught.value.current == current.value and caught.value.target == target.value


@pytest.mark.parametrize(
    ("current", "target", "mode", "approved"),
    [
        (S.PLANNING, S.EXECUTING, ResearchMode.DEEP_PROBE, True),  # deep never skips review
        (S.PLANNING, S.REVIEW_PENDING, ResearchMode.QUICK_SCAN, True),  # quick never waits
        (S.REVIEW_PENDING, S.EXECUTING, ResearchMode.DEEP_PROBE, False),  # no approval recorded
        (S.ANALYZING, S.PLANNING, None, True),  # no mode chosen yet
    ],
)
def test_guards_refuse_legal_looking_moves(current, target, mode, approved) -> None:  # type: ignore[no-untyped-def]
    s = session(current, mode, approved=approved)
    before = s.model_dump()
    assert not can_transition(s, target)
    with pytest.raises(IllegalTransition):
        transition(s, target)
    assert s.model_dump() == before


def test_approval_of_an_older_plan_version_does_not_count() -> None:
    s = session(S.REVIEW_PENDING)
    s.plans.append(ResearchPlan(session_id=s.id, rationale="r", version=2, steps=s.plans[0].steps))
    with pytest.raises(IllegalTransition):
        transition(s, S.EXECUTING)


@pytest.mark.parametrize("state", sorted(ACTIVE))
def test_any_active_state_can_fail_with_context(state: ResearchStatus) -> None:
    s = session(state)
    fail(s, "boom", "it broke", step_id=2)
    assert s.status is S.ERROR
    assert s.error is not None and s.error.state is state and s.error.code == "boom" and s.error.step_id == 2


@pytest.mark.parametrize("state", sorted(TERMINAL))
def test_terminal_states_are_final(state: ResearchStatus) -> None:
    s = session(state)
    for target in S:
        assert not can_transition(s, target)
    with pytest.raises(IllegalTransition):
        fail(s, "x", "y")
