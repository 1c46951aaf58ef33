"""One exception tree for the whole core.

Every error a user or an operator can meet is one of these: a stable snake_case ``code`` (what
``Reply.error`` and progress ``ErrorEvent``s carry, what logs name) and a friendly sentence
(``user_message``); adapters never show ``str(exc)`` or a traceback. Expected conditions (rate
limits, timeouts, not found, bad input) are logged as one WARNING line without a traceback.

    OmgError
     ├── InputError                 bad user input (empty, too long, unparseable)
     │    ├── InvalidGoal           an empty, unclear or wrongly-moded research goal (core.research.goal)
     │    └── InvalidAction         a button value that can't be read (core.research.service)
     ├── SourceError                anything about repository data (GitHub or the catalog)
     │    ├── RepoNotFound          owner/name does not exist (404)
     │    ├── SourceAuthError       token rejected (401)
     │    ├── InvalidQuery          the search was refused (422)
     │    ├── RateLimited           primary or secondary rate limit; carries reset time
     │    ├── SourceUnavailable     network error, timeout, 5xx after retries
     │    ├── BudgetSaved           a candidate left unmeasured to spare a low budget (core.github.budget)
     │    └── GraphQLUnavailable    a GraphQL batch failed as a whole: REST answers (core.github.graphql_call)
     ├── LLMError                   anything about an LLM provider
     │    ├── LLMTimeout
     │    ├── LLMRateLimited
     │    ├── LLMUnavailable        5xx or connection error (retried, then counted by the breaker)
     │    ├── LLMRejected           any other 4xx: bad key, unknown model, refused request
     │    ├── LLMBadOutput          unparseable or schema-invalid answer
     │    ├── CircuitOpen           breaker open: the local path serves
     │    └── BudgetExceeded        daily budget spent: the local path serves
     ├── StoreError                 persistence
     │    ├── InvalidId             an id that could escape the data directory
     │    ├── VersionConflict       optimistic concurrency check failed
     │    └── ConversationDamaged   a stored conversation could not be read (set aside)
     ├── ResearchError              research orchestration
     │    ├── IllegalTransition     a state change the state machine forbids
     │    ├── SessionNotFound
     │    ├── NotAllowed            someone other than the requester/admins decided
     │    ├── StaleAction           a click for an older plan version, or a finished session
     │    ├── ReviewExpired
     │    └── LeaseHeld             another live executor runs the session (core.research.executor)
     ├── PlatformError              a chat platform refused or failed a call
     │    ├── RetryAfter            the platform asked to wait before an edit (core.pacing)
     │    └── SlackCallFailed       a Slack Web API call failed (bot.slack.api)
     │         └── MessageTooLong   Slack refused the message's size
     ├── ConfigError                the bot can't start: missing or rejected settings
     │    └── SetupError            a chat platform's settings cannot work (bot.base)
     ├── EmbeddingModelMissing      the local embedding model is not installed (core.search.embedding)
     └── InvalidData                a reply's structured data failed validation (core.synth.validation)

Exceptions outside the tree are internal control flow and never leave their module: ``Transient``
and ``ConnectionFailure`` (GitHubClient's retry loop, surfacing as ``SourceUnavailable``),
``Ungrounded`` (a model answer replaced by the local one), ``_Taken`` (a takeover race lost).
"""

from __future__ import annotations

import logging
import sys
from datetime import datetime


class OmgError(Exception):
    """Base of every error raised on purpose by oh-my-github."""
    code = "internal"

    default_message = "Something went wrong on my side. Please try again."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default_message)

    @property
    def user_message(self) -> str:
        """A sentence that is safe and friendly to show in chat."""
        return str(self)


class InputError(OmgError):
    code = "invalid_input"
    default_message = "I couldn't read that message. Could you rephrase it?"


# -- repository data -------------------------------------------------------------------------------


class SourceError(OmgError):
    code = "source_error"
    default_message = "I couldn't reach GitHub just now. Please try again in a moment."


class RepoNotFound(SourceError):
    code = "repo_not_found"
    def __init__(self, full_name: str, where: str | None = None) -> None:
        self.full_name = full_name
        if where is None:  # the live API: the name is wrong
            super().__init__(f"I couldn't find {full_name} on GitHub. Check the owner/name spelling?")
        else:  # e.g. "in the offline snapshot ...": the data set is limited, the name may be fine
            super().__init__(f"I couldn't find {full_name} {where}.")


class SourceAuthError(SourceError):
    code = "source_auth"
    default_message = "GitHub rejected the configured token (401). Ask an admin to check GITHUB_TOKEN."


class InvalidQuery(SourceError):
    code = "invalid_query"
    default_message = "GitHub couldn't run that search. Try simpler keywords."


