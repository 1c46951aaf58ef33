"""Search result quality against a judged query set (relevance, not speed).

    .venv/bin/python -m bench search_quality            # offline catalog + fake live GitHub
    .venv/bin/python -m bench.search_quality --offline  # catalog only
    .venv/bin/python -m bench.search_quality --show     # also print each query's top 5

The judged set is ``tests/search/data/relevance.jsonl``: realistic search requests, each with the
repositories of the packaged catalog that SHOULD come up (``relevant``, judged from the catalog's
names and descriptions) and results that are clearly off-topic for it (``irrelevant``). About a
third of the queries are marked ``blind``: they were held out while the scoring was tuned, so
their figures show whether an improvement generalises. Metrics per split (means over queries):

- P@5: share of the top 5 that is judged relevant; "P@5 (achievable)" divides by
  min(5, number of relevant repos) instead, so a query with two relevant repos can reach 1.0;
- R@10: share of the judged relevant repos found in the top 10;
- MRR: 1 / rank of the first relevant result (0 when none is in the top 10);
- off-topic@5: judged-irrelevant results in the top 5 (total over the split, and queries with any);
- unjudged@5: results in the top 5 judged neither way (the judgments may need extending).

The live path runs the same Search Team against ``tests.fakes.github.FakeGitHub`` (no latency,
with a token): its world is the same snapshot, with topics and READMEs derived from the
descriptions, and GitHub's own search semantics (terms ANDed, ``OR`` between alternatives).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from core.agents.base import AgentContext
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.models import Classification, Conversation, ConversationKey, Intent, RepoList
from core.sources.base import RepoSource

DATA = Path(__file__).resolve().parent.parent / "tests" / "search" / "data" / "relevance.jsonl"
TOKEN = "quality-token"


@dataclass(frozen=True, slots=True)
class Judged:
    query: str
    split: str
    relevant: tuple[str, ...]
    irrelevant: tuple[str, ...]


@dataclass(slots=True)
class Outcome:
    judged: Judged
    names: list[str]

    def _rel(self) -> set[str]:
        return {n.lower() for n in self.judged.relevant}

    @property
    def p5(self) -> float:
        return sum(n.lower() in self._rel() for n in self.names[:5]) / 5

    @property
    def p5_achievable(self) -> float:
        return sum(n.lower() in self._rel() for n in self.names[:5]) / min(5, len(self.judged.relevant))

    @property
    def r10(self) -> float:
        return sum(n.lower() in self._rel() for n in self.names[:10]) / len(self.judged.relevant)

    @property
    def rr(self) -> float:
        rel = self._rel()
        return next((1 / (i + 1) for i, n in enumerate(self.names[:10]) if n.lower() in rel), 0.0)

    @property
    def off_topic(self) -> int:
        irr = {n.lower() for n in self.judged.irrelevant}
        return sum(n.lower() in irr for n in self.names[:5])

    @property
    def unjudged(self) -> list[str]:
        known = self._rel() | {n.lower() for n in self.judged.irrelevant}
        return [n for n in self.names[:5] if n.lower() not in known]


@dataclass(slots=True)
class Summary:
    label: str
    outcomes: list[Outcome] = field(default_factory=list)

    def line(self) -> str:
        o = self.outcomes
        if not o:
            return f"  {self.label:<14} (no queries)"
        off = sum(x.off_topic for x in o)
        return (
            f"  {self.label:<14} n={len(o):>2}  P@5 {statistics.mean(x.p5 for x in o):.3f}"
            f"  P@5(ach) {statistics.mean(x.p5_achievable for x in o):.3f}"
            f"  R@10 {statistics.mean(x.r10 for x in o):.3f}  MRR {statistics.mean(x.rr for x in o):.3f}"
            f"  off-topic@5 {off:>3} ({sum(x.off_topic > 0 for x in o)} queries)"
            f"  unjudged@5 {sum(len(x.unjudged) for x in o):>3}"
        )


def load_judged(path: Path = DATA) -> list[Judged]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Judged(r["query"], r["split"], tuple(r["relevant"]), tuple(r["irrelevant"])) for r in rows]


def _ctx(message: str) -> AgentContext:
    return AgentContext(
        message=message,
        classification=Classification(intent=Intent.SEARCH, confidence=1.0),
        conversation=Conversation(id="quality", key=ConversationKey(platform="bench", channel="c", thread="t")),
    )


async def run_queries(source: RepoSource, judged: list[Judged]) -> list[Outcome]:
    team = SearchTeam(source)
    outcomes = []
    for j in judged:
        result = await team.run(_ctx(j.query))
        assert isinstance(result.data, RepoList)
        outcomes.append(Outcome(j, [item.full_name for item in result.data.items]))
    return outcomes


def report(title: str, outcomes: list[Outcome], *, show: bool = False) -> None:
    print(f"  -- {title} --")
    for split in ("dev", "blind"):
        print(Summary(split, [o for o in outcomes if o.judged.split == split]).line())
    print(Summary("all", outcomes).line())
    if show:
        for o in outcomes:
            marks = []
            for n in o.names[:5]:
                low = n.lower()
                mark = "+" if low in o._rel() else "-" if low in {x.lower() for x in o.judged.irrelevant} else "?"
                marks.append(f"{mark}{n}")
            print(f"    [{o.judged.split}] {o.judged.query!r}: " + ", ".join(marks))


async def _live(catalog: Catalog, judged: list[Judged]) -> list[Outcome]:
    from core.github import build_source
    from tests.fakes.github import FakeGitHub

    async with FakeGitHub(token=TOKEN, search_budget=100_000) as gh:
        source = build_source(gh.env(), catalog.source())
        try:
            return await run_queries(source, judged)
        finally:
            await source.aclose()


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    show = "--show" in args
    catalog = Catalog.load()
    judged = load_judged()
    print(f"  judged queries: {len(judged)} ({sum(j.split == 'blind' for j in judged)} blind), {DATA.name}")
    report("offline catalog", asyncio.run(run_queries(catalog.source(), judged)), show=show)
    if "--offline" not in args:
        report("live path (fake GitHub, token)", asyncio.run(_live(catalog, judged)), show=show)


if __name__ == "__main__":
    main()
