"""ResearchService: the research entry points adapters, the shell and the app call.

It implements ``core.service.ResearchHandler`` (``start`` / ``decide``) plus ``take_feedback``
(BotService routes a pending Revise's next message here) and ``resume_incomplete`` (the app
calls it at start-up). Every error becomes a friendly ``Reply`` with an ``error`` code (see
core/research/__init__.py); nothing here raises into an adapter.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from core.errors import (
    IllegalTransition,
    InputError,
    InvalidId,
    NotAllowed,
    OmgError,
    ReviewExpired,
    SessionNotFound,
    StaleAction,
    VersionConflict,
    is_expected,
    log_failure,
)
from core.models import (
    Action,
    ActionKind,
    ConversationKey,
    LogEvent,
    ProgressSink,
    Reply,
    follow_up_actions,
    null_sink,
)
from core.research.costs import Bill, ResearchCosts
from core.research.executor import emit
from core.research.goal import EXAMPLES, InvalidGoal
from core.research.orchestrator import Orchestrator
from core.models.research import TERMINAL, ResearchSession, ResearchStatus
from core.models.document import Document, TextSection
from core.research.report import build_report, plan_section
from core.store.research import check_session_id, update
from core.tasks import TaskTracker
from core.usage import workspace_scope

if TYPE_CHECKING:
    from core.models import ActionClick, IncomingMessage
    from core.store.base import ConversationStore

log = logging.getLogger("omg.research.service")
S = ResearchStatus
Notifier = Callable[[ConversationKey, Reply], Awaitable[None]]

ERROR_CODES: dict[type[OmgError], str] = {
    NotAllowed: "not_allowed",
    StaleAction: "stale",
    IllegalTransition: "illegal_transition",  # a bug: valid flows never hit it (SC-004)
    ReviewExpired: "expired",
    SessionNotFound: "not_found",
    InvalidId: "not_found",
    VersionConflict: "conflict",
}
ASK_FEEDBACK = (
    "What should change in the plan? Reply here with your feedback, for example "
    "*focus on TypeScript projects* or *leave out archived repositories*."
)
CONTINUES_ELSEWHERE = (
    "This research is still running, on another instance of the bot that took it over; "
    "its report will be posted in this thread when it finishes."
)


class InvalidAction(InputError):
    code = "invalid_action"
    default_message = "I couldn't read that button. Please use the buttons on the latest plan."


def action_value(session: ResearchSession) -> str:
    return f"{session.id}:{session.plan_version}"


def parse_action_value(value: str) -> tuple[str, int, str | None]:
    """``<session id>:<plan version>[:<inline feedback>]`` -> its parts, or InvalidAction."""
    parts = (value or "").split(":", 2)
    if len(parts) < 2 or not parts[1].strip().isdigit():
        raise InvalidAction()
    try:
        session_id = check_session_id(parts[0].strip())
    except InvalidId:
        raise InvalidAction() from None
    feedback = parts[2].strip() if len(parts) == 3 and parts[2].strip() else None
    return session_id, int(parts[1]), feedback


def plan_actions(session: ResearchSession) -> list[Action]:
    value = action_value(session)
    return [
        Action(kind=ActionKind.APPROVE, label="Approve", value=value, style="primary"),
        Action(kind=ActionKind.REVISE, label="Revise", value=value),
        Action(kind=ActionKind.CANCEL, label="Cancel", value=value, style="danger"),
    ]


def error_reply(exc: BaseException, conversation_id: str) -> Reply:
    if isinstance(exc, InvalidGoal):
        examples = [f"/research {e}" for e in EXAMPLES]
        return Reply(conversation_id=conversation_id, markdown=exc.user_message, error=exc.code,
                     suggestions=examples, actions=follow_up_actions([], examples))
    if isinstance(exc, OmgError):
        code = next((c for t, c in ERROR_CODES.items() if isinstance(exc, t)), None)
        if isinstance(exc, InvalidAction):
            code = exc.code
        return Reply(conversation_id=conversation_id, markdown=exc.user_message, error=code or "research_error")
    log_failure(log, "research request failed", exc)
    return Reply(conversation_id=conversation_id, error="internal",
                 markdown="Something went wrong on my side with that research. Please try again.")


def _notes(notes: Sequence[str]) -> Document:
    return [TextSection(markdown=f"_{note}_") for note in notes]


class ResearchService:
    def __init__(
        self, orchestrator: Orchestrator, *, notifier: Notifier | None = None,
        conversations: ConversationStore | None = None,
    ) -> None:
        self.orchestrator = orchestrator
        self.store = orchestrator.store
        self.notifier = notifier
        self.costs = ResearchCosts(conversations)  # LLM cost footer + Conversation.cost
        self._tasks = TaskTracker()

    # -- replies -----------------------------------------------------------------------------

    def plan_reply(self, session: ResearchSession, conversation_id: str, notes: Sequence[str] = ()) -> Reply:
        plan = plan_section(session, review_ttl_seconds=self.orchestrator.settings.review_ttl_seconds)
        actions = plan_actions(session) if session.status is S.REVIEW_PENDING else []
        return Reply(conversation_id=conversation_id, document=[*_notes(notes), plan], actions=actions,
                     footer=f"Research session {session.id}")

    @classmethod
    def run_reply(cls, session: ResearchSession, conversation_id: str, notes: Sequence[str] = ()) -> Reply:
        """The report of a run this turn started; while another instance runs it on (it took the
        run over when this one's lease ran out), a note instead: that instance posts the report."""
        if session.status is S.EXECUTING:
            return Reply(conversation_id=conversation_id, markdown=CONTINUES_ELSEWHERE,
                         footer=f"Research session {session.id}")
        return cls.final_reply(session, conversation_id, notes)

    @staticmethod
    def final_reply(session: ResearchSession, conversation_id: str, notes: Sequence[str] = ()) -> Reply:
        document: Document = _notes(notes)
        error = None
        if session.status is S.ERROR:
            error = "research_failed"
            document.append(TextSection(markdown="The research stopped because of an error, so this report is partial."))
        document.append(session.report or build_report(session))
        return Reply(conversation_id=conversation_id, document=document, error=error,
                     footer=f"Research session {session.id}")

    # -- adapters (core.service.ResearchHandler) ----------------------------------------------

    async def refusal(self, value: str, user: str) -> str | None:
        """Why ``user`` may not decide on the plan a button ``value`` names right now -- the text
        the click itself would get -- or None. Read-only: the check runs on a copy, nothing is
        saved. Adapters use it before opening a form (Discord's Revise modal)."""
        try:
            session_id, version, _ = parse_action_value(value)
            session = await self.store.get(session_id)
            if self.orchestrator.check_decision(session.model_copy(deep=True), user, version):
                raise ReviewExpired()
        except OmgError as exc:
            return error_reply(exc, "").markdown
        return None


    async def start(
        self, goal: str, *, key: ConversationKey, requester: str, mode: str | None = None,
        progress: ProgressSink = null_sink,
    ) -> Reply:
        with self.costs.bill(key) as bill:
            reply = await self._start(goal, key=key, requester=requester, mode=mode, progress=progress)
        return await self.costs.charge(bill, reply)

    async def _start(
        self, goal: str, *, key: ConversationKey, requester: str, mode: str | None,
        progress: ProgressSink,
    ) -> Reply:
        conversation_id = key.conversation_id
        try:
            session, parsed = await self.orchestrator.create(
                goal, requester=requester, key=key, mode=mode, progress=progress
            )
            if session.status is S.REVIEW_PENDING:
                return self.plan_reply(session, conversation_id, parsed.notes)
            steps = len(session.plan.steps) if session.plan else 0
            await emit(progress, LogEvent(content=f"Quick Scan plan: {steps} steps."))
            session = await self.orchestrator.execute(session.id, progress)
            return self.run_reply(session, conversation_id, parsed.notes)
        except Exception as exc:  # the edge of a research turn: error_reply answers any failure
            return error_reply(exc, conversation_id)

    async def decide(self, click: ActionClick, progress: ProgressSink = null_sink) -> Reply:
        with self.costs.bill(click.key) as bill:
            reply = await self._decide(click, progress, bill)
        return await self.costs.charge(bill, reply)

    async def _decide(self, click: ActionClick, progress: ProgressSink, bill: Bill) -> Reply:
        conversation_id = click.conversation_id or click.key.conversation_id
        try:
            session_id, version, inline = parse_action_value(click.value)
            kind = click.kind
            if kind is ActionKind.APPROVE:
                session = await self.orchestrator.approve(session_id, version, click.user)
                bill.key = session.key
                steps = len(session.plan.steps) if session.plan else 0
                await emit(progress, LogEvent(content=f"Plan approved by {click.user}: running {steps} steps."))
                session = await self.orchestrator.execute(session.id, progress)
                return self.run_reply(session, conversation_id)
            if kind is ActionKind.REVISE:
                if inline:
                    session = await self.orchestrator.revise(session_id, version, click.user, inline, progress)
                    bill.key = session.key
                    return self.plan_reply(session, conversation_id)
                await self.orchestrator.request_feedback(
                    session_id, version, click.user, click.key.conversation_id
                )
                return Reply(conversation_id=conversation_id, markdown=ASK_FEEDBACK)
            if kind is ActionKind.CANCEL:
                session = await self.orchestrator.cancel(session_id, version, click.user)
                return self._cancel_reply(session, conversation_id, click.user)
            raise InvalidAction()
        except Exception as exc:  # the edge of a research turn: error_reply answers any failure
            return error_reply(exc, conversation_id)

    def _cancel_reply(self, session: ResearchSession, conversation_id: str, user: str) -> Reply:
        if session.status is S.CANCELLED:
            if session.results:
                return self.final_reply(session, conversation_id, [f"Research cancelled by {user}."])
            return Reply(conversation_id=conversation_id, markdown=f"Research cancelled by {user}. Nothing was run.")
        return Reply(
            conversation_id=conversation_id,
            markdown="Stopping after the current step; the report will show what was found so far.",
        )

    async def take_feedback(self, incoming: IncomingMessage, progress: ProgressSink = null_sink) -> Reply | None:
        """The requester's message after a Revise click is feedback; anything else is not ours."""
        with self.costs.bill(incoming.key) as bill:
            reply = await self._take_feedback(incoming, progress, bill)
        return await self.costs.charge(bill, reply) if reply is not None else None

    async def _take_feedback(self, incoming: IncomingMessage, progress: ProgressSink, bill: Bill) -> Reply | None:
        conversation_id = incoming.conversation_id or incoming.key.conversation_id
        waiting_in = incoming.key.conversation_id  # markers are keyed like clicks: by the key
        try:
            session_id = await self.store.feedback_wait(waiting_in)
            if session_id is None:
                return None
            try:
                session = await self.store.get(session_id)
            except SessionNotFound:
                session = None
            waiting = session.awaiting_feedback if session is not None else None
            if session is None or waiting is None or session.status is not S.REVIEW_PENDING:
                await self.store.set_feedback_wait(waiting_in, None)
                return None
            if incoming.author != waiting.user:
                return None
            bill.key = session.key
            if not incoming.text.strip():
                return Reply(conversation_id=conversation_id, markdown=ASK_FEEDBACK, error="empty_feedback")
            session = await self.orchestrator.revise(
                session.id, waiting.plan_version, incoming.author, incoming.text, progress
            )
            return self.plan_reply(session, conversation_id)
        except Exception as exc:  # the edge of a research turn: error_reply answers any failure
            return error_reply(exc, conversation_id)

    # -- lifecycle ---------------------------------------------------------------------------

    async def resume_incomplete(self, *, wait: bool = False) -> list[str]:
        """Expire overdue reviews; continue every EXECUTING session nobody live is running.

        Runs in background tasks (``wait=True`` awaits them); each finished report goes to the
        ``notifier`` (adapters post it into the session's conversation) when one is set.
        """
        await asyncio.to_thread(self.orchestrator.local_analyzer.warm)  # first /research is fast
        await self.orchestrator.expire_reviews()
        sessions = await self.orchestrator.runnable()
        for session in sessions:
            self._tasks.spawn(self._resume(session), name=f"research:{session.id}")
        if wait:
            await self._tasks.idle()
        return [s.id for s in sessions]

    async def _resume(self, session: ResearchSession) -> None:
        log.info("resuming research", extra={"session_id": session.id})
        try:
            with workspace_scope(session.key.team), self.costs.bill(session.key) as bill:
                done = await self.orchestrator.execute(session.id)
        except Exception as exc:  # the edge of a background run: it is recorded on the session
            log_failure(log, "resumed research failed", exc, session_id=session.id)
            return
        reply = await self.costs.charge(bill, self.final_reply(done, done.key.conversation_id))
        try:
            await self.notify_once(done, reply)
        except Exception as exc:  # the edge of a background delivery: the report stays stored
            log.warning("could not deliver a resumed research report",
                        extra={"error": repr(exc)}, exc_info=not is_expected(exc))

    async def notify_once(self, session: ResearchSession, reply: Reply) -> None:
        """Hand a resumed run's finished report to the notifier, once across every instance."""
        if self.notifier is None or session.status not in TERMINAL:
            return
        token = uuid.uuid4().hex

        def claim(stored: ResearchSession) -> None:
            stored.delivered_by = stored.delivered_by or token

        if (await update(self.store, session.id, claim)).delivered_by == token:
            await self.notifier(session.key, reply)

    async def aclose(self) -> None:
        await self._tasks.drain(0)
        await self.store.close()
