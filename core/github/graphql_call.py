"""One GraphQL call, shared by the signal batcher and the batched search: send the query, read
the answer, turn failures into ``GraphQLUnavailable`` (the caller answers over REST instead) and
account the query's ``rateLimit`` cost.

An unreachable GitHub (``SourceUnavailable``) passes through: it is an outage, not a GraphQL
problem, and the offline snapshot answers.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

from core.errors import RateLimited, SourceError, SourceUnavailable
from core.github.client import GitHubClient
from core.github.graphql_read import GqlAnswer

log = logging.getLogger("omg.github.graphql")


class GraphQLUnavailable(SourceError):
    """The GraphQL query failed as a whole; the caller answers over REST instead."""

    code = "graphql_unavailable"


def _cacheable(body: bytes) -> bool:
    answer = GqlAnswer.model_validate_json(body)
    return answer.data is not None and not answer.errors


async def ask(
    client: GitHubClient, query: str, variables: dict[str, Any], *, ttl: float, what: str, size: int,
) -> GqlAnswer:
    """The answer to ``query`` with data in it (``what``: "repositories" or "searches", and how
    many, for the cost log line)."""
    try:
        response = await client.graphql(query, variables, ttl=ttl, cacheable=_cacheable)
        answer = GqlAnswer.model_validate_json(response.body)
    except SourceUnavailable:
        raise
    except RateLimited as exc:
        log.info("github.graphql_rate_limited", extra={"reset_at": str(exc.reset_at), "for": what})
        raise GraphQLUnavailable(str(exc)) from exc
    except (SourceError, ValueError) as exc:
        log.info("github.graphql_failed", extra={"error": type(exc).__name__, "for": what})
        raise GraphQLUnavailable() from exc
    if answer.data is None:
        limited = any(e.type == "RATE_LIMITED" for e in answer.errors)
        log.info("github.graphql_refused", extra={
            "rate_limited": limited, "for": what,
            "error": answer.errors[0].message[:200] if answer.errors else ""})
        raise GraphQLUnavailable()
    cost = answer.data.get("rateLimit") or {}
    if not response.cached and isinstance(cost.get("cost"), int):
        client.stats.graphql_cost += cost["cost"]
        client.metrics.github_cost("graphql", cost["cost"])
        log.info("github.graphql_cost", extra={"cost": cost["cost"], "remaining": cost.get("remaining"),
                                               what: size})
    return answer


def settle(answers: Iterable[tuple[asyncio.Future[Any], Any]]) -> None:
    """Hand each waiting caller its result (or its exception); a caller that left is skipped."""
    for future, result in answers:
        if future.done():
            continue
        if isinstance(result, BaseException):
            future.set_exception(result)
            future.exception()  # a caller that left must not leave it unretrieved
        else:
            future.set_result(result)
