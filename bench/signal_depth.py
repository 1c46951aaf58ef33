"""How much ranking quality the cheaper search signals cost: light vs full, fewer candidates, none.

    .venv/bin/python -m bench signal_depth

For each query the Search Team runs against the fake GitHub (no latency, a token) with the
signals it used to fetch (``full`` for the 12 best candidates of the coarse cut: the reference)
and with cheaper variants; each variant's top 10 is compared with the reference's: the share of
the reference's top 10/5/3 it keeps, how often the winner is the same, and Kendall's tau over
the repositories both lists show. The calls are the most one cold turn made.

Caveat: the fake world derives commits, contributors and response times from each repository's
real stars and last push, so a signal that is a function of those adds little *here*; the
figures say how stable the ranking is, not which signal is most informative on real GitHub.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
from dataclasses import dataclass

from core.agents.base import AgentContext
from core.agents.search import SearchTeam
from core.github import GitHubClient, GitHubSettings, GitHubSource
from core.github.signals import LIGHT_SIGNALS
from core.models import Classification, CollectingSink, Conversation, ConversationKey, Intent, RepoList
from core.sources.base import SignalDepth
from tests.fakes.github import FakeGitHub

QUERIES = [
    "find react state management libraries", "python web frameworks", "rust command line tools",
    "javascript testing frameworks", "go http router", "machine learning libraries in python",
    "static site generator", "css framework", "database orm", "http client", "markdown editor",
    "kubernetes tools", "deep learning framework", "terminal emulator", "game engine",
    "data visualization javascript", "web scraping python", "vue ui components", "logging library",
    "image processing", "password manager", "note taking app", "vector database", "json parser",
]


@dataclass(frozen=True, slots=True)
class Variant:
    label: str
    depth: SignalDepth
    top: int
    light: tuple[str, ...] = LIGHT_SIGNALS
    readme: bool = True


REFERENCE = Variant("full signals, 12 candidates (before)", "full", 12)
VARIANTS = [
    Variant("light: releases+commits90+README, 12 (chosen)", "light", 12),
    Variant("light: releases+commits90+README, 10", "light", 10),
    Variant("light: releases+community+README, 12", "light", 12, ("releases", "community", "readme")),
    Variant("light: releases+commits90+community, 12, no README", "light", 12,
            ("releases", "commits_90d", "community"), readme=False),
    Variant("light: the brief's 3 + README, 12", "light", 12,
            ("releases", "commits_90d", "community", "readme")),
    Variant("nothing per candidate, 12 (anonymous)", "light", 12, (), readme=False),
]
TOKEN = "bench-token"


def _context(query: str) -> AgentContext:
    return AgentContext(
        message=query, classification=Classification(intent=Intent.SEARCH, confidence=0.99),
        conversation=Conversation(id="b", key=ConversationKey(platform="bench", channel="c", thread="t")),
        previous=None, progress=CollectingSink())


async def _top10(gh: FakeGitHub, query: str, variant: Variant) -> tuple[list[str], int]:
    client = GitHubClient(GitHubSettings.from_env(gh.env()))
    team = SearchTeam(GitHubSource(client, light_signals=variant.light), score_top=variant.top)
    team.screener.depth = variant.depth
    team.screener.fetch_readme = variant.readme
    before = len(gh.calls)
    result = await team.run(_context(query))
    await client.aclose()
    assert isinstance(result.data, RepoList)
    return [item.full_name for item in result.data.items], len(gh.calls) - before


def kendall_tau(reference: list[str], other: list[str]) -> float:
    common = [name for name in reference if name in other]
    pairs = list(itertools.combinations(common, 2))
    if not pairs:
        return 1.0
    agree = sum(1 for a, b in pairs
                if (reference.index(a) - reference.index(b)) * (other.index(a) - other.index(b)) > 0)
    return (2 * agree - len(pairs)) / len(pairs)


def _kept(reference: list[str], other: list[str], k: int) -> float:
    return len(set(reference[:k]) & set(other[:k])) / max(1, min(k, len(reference)))


async def _run() -> None:
    async with FakeGitHub(token=TOKEN, search_budget=10**7, core_budget=10**7) as gh:
        reference = {q: (await _top10(gh, q, REFERENCE)) for q in QUERIES}
        ref_calls = max(calls for _, calls in reference.values())
        print(f"  {len(QUERIES)} queries; reference: {REFERENCE.label}, up to {ref_calls} calls a turn")
        print(f"  {'variant':<52} {'calls':>5} {'top10':>6} {'top5':>5} {'top3':>5} {'same#1':>6} {'tau':>5}")
        for variant in VARIANTS:
            rows = []
            for query in QUERIES:
                got, calls = await _top10(gh, query, variant)
                ref = reference[query][0]
                rows.append((calls, _kept(ref, got, 10), _kept(ref, got, 5), _kept(ref, got, 3),
                             float(got[:1] == ref[:1]), kendall_tau(ref, got)))
            calls = max(r[0] for r in rows)
            means = [statistics.mean(r[i] for r in rows) for i in range(1, 6)]
            print(f"  {variant.label:<52} {calls:>5} " + " ".join(
                f"{m:>{w}.2f}" for m, w in zip(means, (6, 5, 5, 6, 5))))


def main() -> None:
    asyncio.run(_run())


if __name__ == "__main__":
    main()
