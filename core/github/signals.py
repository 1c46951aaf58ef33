"""Measured signals for one repository, fetched concurrently, each call allowed to fail.

Two depths (``RepoSource.get_signals(..., depth=)``):

- ``"light"`` (search candidates): only ``LIGHT_SIGNALS`` -- the latest release (``per_page=1``:
  the release count comes from the ``Link`` header), commits since 90 days (``per_page=1``, the
  same trick) and the README (the one the Screener reads anyway: a shared call): 3 calls in one
  round trip. The signals carry a note naming what is left for a full analysis. Why these three:
  ``core/search/SCORING.md`` ("Call budget").
- ``"full"`` (analyze, compare): everything below.

Full, round 1 (concurrent): the repository, releases, commits since 30 and 90 days, contributors,
open pull requests, the issues+PRs updated in the last 90 days, the community profile and the
README. Counts use ``per_page=1``: the ``Link`` header's last page number is the count.
Round 2 (concurrent): the first comments of a few recent issues (time to first response), the
rest of the 90-day listing when it spans 2-5 pages, or -- for busier repositories -- two search
counts for closed issues and merged pull requests (search has a separate budget of 30 a
minute, which the Scout needs). Round 2 is skipped when the core budget runs low (anonymous use).
A full collection costs about 9 + ``RESPONSE_SAMPLE`` calls in two round trips (the repository
call is free after a search, which primes it; the light calls are shared through the cache).
A failed call leaves its fields ``None`` (never a guess); a rate limit adds a note; when nothing
at all could be measured the first error is raised.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from statistics import median

from core.errors import RateLimited, RepoNotFound, SourceError
from core.github.client import RAW, GitHubClient
from core.github.payloads import (
    GhCommunityProfile,
    GhIssue,
    GhRepo,
    GhSearchCount,
    comments_adapter,
    issues_adapter,
)
from core.github.response import GitHubResponse, page_number
from core.github.signal_fields import count, fill_profile, fill_readme, fill_releases
from core.models import RepoSignals
from core.sources.base import SignalDepth

log = logging.getLogger("omg.github.signals")

RESPONSE_SAMPLE = 5  # recent issues whose first response is measured (one call each)
LISTING_PAGE = 100
MAX_LISTING_PAGES = 5  # beyond 500 issues+PRs updated in 90 days, use two search counts
LOW_BUDGET = 300  # core calls left under which the optional round 2 is skipped
# The cheap calls that feed the scoring best (measured: python -m bench signal_depth)
LIGHT_SIGNALS: tuple[str, ...] = ("releases", "commits_90d", "readme")
_ONLY_MISSING_IF_THE_REPO_IS = ("repo", "releases", "commits_30d", "commits_90d")  # a 404 there
_SKIPPED_WHEN_LIGHT = {  # what a light collection leaves out, in words, for the note
    "releases": "releases", "commits_30d": "commits in the last 30 days",
    "commits_90d": "commits in the last 90 days", "contributors": "contributors",
    "community": "the community profile",
}


def _day(moment: datetime) -> str:
    """Midnight UTC of that day: stable cache keys for a whole day."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT00:00:00Z")


@dataclass(slots=True)
class _Failures:
    errors: list[Exception] = field(default_factory=list)

    def add(self, exc: Exception) -> None:
        self.errors.append(exc)

    def notes(self) -> list[str]:
        limited = [e for e in self.errors if isinstance(e, RateLimited)]
        if limited:
            return [f"{limited[0].user_message} Some numbers could not be measured."]
        if self.errors:
            return ["Some numbers could not be measured (GitHub did not answer every request)."]
        return []


