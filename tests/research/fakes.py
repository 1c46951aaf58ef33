"""An in-process RepoSource for research tests and benchmarks: canned repos, optional latency.

``calls`` records every call; with ``log_path`` each call is also appended to a file, so a test
can see what a killed subprocess did before it died.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from core.errors import RepoNotFound, SourceUnavailable
from core.models import Repository, RepoSignals, SearchParams
from core.sources.base import SearchResults, SignalDepth, SourceInfo

NOW = datetime.now(UTC)


def _repo(name: str, stars: int, language: str, description: str, topics: list[str],
          pushed_days: int = 3, archived: bool = False, created_days: int = 2000) -> Repository:
    return Repository(
        full_name=name, description=description, stars=stars, language=language, topics=topics,
        url=f"https://github.com/{name}", pushed_at=NOW - timedelta(days=pushed_days),
        created_at=NOW - timedelta(days=created_days), archived=archived,
    )


REPOS: list[Repository] = [
    _repo("facebook/react", 230000, "JavaScript", "The library for web and native user interfaces.", ["react", "ui"]),
    _repo("reduxjs/redux", 61000, "TypeScript", "A JS library for predictable global state management", ["redux", "state-management", "react"]),
    _repo("pmndrs/zustand", 50000, "TypeScript", "Bear necessities for state management in React", ["react", "state-management", "hooks"]),
    _repo("pmndrs/jotai", 19000, "TypeScript", "Primitive and flexible state management for React", ["react", "state-management", "atomic"]),
    _repo("mobxjs/mobx", 27000, "TypeScript", "Simple, scalable state management.", ["state-management", "react", "reactive"]),
    _repo("statelyai/xstate", 27000, "TypeScript", "Actor-based state management & orchestration for complex app logic.", ["state-machine", "state-management"]),
    _repo("old/react-state-kit", 900, "JavaScript", "Legacy state management for React apps", ["react", "state-management"], pushed_days=900, archived=True),
    _repo("newcomer/tiny-store", 150, "TypeScript", "A tiny new state management alternative for React", ["react", "state-management"], pushed_days=1, created_days=60),
    _repo("openmed/ai-ethics-toolkit", 2100, "Python", "Toolkit for auditing ethics and bias of medical AI models", ["ai", "ethics", "medical", "fairness"]),
    _repo("fairlearn/fairlearn", 1900, "Python", "A Python package to assess and improve fairness of machine learning models.", ["ai", "fairness", "ethics"]),
    _repo("healthai/clinical-llm-eval", 400, "Python", "Evaluating clinical AI: safety, ethics and medical accuracy", ["ai", "medical", "llm"], created_days=120),
    _repo("tiangolo/fastapi", 80000, "Python", "FastAPI framework, high performance, easy to learn, fast to code, ready for production", ["python", "api", "web"]),
]

SIGNALS: dict[str, RepoSignals] = {
    "facebook/react": RepoSignals(latest_release="v19.2.0", latest_release_at=NOW - timedelta(days=20), commits_90d=400, releases=120),
    "pmndrs/zustand": RepoSignals(latest_release="v5.0.8", latest_release_at=NOW - timedelta(days=15), commits_90d=60, open_issues_only=5, closed_issues_90d=40),
    "reduxjs/redux": RepoSignals(latest_release="v5.0.1", latest_release_at=NOW - timedelta(days=900), commits_90d=3, open_issues_only=40, closed_issues_90d=2),
    "tiangolo/fastapi": RepoSignals(latest_release="0.121.0", latest_release_at=NOW - timedelta(days=5), commits_90d=120),
}


class FakeRepoSource:
    def __init__(self, *, latency: float = 0.0, log_path: Path | None = None,
                 fail_search: bool = False, crash_search: bool = False, slow_calls: dict[str, float] | None = None,
                 kind: str = "github") -> None:
        self.latency = latency
        self.log_path = log_path
        self.fail_search = fail_search
        self.crash_search = crash_search
        self.slow_calls = slow_calls or {}
        self.calls: list[str] = []
        self._info = SourceInfo(kind=kind, snapshot_date=date(2026, 8, 22) if kind == "catalog" else None)

    @property
    def info(self) -> SourceInfo:
        return self._info

    async def _record(self, call: str) -> None:
        self.calls.append(call)
        if self.log_path is not None:
            with open(self.log_path, "a", encoding="utf-8") as fh:
                fh.write(call + "\n")
        delay = self.slow_calls.get(call.split(" ", 1)[0], self.latency)
        if delay:
            await asyncio.sleep(delay)

    @staticmethod
    def describe(params: SearchParams) -> str:
        """One line per distinct query, as the call log records it."""
        extras = [f"{k}={v}" for k, v in (("language", params.language), ("stars>=", params.min_stars),
                                           ("pushed>", params.pushed_after), ("created>", params.created_after)) if v]
        return " ".join([params.text, *extras])

    async def search(self, params: SearchParams, *, sort: str = "stars", limit: int = 30) -> SearchResults:
        await self._record(f"search {self.describe(params)}")
        if self.fail_search:
            raise SourceUnavailable()
        if self.crash_search:
            raise RuntimeError("a bug in a source")
        words = [w.lower() for w in params.keywords + params.phrases + [t for g in params.synonym_groups for t in g]
                 if w.lower() not in ("alternative", "comparison")]
        found = []
        for repo in REPOS:
            hay = " ".join([repo.full_name, repo.description, *repo.topics]).lower()
            if words and not any(w in hay for w in words):
                continue
            if params.min_stars is not None and repo.stars < params.min_stars:
                continue
            if params.language and (repo.language or "").lower() != params.language:
                continue
            if params.pushed_after and repo.pushed_at and repo.pushed_at.date() < params.pushed_after:
                continue
            if params.created_after and repo.created_at and repo.created_at.date() < params.created_after:
                continue
            found.append(repo)
        key = (lambda r: r.pushed_at) if sort == "updated" else (lambda r: r.stars)
        return SearchResults(sorted(found, key=key, reverse=True)[:limit])

    async def get_repo(self, full_name: str) -> Repository:
        await self._record(f"repo {full_name}")
        for repo in REPOS:
            if repo.full_name == full_name:
                return repo
        raise RepoNotFound(full_name)

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        await self._record(f"signals {full_name}")
        return SIGNALS.get(full_name, RepoSignals(commits_90d=10))

    def knows_word(self, word: str) -> bool | None:
        return None

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        return None

    async def get_readme(self, full_name: str) -> str | None:
        await self._record(f"readme {full_name}")
        return f"# {full_name}\n\n{full_name} is a well documented project with examples and a getting started guide for new users."

    async def ping(self) -> None:
        """Nothing to reach: in process."""

    async def aclose(self) -> None:
        """Nothing to close: in process."""
