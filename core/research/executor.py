"""The executor: runs a plan step by step, checkpointing each finished step in the session file.

A restarted process resumes from the first unfinished step (finished steps are never run
again); each step has a timeout; a cancel is honoured at the next step boundary; a lease
(renewed at every checkpoint, never older than one step timeout) keeps two instances from
running the same session, and a dead owner's lease is taken over at once.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from core.errors import OmgError, ResearchError, is_expected, log_failure
from core.models import DoneEvent, ErrorEvent, LogEvent, ProgressEvent, ProgressSink, null_sink, utcnow
from core.research.analysis import run_analyze
from core.research.answer import partial_answer
from core.llm.client import LLMClient
from core.research.web_search import WebSearch
from core.models.research import Lease, PlanStep, ResearchSession, ResearchStatus, StepResult, StepType
from core.research.report import build_report
from core.research.settings import ResearchSettings
from core.research.states import fail, transition
from core.research.steps import StepContext, run_browse, run_search
from core.store.research import ResearchStore, update
from core.sources.base import RepoSource

log = logging.getLogger("omg.research.executor")

Runner = Callable[[PlanStep, StepContext, datetime], Awaitable[StepResult]]
RUNNERS: dict[StepType, Runner] = {
    StepType.SEARCH: run_search,
    StepType.BROWSE: run_browse,
    StepType.ANALYZE: run_analyze,
}
_ICON = {"done": "✓", "failed": "✗", "timeout": "⏱"}


class LeaseHeld(ResearchError):
    """Another live executor owns this session; this one leaves it alone."""

    code = "lease_held"
    default_message = "Another instance is already running this research."


def _owner_dead(owner: str) -> bool:
    """True when the owner ran on this host and its process is gone (restart after a crash)."""
    host, _, rest = owner.partition(":")
    pid_text = rest.split(":", 1)[0]
    if host != os.uname().nodename or not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    try:
        os.kill(int(pid_text), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False
    return False


def lease_free(session: ResearchSession, owner: str, now: datetime) -> bool:
    lease = session.lease
    return lease is None or lease.owner == owner or lease.until <= now or _owner_dead(lease.owner)


async def emit(progress: ProgressSink, event: ProgressEvent) -> None:
    try:
        await progress(event)
    except Exception as exc:  # the edge of a progress sink: a broken one must not break the research
        log.warning("progress sink failed", extra={"error": repr(exc)}, exc_info=not is_expected(exc))


class Executor:
    def __init__(
        self,
        store: ResearchStore,
        source: RepoSource,
        settings: ResearchSettings,
        *,
        web: WebSearch | None = None,
        llm: LLMClient | None = None,
        owner: str | None = None,
    ) -> None:
        self.store = store
        self.source = source
        self.settings = settings
        self.web = web
        self.llm = llm
        self.owner = owner or f"{os.uname().nodename}:{os.getpid()}:{secrets.token_hex(4)}"
        self.running: set[str] = set()  # sessions this process runs right now (one run each)

    def new_lease(self) -> Lease:
        return Lease(owner=self.owner, until=utcnow() + timedelta(seconds=self.settings.lease_seconds))

    async def run(self, session_id: str, progress: ProgressSink = null_sink) -> ResearchSession:
        """Run (or resume) an EXECUTING session to its end; other states are returned as they are.

        A session already running in this process is returned as it is: the lease cannot tell two
        runs of one owner apart (a start-up resume racing a takeover), and a second would repeat
        steps."""
        if session_id in self.running:
            return await self.store.get(session_id)
        self.running.add(session_id)
        try:
            return await self._run(session_id, progress)
        finally:
            self.running.discard(session_id)

    async def _run(self, session_id: str, progress: ProgressSink) -> ResearchSession:
        try:
            session = await update(self.store, session_id, self._claim)
        except LeaseHeld:
            return await self.store.get(session_id)
        try:
            return await self._loop(session, progress)
        except LeaseHeld:  # another instance took over (our lease had run out)
            return await self.store.get(session_id)
        except asyncio.CancelledError:
            await asyncio.shield(self._release(session_id))
            raise

    def _claim(self, session: ResearchSession) -> None:
        if session.status is ResearchStatus.EXECUTING:
            if not lease_free(session, self.owner, utcnow()):
                raise LeaseHeld()
            session.lease = self.new_lease()

    async def _release(self, session_id: str) -> None:
        def change(session: ResearchSession) -> None:
            if session.lease and session.lease.owner == self.owner:
                session.lease = None

        try:
            await update(self.store, session_id, change)
        except OmgError:
            log.warning("could not release the lease", extra={"session_id": session_id})

    async def _loop(self, session: ResearchSession, progress: ProgressSink) -> ResearchSession:
        steps = session.plan.steps if session.plan else []
        while session.status is ResearchStatus.EXECUTING:
            if session.cancel_requested_by:
                return await self._finish(session.id, ResearchStatus.CANCELLED, progress)
            done = session.finished_step_ids()
            pending = [s for s in steps if s.step_id not in done]
            if not pending:
                return await self._finish(session.id, ResearchStatus.COMPLETED, progress)
            step = pending[0]
            position = f"{steps.index(step) + 1}/{len(steps)}"
            await emit(progress, LogEvent(content=f"Step {position} · {step.type.value.title()}: {step.description}"))
            try:
                result = await self._run_step(step, session)
            except Exception as exc:  # a step's edge (its OmgErrors are handled inside): stop with context
                log_failure(log, "research step crashed", exc, session_id=session.id, step=step.step_id)
                await emit(progress, ErrorEvent(code="internal", message="A research step failed unexpectedly."))
                reason = f"{type(exc).__name__} in step {step.step_id}"
                return await update(self.store, session.id, lambda s: _crashed(s, reason, step.step_id))
            session = await update(self.store, session.id, lambda s: self._checkpoint(s, result))
            await emit(progress, LogEvent(content=f"{_ICON[result.status]} Step {position}: {result.summary}"))
        return session

    async def _run_step(self, step: PlanStep, session: ResearchSession) -> StepResult:
        started = utcnow()
        ctx = StepContext(session=session, source=self.source, settings=self.settings, web=self.web, llm=self.llm)
        timeout = self.settings.step_timeout_seconds
        try:
            return await asyncio.wait_for(RUNNERS[step.type](step, ctx, started), timeout)
        except TimeoutError:
            return StepResult(step_id=step.step_id, status="timeout", started_at=started,
                              summary=f"stopped after {timeout:g} s", error="step timed out")
        except OmgError as exc:
            return StepResult(step_id=step.step_id, status="failed", started_at=started,
                              summary="failed", error=exc.user_message)

    def _checkpoint(self, session: ResearchSession, result: StepResult) -> None:
        if session.status is not ResearchStatus.EXECUTING:
            return  # cancelled or failed meanwhile: the result is dropped with the run
        if session.lease is not None and not lease_free(session, self.owner, utcnow()):
            raise LeaseHeld()
        if result.step_id not in session.finished_step_ids():
            session.results.append(result)
        session.lease = self.new_lease()

    async def _finish(self, session_id: str, target: ResearchStatus, progress: ProgressSink) -> ResearchSession:
        def change(session: ResearchSession) -> None:
            results = session.results
            if target is ResearchStatus.COMPLETED and results and all(r.status != "done" for r in results):
                fail(session, "all_steps_failed", "Every step failed: " + "; ".join(
                    filter(None, (r.error for r in results)))[:300])
            else:
                transition(session, target)
            session.lease = None
            session.report = build_report(session, partial=partial_answer(session, self.source.info))

        session = await update(self.store, session_id, change)
        await emit(progress, DoneEvent(stats={"sessionId": session.id, "status": session.status.value,
                                               "steps": len(session.results)}))
        return session


def _crashed(session: ResearchSession, reason: str, step_id: int) -> None:
    if session.status is ResearchStatus.EXECUTING:
        fail(session, "internal", reason, step_id=step_id)
        session.report = build_report(session)