class SignalCollector:
    def __init__(
        self, client: GitHubClient, *, ttl: float, now: Callable[[], datetime] | None = None,
        max_listing_pages: int = MAX_LISTING_PAGES, light: tuple[str, ...] = LIGHT_SIGNALS,
    ) -> None:
        self._client = client
        self._light = light
        self._ttl = ttl
        self._now = now or (lambda: datetime.now(UTC))
        self._max_pages = max_listing_pages

    async def collect_only(self, full_name: str, names: list[str]) -> RepoSignals:
        """Just the round-1 signals ``names`` (what a GraphQL answer could not give)."""
        if not names:
            return RepoSignals()
        requests = self._requests(full_name, self._now())
        signals, ok, failures = await self._round_one(full_name, {n: requests[n]() for n in names})
        signals.notes = failures.notes()
        return signals

    async def readme(self, full_name: str) -> str | None:
        answer = await self._client.get(f"/repos/{full_name}/readme", accept=RAW, ttl=self._ttl,
                                        allow=(404,))
        return None if answer.status == 404 else answer.text()

    async def collect(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        now = self._now()
        since90 = now - timedelta(days=90)
        requests = self._requests(full_name, now)
        wanted = self._light if depth == "light" else tuple(requests)
        calls = {name: requests[name]() for name in wanted}
        if not calls:
            return RepoSignals(notes=[self._light_note()])
        signals, ok, failures = await self._round_one(full_name, calls)
        if depth == "light":
            signals.notes = failures.notes() + [self._light_note()]
            return signals
        left = self._client.remaining("core")
        if left is not None and left < LOW_BUDGET:
            signals.notes = failures.notes() + [
                f"GitHub's rate limit is running low ({left} calls left), so I skipped the "
                "response times and the 90-day issue and pull request counts."]
            return signals
        await self._second_round(signals, full_name, ok, since90, failures)
        signals.notes = failures.notes()
        return signals

    async def _round_one(
        self, full_name: str, calls: dict[str, Awaitable[GitHubResponse]]
    ) -> tuple[RepoSignals, dict[str, GitHubResponse], _Failures]:
        answers = dict(zip(calls, await asyncio.gather(*calls.values(), return_exceptions=True)))
        failures = _Failures()
        ok: dict[str, GitHubResponse] = {}
        for name, answer in answers.items():
            if isinstance(answer, RepoNotFound) and name in _ONLY_MISSING_IF_THE_REPO_IS:
                raise answer
            if isinstance(answer, BaseException):
                if not isinstance(answer, Exception):
                    raise answer
                log.info("signal.failed", extra={"repo": full_name, "signal": name,
                                                 "error": type(answer).__name__})
                failures.add(answer)
            else:
                ok[name] = answer
        if not ok:
            raise failures.errors[0]
        signals = RepoSignals()
        self._counts(signals, ok, failures)
        return signals, ok, failures

    def _requests(self, full_name: str, now: datetime) -> dict[str, Callable[[], Awaitable[GitHubResponse]]]:
        """Round 1 of a full collection, by signal name; each call is made only when invoked."""
        base = f"/repos/{full_name}"
        since30, since90 = now - timedelta(days=30), now - timedelta(days=90)
        get, ttl = self._client.get, self._ttl
        return {
            "repo": lambda: get(base, ttl=ttl),
            "releases": lambda: get(f"{base}/releases", {"per_page": 1}, ttl=ttl),
            "commits_30d": lambda: get(f"{base}/commits", {"since": _day(since30), "per_page": 1},
                                       ttl=ttl, allow=(409,)),
            "commits_90d": lambda: get(f"{base}/commits", {"since": _day(since90), "per_page": 1},
                                       ttl=ttl, allow=(409,)),
            "contributors": lambda: get(f"{base}/contributors", {"per_page": 1, "anon": "true"},
                                        ttl=ttl),
            "open_pulls": lambda: get(f"{base}/pulls", {"state": "open", "per_page": 1}, ttl=ttl),
            "recent": lambda: get(f"{base}/issues", _listing(since90), ttl=ttl),
            "community": lambda: get(f"{base}/community/profile", ttl=ttl),
            "readme": lambda: get(f"{base}/readme", accept=RAW, ttl=ttl, allow=(404,)),
        }

    def _light_note(self) -> str:
        left = [label for name, label in _SKIPPED_WHEN_LIGHT.items() if name not in self._light]
        left += ["issue response times", "issue and pull request flow"]
        return (f"Search results are scored on quick signals; {', '.join(left[:-1])} and {left[-1]} "
                "are measured when you analyze a repository.")

    def _counts(
        self, signals: RepoSignals, ok: dict[str, GitHubResponse], failures: _Failures
    ) -> None:
        def measure(name: str, fill: Callable[[GitHubResponse], None]) -> None:
            if name in ok:
                try:
                    fill(ok[name])
                except ValueError as exc:  # a payload we could not read: leave it unmeasured
                    failures.add(exc)

        measure("releases", lambda r: fill_releases(signals, r))
        measure("commits_30d", lambda r: setattr(signals, "commits_30d", count(r)))
        measure("commits_90d", lambda r: setattr(signals, "commits_90d", count(r)))
        measure("contributors", lambda r: setattr(signals, "contributors", count(r)))
        measure("open_pulls", lambda r: setattr(signals, "open_pulls", count(r)))
        measure("community", lambda r: fill_profile(signals, r.model(GhCommunityProfile)))
        measure("readme", lambda r: fill_readme(signals, r))
        if "repo" in ok and signals.open_pulls is not None:
            total = ok["repo"].model(GhRepo).open_issues_count
            if total is not None:
                signals.open_issues_only = max(0, total - signals.open_pulls)

    async def _second_round(
        self, signals: RepoSignals, full_name: str, ok: dict[str, GitHubResponse],
        since90: datetime, failures: _Failures,
    ) -> None:
        if "recent" not in ok:
            return
        try:
            recent = ok["recent"].items(issues_adapter)
        except ValueError as exc:
            failures.add(exc)
            return
        pages = page_number(ok["recent"].links.get("last")) or 1
        response_job = self._first_response(signals, full_name, recent, since90, failures)
        if pages > self._max_pages:  # too busy to list: ask search for the exact counts
            day = since90.date().isoformat()
            await asyncio.gather(
                response_job,
                self._search_count(signals, "closed_issues_90d",
                                   f"repo:{full_name} is:issue is:closed closed:>={day}", failures),
                self._search_count(signals, "merged_pulls_90d",
                                   f"repo:{full_name} is:pr is:merged merged:>={day}", failures),
            )
            return
        listing = _listing(since90)
        _, *more = await asyncio.gather(response_job, *(
            self._client.get(f"/repos/{full_name}/issues", listing | {"page": page}, ttl=self._ttl)
            for page in range(2, pages + 1)
        ), return_exceptions=True)
        for answer in more:
            if isinstance(answer, BaseException):
                if not isinstance(answer, Exception):
                    raise answer
                failures.add(answer)
                return  # an incomplete listing would undercount: leave the counts unknown
            recent += answer.items(issues_adapter)
        signals.closed_issues_90d = sum(
            1 for i in recent if not i.is_pull and i.closed_at and i.closed_at >= since90
        )
        signals.merged_pulls_90d = sum(
            1 for i in recent
            if i.pull_request and i.pull_request.merged_at and i.pull_request.merged_at >= since90
        )

    async def _search_count(
        self, signals: RepoSignals, field_name: str, query: str, failures: _Failures
    ) -> None:
        try:
            answer = await self._client.get("/search/issues", {"q": query, "per_page": 1},
                                            ttl=self._ttl)
            setattr(signals, field_name, answer.model(GhSearchCount).total_count)
        except (SourceError, ValueError) as exc:
            failures.add(exc)

    async def _first_response(
        self, signals: RepoSignals, full_name: str, recent: list[GhIssue], since90: datetime,
        failures: _Failures,
    ) -> None:
        sample = sorted(
            (i for i in recent if not i.is_pull and i.created_at >= since90 and i.comments > 0),
            key=lambda i: i.created_at, reverse=True,
        )[:RESPONSE_SAMPLE]
        if not sample:
            return
        answers = await asyncio.gather(
            *(self._client.get(f"/repos/{full_name}/issues/{i.number}/comments",
                               {"per_page": 10}, ttl=self._ttl) for i in sample),
            return_exceptions=True,
        )
        hours: list[float] = []
        for issue, answer in zip(sample, answers):
            if isinstance(answer, BaseException):
                if not isinstance(answer, Exception):
                    raise answer
                failures.add(answer)
                continue
            author = issue.user.login if issue.user else None
            for comment in answer.items(comments_adapter):
                login = comment.user.login if comment.user else None
                is_bot = comment.user is not None and comment.user.type == "Bot"
                if login != author and not is_bot:
                    hours.append((comment.created_at - issue.created_at).total_seconds() / 3600)
                    break
        if hours:
            signals.median_first_response_hours = round(median(hours), 1)


def _listing(since90: datetime) -> dict[str, str | int]:
    return {"state": "all", "since": _day(since90), "sort": "updated", "direction": "desc",
            "per_page": LISTING_PAGE}
