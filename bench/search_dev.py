"""Search ranking on the DEVELOPMENT set (``bench/data/search_dev.jsonl``) -- the set the ranking
was tuned on, so its figures are development figures, not an independent measurement.

    .venv/bin/python -m bench search_dev          # hit@5, hit@10, MRR, honest no-match rate
    .venv/bin/python -m bench.search_dev --show   # also each query's top 5

The Search Team answers offline from the packaged catalog, as ``omg ask`` does without network.
A no-match query is answered honestly when the reply lists no repository at all.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from core.agents.base import AgentContext
from core.agents.search import SearchTeam
from core.catalog import Catalog
from core.models import Classification, Conversation, ConversationKey, Intent, RepoList

DATA = Path(__file__).resolve().parent / "data" / "search_dev.jsonl"


@dataclass(frozen=True, slots=True)
class DevQuery:
    query: str
    expected: tuple[str, ...]
    style: str  # "conversational" | "keyword" | "no_match"


def load(path: Path = DATA) -> list[DevQuery]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [DevQuery(r["query"], tuple(r["expected"]), r["style"]) for r in rows]


def first_hit(names: list[str], expected: tuple[str, ...]) -> int | None:
    wanted = {e.lower() for e in expected}
    return next((rank for rank, name in enumerate(names, 1) if name.lower() in wanted), None)


async def answers(queries: list[DevQuery]) -> list[list[str]]:
    team = SearchTeam(Catalog.load().source())
    out = []
    for q in queries:
        ctx = AgentContext(
            message=q.query,
            classification=Classification(intent=Intent.SEARCH, confidence=1.0),
            conversation=Conversation(id="dev", key=ConversationKey(platform="bench", channel="c", thread="t")),
        )
        result = await team.run(ctx)
        assert isinstance(result.data, RepoList)
        out.append([item.full_name for item in result.data.items])
    return out


def figures(queries: list[DevQuery], results: list[list[str]], style: str | None = None) -> dict[str, float]:
    pairs = [(q, r) for q, r in zip(queries, results) if q.expected and (style is None or q.style == style)]
    ranks = [first_hit(r, q.expected) for q, r in pairs]
    n = max(1, len(pairs))
    return {
        "queries": len(pairs),
        "hit@5": sum(1 for k in ranks if k and k <= 5) / n,
        "hit@10": sum(1 for k in ranks if k and k <= 10) / n,
        "MRR": sum(1 / k for k in ranks if k) / n,
    }


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    queries = load()
    results = asyncio.run(answers(queries))
    print("DEVELOPMENT figures (tuned on this set):")
    for label, style in (("all", None), ("conversational", "conversational"), ("keyword", "keyword")):
        f = figures(queries, results, style)
        print(f"  {label:15s} n={f['queries']:3d}  hit@5 {f['hit@5']:.3f}  hit@10 {f['hit@10']:.3f}  MRR {f['MRR']:.3f}")
    no_match = [(q, r) for q, r in zip(queries, results) if not q.expected]
    honest = sum(1 for _, r in no_match if not r)
    print(f"  no-match answered honestly: {honest}/{len(no_match)}")
    if "--show" in argv:
        for q, r in zip(queries, results):
            rank = first_hit(r, q.expected)
            print(f"[{rank or '-'}] {q.query} -> {', '.join(r[:5]) or '(nothing)'}")


if __name__ == "__main__":
    main()