class RateLimited(SourceError):
    code = "rate_limited"
    def __init__(self, reset_at: datetime | None = None) -> None:
        self.reset_at = reset_at
        when = f", resets at {reset_at.strftime('%H:%M')} UTC" if reset_at else ""
        super().__init__(f"GitHub rate limit reached{when}.")


class SourceUnavailable(SourceError):
    code = "source_unavailable"
    pass


# -- LLM providers ---------------------------------------------------------------------------------


class LLMError(OmgError):
    code = "llm_error"
    default_message = "The language model is unavailable; I answered with my local tools."


class LLMTimeout(LLMError):
    code = "llm_timeout"
    pass


class LLMRateLimited(LLMError):
    code = "llm_rate_limited"
    def __init__(self, retry_after: float | None = None) -> None:
        self.retry_after = retry_after
        super().__init__()


class LLMUnavailable(LLMError):
    code = "llm_unavailable"
    def __init__(self, status: int | None = None) -> None:
        self.status = status
        super().__init__()


class LLMRejected(LLMError):
    code = "llm_rejected"
    def __init__(self, status: int | None = None, reason: str = "") -> None:
        self.status = status
        self.reason = reason
        super().__init__()


class LLMBadOutput(LLMError):
    code = "llm_bad_output"
    def __init__(self, raw: str = "", reason: str = "") -> None:
        self.raw = raw
        self.reason = reason
        super().__init__()


class CircuitOpen(LLMError):
    code = "circuit_open"
    pass


class BudgetExceeded(LLMError):
    code = "budget_exceeded"
    default_message = "Today's LLM budget is spent, so I'm using my local tools until tomorrow."


# -- persistence -----------------------------------------------------------------------------------


class StoreError(OmgError):
    code = "store_error"
    default_message = "I couldn't save that just now. Please try again."


class InvalidId(StoreError):
    code = "invalid_id"
    default_message = "That id isn't valid."


class ConversationDamaged(StoreError):
    code = "conversation_damaged"
    default_message = (
        "I couldn't read the earlier history of this conversation (it was set aside for "
        "diagnosis), so this answer starts afresh."
    )


class VersionConflict(StoreError):
    code = "conflict"
    default_message = "Someone else changed this at the same time. Please try again."


# -- research --------------------------------------------------------------------------------------


class ResearchError(OmgError):
    code = "research_error"
    default_message = "Something went wrong with that research session."


class IllegalTransition(ResearchError):
    code = "illegal_transition"
    def __init__(self, current: str, target: str) -> None:
        self.current = current
        self.target = target
        super().__init__(f"A research session can't go from {current} to {target}.")


class SessionNotFound(ResearchError):
    code = "not_found"
    default_message = "I couldn't find that research session. It may have expired."


class NotAllowed(ResearchError):
    code = "not_allowed"
    default_message = "Only the person who asked for this research (or an admin) can decide on the plan."


class StaleAction(ResearchError):
    code = "stale"
    default_message = "This button is out of date: the plan has changed or was already decided."


class ReviewExpired(ResearchError):
    code = "expired"
    default_message = "This plan waited too long for review and has expired. Start the research again."


# -- chat platforms and start-up -------------------------------------------------------------------


class PlatformError(OmgError):
    code = "platform_error"
    default_message = "I couldn't post to this chat just now. Please try again in a moment."


class ConfigError(OmgError):
    code = "config_error"
    default_message = "The bot isn't configured correctly. Ask an admin to check its settings."


EXPECTED: tuple[type[BaseException], ...] = (OmgError, TimeoutError, OSError)


def redis_errors() -> tuple[type[BaseException], ...]:
    """``RedisError`` once the redis package is loaded, else nothing: no Redis error can exist
    before, and a bot without ``REDIS_URL`` never loads it (~9 MB and ~0.1 s)."""
    loaded = sys.modules.get("redis.exceptions")
    return (loaded.RedisError,) if loaded is not None else ()


def is_expected(exc: BaseException) -> bool:
    """True for a condition the bot is built to meet (one WARNING line, no traceback): an
    ``OmgError``, a timeout, a network or Redis failure; False for a bug worth a traceback."""
    return isinstance(exc, (*EXPECTED, *redis_errors()))


def log_failure(log: logging.Logger, message: str, exc: BaseException, **extra: object) -> None:
    """One WARNING line for an expected condition (its code and friendly sentence); ERROR with
    the traceback for a bug. Never ``str(exc)`` of a foreign exception: it may quote a secret."""
    if isinstance(exc, OmgError):
        log.warning(message, extra={**extra, "error": exc.code, "detail": exc.user_message})
    elif is_expected(exc):
        log.warning(message, extra={**extra, "error": type(exc).__name__})
    else:
        log.error(message, extra={**extra, "error": type(exc).__name__}, exc_info=exc)
