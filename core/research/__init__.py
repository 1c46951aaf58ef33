"""The research orchestrator: Quick Scan / Deep Probe, plans, button approval, durable sessions.

    goal --read_goal--> ANALYZING --analyzer--> PLANNING --planner--> REVIEW_PENDING (Deep Probe)
                                                                  \\-> EXECUTING (Quick Scan)
    REVIEW_PENDING --Approve--> EXECUTING --executor--> COMPLETED
                   --Revise---> PLANNING -> REVIEW_PENDING (a new plan version; history kept)
                   --Cancel / expiry--> CANCELLED
    any active state --crash--> ERROR (with context)

Modules (the session models live in ``core.models.research``, their stores in
``core.store.research`` and ``core.store.research_redis``): ``states`` (the one transition table),
``goal`` (validation, --quick/--deep, long goals), ``analyzer`` + ``cues`` (mode choice),
``planner`` / ``llm_planner`` (plans), ``queries`` (GitHub queries), ``executor`` + ``steps`` + ``analysis`` (running plans
with checkpoints), ``report`` (Markdown), ``orchestrator`` (the flow), ``service`` (what adapters
call), ``factory`` (wiring), ``web`` (the web half of a SEARCH step) and ``web_search`` (the
``WebSearch`` seam: Gemini grounded on Google Search in the app, GitHub only when it fails).
The analyzer, planner and step analysis ask the provider library's ``LLMClient`` (``core.llm``);
``costs`` (research LLM cost on the reply's footer and in the thread's ``Conversation.cost``).

Buttons. A plan awaiting review comes with three ``core.models.Action``s (APPROVE / REVISE /
CANCEL) whose ``value`` is ``"<session id>:<plan version>"``; an adapter that collects the
Revise text itself (a modal) may send ``"<session id>:<plan version>:<feedback>"``. Adapters
pass clicks to ``BotService.handle_action`` unchanged. Only the requester, or a user id listed
in ``OMG_RESEARCH_ADMINS``, may decide. After a Revise click without text, the requester's next
message in the same conversation is the feedback (``BotService.handle_message`` asks
``ResearchService.take_feedback`` first).

Approve returns when the run ends: ``decide`` answers with the final report while progress
goes to the click's sink (adapters already handle clicks after their ack). A run interrupted by
a restart is continued by ``resume_incomplete()``; its report goes to the ``notifier``
(``(ConversationKey, Reply) -> None``) the app registers, and is always kept in the session file.

Reply error codes (``Reply.error``; adapters show refusals ephemerally):

    not_allowed      someone other than the requester or an admin clicked
    stale            an older plan version, a double click, or an already decided session
    expired          the review waited longer than OMG_REVIEW_TTL seconds
    not_found        no such session (or a malformed / hostile id)
    invalid_action   a button value that cannot be parsed
    conflict         the session kept changing under us; try again
    empty_goal       no goal given             unclear_goal   the goal looks like noise
    invalid_mode     an unknown --mode value    empty_feedback  an empty feedback message
    research_failed  the run ended in ERROR (the reply still carries the partial report)
    research_error   any other research error  internal       an unexpected bug (logged)
    illegal_transition  a state change the state machine forbids (never in a valid flow)
"""

from core.research.factory import build_research_service
from core.models.research import (
    ModeDecision,
    PlanStep,
    ResearchMode,
    ResearchPlan,
    ResearchSession,
    ResearchStatus,
    StepType,
)
from core.research.service import ResearchService
from core.research.settings import ResearchSettings

__all__ = [
    "ModeDecision",
    "PlanStep",
    "ResearchMode",
    "ResearchPlan",
    "ResearchService",
    "ResearchSession",
    "ResearchSettings",
    "ResearchStatus",
    "StepType",
    "build_research_service",
]
