"""Where repository data comes from: live GitHub or the offline catalog, one contract."""

from __future__ import annotations

from datetime import date
from typing import Literal, Protocol

from core.models import Repository, RepoSignals, SearchParams, WireModel


class SourceInfo(WireModel):
    kind: Literal["github", "catalog"]
    snapshot_date: date | None = None  # the catalog's newest snapshot
    label: str = ""  # "GitHub (api.github.com)" / "offline snapshot of 2026-08-22"


class RepoSource(Protocol):
    """Repository data for the agents. Errors are ``core.errors.SourceError`` subclasses."""

    @property
    def info(self) -> SourceInfo: ...

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> list[Repository]:
        """Candidates for ``params``; ``sort`` is "stars" | "updated" | "best"."""
        ...

    async def get_repo(self, full_name: str) -> Repository:
        """One repository; raises RepoNotFound."""
        ...

    async def get_signals(self, full_name: str) -> RepoSignals:
        """Measured signals (releases, commits, community profile...); unknown fields stay None."""
        ...

    async def get_readme(self, full_name: str) -> str | None: ...
