"""Where repository data comes from: live GitHub or the offline catalog, one contract."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Literal, Protocol, runtime_checkable

from core.models import Repository, RepoSignals, SearchParams, WireModel

SignalDepth = Literal["light", "full"]
"""How many calls ``get_signals`` may spend: "light" (the few cheap ones that feed scoring best,
for search candidates) or "full" (everything, for analyze and compare)."""


class SourceInfo(WireModel):
    kind: Literal["github", "catalog"]
    snapshot_date: date | None = None  # the catalog's newest snapshot
    label: str = ""  # "GitHub (api.github.com)" / "offline snapshot of 2026-08-22"
    # API calls allowed per hour (GitHub: 60 without a token, 5,000 with one); None: no known limit
    calls_per_hour: int | None = None
    # several concurrent searches cost one call (GitHub over GraphQL): the Scout widens in one round
    batched_search: bool = False


class SearchResults(list[Repository]):
    """What ``search`` returns: a list of repositories, plus whether the source says the list may
    be incomplete (GitHub's ``incomplete_results``: the search timed out on its side). A source
    that cannot tell returns ``incomplete=False``, the default."""

    def __init__(self, repos: Iterable[Repository] = (), *, incomplete: bool = False) -> None:
        super().__init__(repos)
        self.incomplete = incomplete


class RepoSource(Protocol):
    """Repository data for the agents. Errors are ``core.errors.SourceError`` subclasses."""

    @property
    def info(self) -> SourceInfo: ...

    async def search(
        self, params: SearchParams, *, sort: str = "stars", limit: int = 30
    ) -> SearchResults:
        """Candidates for ``params``; ``sort`` is "stars" | "updated" | "best"."""
        ...

    async def get_repo(self, full_name: str) -> Repository:
        """One repository; raises RepoNotFound."""
        ...

    async def get_signals(self, full_name: str, *, depth: SignalDepth = "full") -> RepoSignals:
        """Measured signals (releases, commits, community profile...); unknown fields stay None.
        ``depth="light"`` measures fewer of them (a source may measure more, never invent)."""
        ...

    async def get_readme(self, full_name: str) -> str | None: ...

    def knows_word(self, word: str) -> bool | None:
        """Whether the source's repository texts use ``word`` at all (a request naming a concept
        no repository mentions fits nothing); None when the source cannot tell (GitHub)."""
        ...

    def word_users(self, word: str, most: int) -> frozenset[str] | None:
        """The full names of the repositories whose text uses ``word``, when ``most`` or fewer
        do (a rare word: "HL7", "libphonenumber"); None when more do, or the source cannot tell
        (GitHub)."""
        ...

    async def ping(self) -> None:
        """One cheap call to whatever the source reaches over the network; raises
        ``SourceUnavailable`` when it cannot be reached (other ``SourceError``s mean it answered).
        A source with nothing to reach (the offline catalog) returns at once."""
        ...

    async def aclose(self) -> None:
        """Release what the source holds (connections); a source holding nothing does nothing."""
        ...


@runtime_checkable
class NamedSearch(Protocol):
    """A source that can answer ``SearchTeam``'s name lookup itself, more cheaply than a search."""

    async def find_named(self, name: str, *, limit: int = 10) -> Repository | None:
        """The first repository called ``name`` (any case) in what ``search(SearchParams(text=name,
        keywords=[name]), sort="stars", limit=limit)`` returns; None when there is none."""
        ...
