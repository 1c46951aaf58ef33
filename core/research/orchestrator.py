"""The orchestrator: goal -> analysis -> plan -> review -> execution, every step persisted first.

Every state change is a compare-and-swap write of the session file (``store.update``) made
*before* the caller posts anything that depends on it. Decisions (approve / revise / cancel)
check, in this order: who decides (requester or admin), whether the review expired, whether the
session is still waiting for this plan version. The first click that passes wins; any later or
racing click gets StaleAction.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta

from core.errors import NotAllowed, OmgError, ReviewExpired, StaleAction, log_failure
from core.models import ConversationKey, LogEvent, ProgressSink, null_sink, utcnow
from core.research.analyzer import LocalModeAnalyzer, ModeAnalyzer, override_rationale
from core.research.executor import Executor, emit, lease_free
from core.research.goal import Goal, parse_mode, read_goal
from core.models.research import (
    Decision,
    Feedback,
    FeedbackRequest,
    ModeDecision,
    ResearchMode,
    ResearchPlan,
    ResearchSession,
    ResearchStatus,
)
from core.research.planner import LocalPlanner, PlanRequest, Planner
from core.research.report import build_report
from core.research.settings import ResearchSettings
from core.research.states import fail, transition
from core.store.research import ResearchStore, new_session_id, update

log = logging.getLogger("omg.research")
S = ResearchStatus


class Orchestrator:
    def __init__(
        self,
        store: ResearchStore,
        executor: Executor,
        settings: ResearchSettings,
        *,
        analyzer: ModeAnalyzer | None = None,
        planner: Planner | None = None,
    ) -> None:
        self.store = store
        self.executor = executor
        self.settings = settings
        self.local_analyzer = LocalModeAnalyzer()
        self.analyzer = analyzer or self.local_analyzer
        self.planner = planner or LocalPlanner()

    # -- creating a session ------------------------------------------------------------------

    async def create(
        self,
        goal_text: str,
        *,
        requester: str,
        key: ConversationKey,
        mode: str | ResearchMode | None = None,
        progress: ProgressSink = null_sink,
    ) -> tuple[ResearchSession, Goal]:
        """Analyze and plan; the session ends in REVIEW_PENDING (deep) or EXECUTING (quick)."""
        deadline = time.monotonic() + self.settings.turn_budget_seconds
        requested = parse_mode(mode)  # InvalidGoal("invalid_mode") before anything else
        goal = read_goal(goal_text, max_chars=self.settings.max_goal_chars)  # InvalidGoal
        override = requested or goal.mode_flag
        session = ResearchSession(
            id=new_session_id(), query=goal.text, requester=requester, key=key,
            query_truncated=goal.truncated, original_chars=goal.original_chars,
        )
        transition(session, S.ANALYZING)
        await self.store.save(session, expected_version=0)
        await emit(progress, LogEvent(content="Analyzing the research goal…"))
        try:
            decision = await self._analyze(goal.text, override, deadline)
            session = await update(self.store, session.id, lambda s: _analyzed(s, decision))
            await emit(progress, LogEvent(content=f"{decision.mode.label}: {decision.rationale} Planning…"))
            request = PlanRequest(session_id=session.id, goal=session.query, mode=decision.mode,
                                  rationale=decision.rationale, version=1)
            plan = await self.planner.plan(request, timeout=deadline - time.monotonic())
        except OmgError:
            raise
        except Exception as exc:  # a planning bug: record it on the session, the turn's edge answers
            log_failure(log, "research planning failed", exc, session_id=session.id)
            await update(self.store, session.id, lambda s: fail(s, "internal", f"{type(exc).__name__} while planning"))
            raise
        session = await update(self.store, session.id, lambda s: self._planned(s, plan))
        return session, goal

    async def _analyze(self, text: str, override: ResearchMode | None, deadline: float) -> ModeDecision:
        if override is None:
            return await self.analyzer.analyze(text, timeout=deadline - time.monotonic())
        auto = self.local_analyzer.decide(text)
        return ModeDecision(mode=override, rationale=override_rationale(override, auto), source="override")

    def _planned(self, session: ResearchSession, plan: ResearchPlan) -> None:
        if session.status is not S.PLANNING:
            raise StaleAction("This research was cancelled while it was being planned.")
        session.plans.append(plan)
        if session.mode is ResearchMode.DEEP_PROBE:
            transition(session, S.REVIEW_PENDING)
            session.review_deadline = utcnow() + timedelta(seconds=self.settings.review_ttl_seconds)
        else:
            transition(session, S.EXECUTING)
            session.lease = self.executor.new_lease()

    # -- decisions -----------------------------------------------------------------------------

    def may_decide(self, session: ResearchSession, user: str) -> bool:
        return user == session.requester or user in self.settings.admins

    def check_decision(self, session: ResearchSession, user: str, plan_version: int | None) -> bool:
        """Raise unless ``user`` may decide on this plan now; True when the review just expired."""
        if not self.may_decide(session, user):
            raise NotAllowed()
        if session.status is S.REVIEW_PENDING and session.review_deadline and utcnow() >= session.review_deadline:
            session.decisions.append(Decision(kind="expire", user=user, plan_version=session.plan_version))
            session.awaiting_feedback = None
            transition(session, S.CANCELLED)
            return True
        if session.status is not S.REVIEW_PENDING:
            raise _finished(session)
        if plan_version is not None and plan_version != session.plan_version:
            raise StaleAction(
                f"This button is for plan revision {plan_version}, but the plan is now at revision "
                f"{session.plan_version}. Use the buttons on the latest plan."
            )
        return False

    async def _decide(
        self, session_id: str, user: str, plan_version: int | None,
        apply: Callable[[ResearchSession], None],
    ) -> ResearchSession:
        expired = False

        def change(session: ResearchSession) -> None:
            nonlocal expired
            expired = self.check_decision(session, user, plan_version)
            if not expired:
                apply(session)

        session = await update(self.store, session_id, change)
        if expired:
            await self._clear_wait(session)
            raise ReviewExpired()
        return session

    async def approve(self, session_id: str, plan_version: int | None, user: str) -> ResearchSession:
        def apply(session: ResearchSession) -> None:
            session.decisions.append(Decision(kind="approve", user=user, plan_version=session.plan_version))
            session.awaiting_feedback = None
            transition(session, S.EXECUTING)
            session.lease = self.executor.new_lease()

        session = await self._decide(session_id, user, plan_version, apply)
        await self._clear_wait(session)
        return session

    async def request_feedback(
        self, session_id: str, plan_version: int | None, user: str, conversation_id: str | None = None
    ) -> ResearchSession:
        """Revise without text: the user's next message in ``conversation_id`` (default: the
        conversation the research started in) is the feedback."""
        def apply(session: ResearchSession) -> None:
            where = conversation_id or session.key.conversation_id
            session.awaiting_feedback = FeedbackRequest(
                user=user, plan_version=session.plan_version, conversation_id=where
            )
            if where not in session.feedback_conversations:
                session.feedback_conversations.append(where)

        session = await self._decide(session_id, user, plan_version, apply)
        assert session.awaiting_feedback is not None
        await self.store.set_feedback_wait(session.awaiting_feedback.conversation_id or "", session.id)
        return session

    async def revise(
        self, session_id: str, plan_version: int | None, user: str, feedback: str,
        progress: ProgressSink = null_sink,
    ) -> ResearchSession:
        text = " ".join(feedback.split())[: self.settings.max_goal_chars]

        def apply(session: ResearchSession) -> None:
            session.decisions.append(Decision(kind="revise", user=user, plan_version=session.plan_version))
            session.feedback.append(Feedback(user=user, text=text, plan_version=session.plan_version))
            session.awaiting_feedback = None
            transition(session, S.PLANNING)

        session = await self._decide(session_id, user, plan_version, apply)
        await self._clear_wait(session)
        await emit(progress, LogEvent(content="Revising the plan with your feedback…"))
        assert session.mode is not None and session.decision is not None
        request = PlanRequest(
            session_id=session.id, goal=session.query, mode=session.mode,
            rationale=session.decision.rationale, feedback=[f.text for f in session.feedback],
            version=session.plan_version + 1,
        )
        try:
            plan = await self.planner.plan(request, timeout=self.settings.turn_budget_seconds)
        except Exception as exc:  # record the failure on the session, the turn's edge answers
            log_failure(log, "research re-planning failed", exc, session_id=session.id)
            await update(self.store, session.id, lambda s: fail(s, "internal", f"{type(exc).__name__} while re-planning"))
            raise
        return await update(self.store, session.id, lambda s: self._planned(s, plan))

    async def cancel(self, session_id: str, plan_version: int | None, user: str) -> ResearchSession:
        """Cancel a pending plan at once; a running one stops at its next step boundary."""
        def change(session: ResearchSession) -> None:
            if not self.may_decide(session, user):
                raise NotAllowed()
            if session.status is S.EXECUTING:
                if plan_version is not None and plan_version != session.plan_version:
                    raise StaleAction()
                if session.cancel_requested_by:
                    raise StaleAction("Cancelling is already under way.")
                session.cancel_requested_by = user
                session.decisions.append(Decision(kind="cancel", user=user, plan_version=session.plan_version))
                if lease_free(session, "", utcnow()):  # nobody is running it: stop now
                    transition(session, S.CANCELLED)
                    session.lease = None
                    session.report = build_report(session)
                return
            if session.status in (S.ANALYZING, S.PLANNING, S.IDLE):
                transition(session, S.CANCELLED)
                return
            if self.check_decision(session, user, plan_version):
                return  # expired just now: nothing left to cancel
            session.decisions.append(Decision(kind="cancel", user=user, plan_version=session.plan_version))
            session.awaiting_feedback = None
            transition(session, S.CANCELLED)

        session = await update(self.store, session_id, change)
        await self._clear_wait(session)
        return session

    async def _clear_wait(self, session: ResearchSession) -> None:
        for conversation_id in session.feedback_conversations:
            if await self.store.feedback_wait(conversation_id) == session.id:
                await self.store.set_feedback_wait(conversation_id, None)

    # -- execution -----------------------------------------------------------------------------

    async def execute(self, session_id: str, progress: ProgressSink = null_sink) -> ResearchSession:
        return await self.executor.run(session_id, progress)

    async def expire_reviews(self) -> list[str]:
        """Move reviews past their deadline to CANCELLED (expired); returns their ids."""
        expired: list[str] = []
        now = utcnow()
        for session in await self.store.list_sessions({S.REVIEW_PENDING}):
            if session.review_deadline and now >= session.review_deadline:
                try:
                    await self._decide(session.id, session.requester, None, lambda s: None)
                except ReviewExpired:
                    expired.append(session.id)
                except OmgError:
                    continue
        return expired

    async def runnable(self) -> list[ResearchSession]:
        """EXECUTING sessions nobody live is running (after a crash or a restart)."""
        now = utcnow()
        return [
            s for s in await self.store.list_sessions({S.EXECUTING})
            if lease_free(s, self.executor.owner, now)
        ]


def _finished(session: ResearchSession) -> OmgError:
    last = session.decisions[-1] if session.decisions else None
    if session.status is S.CANCELLED and last is not None and last.kind == "expire":
        return ReviewExpired()
    if session.status is S.EXECUTING:
        who = next((d.user for d in reversed(session.decisions) if d.kind == "approve"), None)
        return StaleAction(f"This plan was already approved{f' by {who}' if who else ''} and is running.")
    if session.status is S.PLANNING:
        return StaleAction("The plan is being revised right now; use the buttons on the new plan.")
    return StaleAction(f"This research is already {session.status.value.lower().replace('_', ' ')}.")


def _analyzed(session: ResearchSession, decision: ModeDecision) -> None:
    if session.status is not S.ANALYZING:
        raise StaleAction("This research was cancelled while it was being analyzed.")
    session.mode = decision.mode
    session.decision = decision
    transition(session, S.PLANNING)

