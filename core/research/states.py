"""The research state machine: every legal transition is declared in ``TRANSITIONS``.

    IDLE -> ANALYZING -> PLANNING -> REVIEW_PENDING (deep) -> EXECUTING -> COMPLETED
                                  \\-> EXECUTING (quick) --/
    REVIEW_PENDING -> PLANNING (revise)
    any active state -> ERROR (with context) | CANCELLED

A transition that is not in the table, or whose guard refuses it, raises
``core.errors.IllegalTransition`` and leaves the session untouched.
"""

from __future__ import annotations

from collections.abc import Callable

from core.errors import IllegalTransition
from core.metrics import metrics
from core.models import utcnow
from core.models.research import TERMINAL, ErrorContext, ResearchMode, ResearchSession, ResearchStatus

S = ResearchStatus
Guard = Callable[[ResearchSession], bool]


def _quick(session: ResearchSession) -> bool:
    return session.mode is ResearchMode.QUICK_SCAN


def _deep(session: ResearchSession) -> bool:
    return session.mode is ResearchMode.DEEP_PROBE


def _has_plan(session: ResearchSession) -> bool:
    return session.plan is not None


def _quick_with_plan(session: ResearchSession) -> bool:
    return _quick(session) and _has_plan(session)


def _deep_with_plan(session: ResearchSession) -> bool:
    return _deep(session) and _has_plan(session)


def _approved(session: ResearchSession) -> bool:
    return _deep_with_plan(session) and any(
        d.kind == "approve" and d.plan_version == session.plan_version for d in session.decisions
    )


def _always(session: ResearchSession) -> bool:
    return True


ACTIVE: frozenset[ResearchStatus] = frozenset(
    {S.IDLE, S.ANALYZING, S.PLANNING, S.REVIEW_PENDING, S.EXECUTING}
)

# (from, to) -> guard. The one place that says what may happen.
TRANSITIONS: dict[tuple[ResearchStatus, ResearchStatus], Guard] = {
    (S.IDLE, S.ANALYZING): _always,
    (S.ANALYZING, S.PLANNING): lambda s: s.mode is not None,
    (S.PLANNING, S.REVIEW_PENDING): _deep_with_plan,  # Deep Probe always waits for review
    (S.PLANNING, S.EXECUTING): _quick_with_plan,  # Quick Scan skips review
    (S.REVIEW_PENDING, S.PLANNING): _deep,  # revise with feedback
    (S.REVIEW_PENDING, S.EXECUTING): _approved,
    (S.EXECUTING, S.COMPLETED): _always,
    **{(state, S.ERROR): _always for state in ACTIVE},
    **{(state, S.CANCELLED): _always for state in ACTIVE},
}


def can_transition(session: ResearchSession, target: ResearchStatus) -> bool:
    guard = TRANSITIONS.get((session.status, target))
    return guard is not None and guard(session)


def transition(session: ResearchSession, target: ResearchStatus) -> ResearchSession:
    """Move ``session`` to ``target`` in place, or raise IllegalTransition and change nothing."""
    if not can_transition(session, target):
        raise IllegalTransition(session.status.value, target.value)
    now = utcnow()
    session.history.append({"from": session.status.value, "to": target.value, "at": now.isoformat()})
    session.status = target
    session.updated_at = now
    metrics().research_state(target.value)
    return session


def fail(
    session: ResearchSession, code: str, message: str, *, step_id: int | None = None
) -> ResearchSession:
    """Move an active session to ERROR, recording where and why."""
    context = ErrorContext(state=session.status, code=code, message=message, step_id=step_id)
    transition(session, S.ERROR)
    session.error = context
    session.lease = None
    return session
