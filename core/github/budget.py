"""How the bot spends a budget that is running low, in a stated order.

1. Plenty left: every scored search candidate is measured (one GraphQL query for all).
2. Low (under ``LOW_SHARE`` of the hourly budget, at least ``LOW_FLOOR``): only the top
   ``LOW_ENRICHED`` candidates of a search are measured; the others are scored on what the search
   returned, and the reply says why ("Some details could not be fetched ... GitHub's rate limit is
   running low"). Analyses and comparisons are still measured in full (they ask for few
   repositories). On the REST path the optional second round of an analysis is skipped
   (``core.github.signals.LOW_BUDGET``).
3. Spent: the client answers from its cache (stale-if-error), then ``FallbackSource`` answers
   from the offline snapshot with a note naming the reset time; only what the snapshot lacks
   still reports the rate limit.
"""

from __future__ import annotations

from core.errors import SourceError
from core.github.client import GitHubClient

LOW_SHARE = 0.05
LOW_FLOOR = 50
LOW_ENRICHED = 5


class BudgetSaved(SourceError):
    """A candidate left unmeasured to keep the rest of a low budget for others."""

    code = "budget_saved"

    def __init__(self, remaining: int) -> None:
        super().__init__(f"GitHub's rate limit is running low ({remaining} left), so only the top "
                         f"{LOW_ENRICHED} candidates were measured")


def low_remaining(client: GitHubClient, resource: str) -> int | None:
    """What is left of ``resource`` when that is low, else None (plenty, or not known yet)."""
    remaining, limit = client.remaining(resource), client.limit(resource)
    if remaining is None or limit is None:
        return None
    return remaining if remaining < max(LOW_FLOOR, limit * LOW_SHARE) else None
