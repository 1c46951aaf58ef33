"""Pydantic models for everything that crosses a boundary."""

from core.models.base import WireModel
from core.models.conversation import (
    Conversation,
    ConversationKey,
    CostTotals,
    Message,
    utcnow,
)
from core.models.events import (
    CollectingSink,
    DataEvent,
    DoneEvent,
    ErrorEvent,
    LogEvent,
    ProgressEvent,
    ProgressSink,
    TextEvent,
    null_sink,
)
from core.models.incoming import ActionClick, IncomingMessage
from core.models.intent import Classification, Intent
from core.models.reply import Action, ActionKind, Reply
from core.models.repository import (
    DIMENSIONS,
    DimensionScores,
    KeyMetric,
    Recommendation,
    RepoSignals,
    Repository,
    RepositoryDetail,
    ScoredRepository,
)
from core.models.search import SearchParams
from core.models.structured import (
    Clarification,
    Comparison,
    ComparisonRow,
    RepoDetailData,
    RepoList,
    ResultMeta,
    StructuredData,
    structured_data_adapter,
    structured_repo_names,
)

__all__ = [
    "DIMENSIONS",
    "Action",
    "ActionClick",
    "ActionKind",
    "Clarification",
    "Classification",
    "CollectingSink",
    "Comparison",
    "ComparisonRow",
    "Conversation",
    "ConversationKey",
    "CostTotals",
    "DataEvent",
    "DimensionScores",
    "DoneEvent",
    "IncomingMessage",
    "ErrorEvent",
    "Intent",
    "KeyMetric",
    "LogEvent",
    "Message",
    "ProgressEvent",
    "ProgressSink",
    "Recommendation",
    "Reply",
    "RepoDetailData",
    "RepoList",
    "RepoSignals",
    "Repository",
    "RepositoryDetail",
    "ResultMeta",
    "ScoredRepository",
    "SearchParams",
    "StructuredData",
    "TextEvent",
    "WireModel",
    "null_sink",
    "structured_data_adapter",
    "structured_repo_names",
    "utcnow",
]
