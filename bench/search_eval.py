"""Search quality on the FRESH BLIND judged sets, side by side with a plain embedding baseline.

    .venv/bin/python -m bench search_eval                  # the twenty-fifth fresh blind set (search_fresh25.jsonl)
    .venv/bin/python -m bench search_eval --set fresh24    # the twenty-fourth fresh blind set (search_fresh24.jsonl)
    .venv/bin/python -m bench search_eval --set fresh23    # the twenty-third fresh blind set (search_fresh23.jsonl)
    .venv/bin/python -m bench search_eval --set fresh22    # the twenty-second fresh blind set (search_fresh22.jsonl)
    .venv/bin/python -m bench search_eval --set fresh21    # the twenty-first fresh blind set (search_fresh21.jsonl)
    .venv/bin/python -m bench search_eval --set fresh20    # the twentieth fresh blind set (search_fresh20.jsonl)
    .venv/bin/python -m bench search_eval --set fresh19    # the nineteenth fresh blind set (search_fresh19.jsonl)
    .venv/bin/python -m bench search_eval --set fresh18    # the eighteenth fresh blind set (search_fresh18.jsonl)
    .venv/bin/python -m bench search_eval --set fresh17    # the seventeenth fresh blind set (search_fresh17.jsonl)
    .venv/bin/python -m bench search_eval --set fresh16    # the sixteenth fresh blind set (search_fresh16.jsonl)
    .venv/bin/python -m bench search_eval --set fresh15    # the fifteenth fresh blind set (search_fresh15.jsonl)
    .venv/bin/python -m bench search_eval --set fresh14    # the fourteenth fresh blind set (search_fresh14.jsonl)
    .venv/bin/python -m bench search_eval --set fresh13    # the thirteenth fresh blind set (search_fresh13.jsonl)
    .venv/bin/python -m bench search_eval --set fresh12    # the twelfth fresh blind set (search_fresh12.jsonl)
    .venv/bin/python -m bench search_eval --set fresh11    # the eleventh fresh blind set (search_fresh11.jsonl)
    .venv/bin/python -m bench search_eval --set fresh10    # the tenth fresh blind set (search_fresh10.jsonl)
    .venv/bin/python -m bench search_eval --set fresh9     # the ninth fresh blind set (search_fresh9.jsonl)
    .venv/bin/python -m bench search_eval --set fresh8     # the eighth fresh blind set (search_fresh8.jsonl)
    .venv/bin/python -m bench search_eval --set fresh7     # the seventh fresh blind set (search_fresh7.jsonl)
    .venv/bin/python -m bench search_eval --set fresh6     # the sixth fresh blind set (search_fresh6.jsonl)
    .venv/bin/python -m bench search_eval --set fresh5     # the fifth fresh blind set (search_fresh5.jsonl)
    .venv/bin/python -m bench search_eval --set fresh4     # the fourth fresh blind set (search_fresh4.jsonl)
    .venv/bin/python -m bench search_eval --set fresh3     # development: the third fresh set, diagnosed since
    .venv/bin/python -m bench search_eval --set fresh2     # the second fresh blind set (search_fresh2.jsonl)
    .venv/bin/python -m bench search_eval --set fresh      # the first fresh blind set (search_fresh.jsonl)
    .venv/bin/python -m bench search_eval --set heldout    # development: the former held-out set
    .venv/bin/python -m bench search_eval --set blind      # development: the former blind set
    .venv/bin/python -m bench search_eval --set dev        # development: the first development set
    .venv/bin/python -m bench search_eval --set dev5       # development: written to be diagnosed (100 conversational)
    .venv/bin/python -m bench search_eval --set dev6       # development: written to be diagnosed (50 no-match)
    .venv/bin/python -m bench search_eval --set dev7       # development: written to be diagnosed (60 no-match)
    .venv/bin/python -m bench search_eval --set dev8       # development: written to be diagnosed (60 no-match, 45 near a domain)
    .venv/bin/python -m bench search_eval --set dev9       # development: written to be diagnosed (60 no-match, 45 near a domain)
    .venv/bin/python -m bench search_eval --set dev10      # development: written to be diagnosed (60 list-only answers, 42 named languages)
    .venv/bin/python -m bench search_eval --set dev11      # development: written to be diagnosed (varied wording: constraints, platforms, typos)
    .venv/bin/python -m bench search_eval --set dev12      # development: written to be diagnosed (70 chat messages naming a stack)
    .venv/bin/python -m bench search_eval --set dev13      # development: written to be diagnosed (48 list-only answers, 26 no-match near a domain)
    .venv/bin/python -m bench search_eval --set dev14      # development: written to be diagnosed (45 list-only answers, 24 no-match near a domain)
    .venv/bin/python -m bench search_eval --set dev15      # development: written to be diagnosed (100 conversational, varied openers)
    .venv/bin/python -m bench search_eval --set dev16      # development: written to be diagnosed (details, negations, list-only)
    .venv/bin/python -m bench search_eval --set dev17      # development: written to be diagnosed (95 list-only answers)
    .venv/bin/python -m bench search_eval --set dev18      # development: written to be diagnosed (84 list-only answers)
    .venv/bin/python -m bench search_eval --set dev19      # development: written to be diagnosed (76 list-only answers)
    .venv/bin/python -m bench search_eval --set dev20      # development: written to be diagnosed (90 list-only answers)
    .venv/bin/python -m bench search_eval --set dev21      # development: written to be diagnosed (90 list-only answers)
    .venv/bin/python -m bench search_eval --set dev22      # development: written to be diagnosed (100 list-only answers)
    .venv/bin/python -m bench search_eval --set dev23      # development: written to be diagnosed (40 no-match)
    .venv/bin/python -m bench search_eval --set dev24      # development: written to be diagnosed (50 no-match, 25 naming a product)
    .venv/bin/python -m bench search_eval --set dev25      # development: written to be diagnosed (50 no-match, 40 tempting: clients of products)
    .venv/bin/python -m bench search_eval --set dev26      # development: written to be diagnosed (60 no-match: clients, formats, everyday trades)
    .venv/bin/python -m bench search_eval --set dev27      # development: written to be diagnosed (60 no-match: clients, niche variants, formats)
    .venv/bin/python -m bench search_eval --set dev28      # development: written to be diagnosed (28 applications in a named language, 60 no-match)
    .venv/bin/python -m bench search_eval --set dev29      # development: written to be diagnosed (49 list-only answers briefly described, 20 named by the product they replace)
    .venv/bin/python -m bench search_eval --set dev30      # development: written to be diagnosed (30 naming a framework, 20 offering a choice of two; 60 no-match)
    .venv/bin/python -m bench search_eval --show           # also each query's rank and top 5

"omg ask" runs every query as a new conversation through the same code as ``omg ask --json``
offline: ``bot.app.build_app`` with ``OMG_GITHUB=offline`` and the in-memory store, the message
handled by the bot service (classifier, coordinator, Search Team, synthesis); the reply's
``structured_data`` and text are read in process instead of printed as JSON.

The baseline is all-MiniLM-L6-v2 cosine similarity between the query and "name: description" of
every catalog repository, plus 0.2 x log(stars) (0 for repositories without measured stars), top
10. It has no notion of "nothing fits", so it never answers a no-match query honestly.

How many results a judged query lists is printed too: what does not fit is left out, so a list
may be shorter than ten.

A no-match query is answered honestly when the reply's structured_data is a repo_list with no
repositories and its text says that nothing fits. How many of the others got a list said to hold
only the closest matches, none a sure one (``ResultMeta.uncertain``), is printed beside it, and how
many judged queries got such a list: a hedge, not an honest answer. Each set was written before
the ranking it first reported on, by someone who never saw the ranking; once a set has been
diagnosed and tuned on, its figures are printed as DEVELOPMENT figures, and a fresh set takes its
place as the default.
The "needs not in dev" line leaves out queries whose expected repositories also answer a query of
the first development set (the closest to independent two sets get).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.app import build_app
from bot.testing import TestBackend
from core.catalog import Catalog
from core.models import RepoList, Reply

DATA = Path(__file__).resolve().parent / "data"
SETS = {
    "fresh25": DATA / "search_fresh25.jsonl",
    "fresh24": DATA / "search_fresh24.jsonl",
    "fresh23": DATA / "search_fresh23.jsonl",
    "fresh22": DATA / "search_fresh22.jsonl",
    "fresh21": DATA / "search_fresh21.jsonl",
    "fresh20": DATA / "search_fresh20.jsonl",
    "fresh19": DATA / "search_fresh19.jsonl",
    "fresh18": DATA / "search_fresh18.jsonl",
    "fresh17": DATA / "search_fresh17.jsonl",
    "fresh16": DATA / "search_fresh16.jsonl",
    "fresh15": DATA / "search_fresh15.jsonl",
    "fresh14": DATA / "search_fresh14.jsonl",
    "fresh13": DATA / "search_fresh13.jsonl",
    "fresh12": DATA / "search_fresh12.jsonl",
    "fresh11": DATA / "search_fresh11.jsonl",
    "fresh10": DATA / "search_fresh10.jsonl",
    "fresh9": DATA / "search_fresh9.jsonl",
    "fresh8": DATA / "search_fresh8.jsonl",
    "fresh7": DATA / "search_fresh7.jsonl",
    "fresh6": DATA / "search_fresh6.jsonl",
    "fresh5": DATA / "search_fresh5.jsonl",
    "fresh4": DATA / "search_fresh4.jsonl",
    "fresh3": DATA / "search_fresh3.jsonl",
    "fresh2": DATA / "search_fresh2.jsonl",
    "fresh": DATA / "search_fresh.jsonl",
    "heldout": DATA / "search_heldout.jsonl",
    "blind": DATA / "search_blind.jsonl",
    "dev": DATA / "search_dev.jsonl",
    "dev5": DATA / "search_dev5.jsonl",
    "dev6": DATA / "search_dev6.jsonl",
    "dev7": DATA / "search_dev7.jsonl",
    "dev8": DATA / "search_dev8.jsonl",
    "dev9": DATA / "search_dev9.jsonl",
    "dev10": DATA / "search_dev10.jsonl",
    "dev11": DATA / "search_dev11.jsonl",
    "dev12": DATA / "search_dev12.jsonl",
    "dev13": DATA / "search_dev13.jsonl",
    "dev14": DATA / "search_dev14.jsonl",
    "dev15": DATA / "search_dev15.jsonl",
    "dev16": DATA / "search_dev16.jsonl",
    "dev17": DATA / "search_dev17.jsonl",
    "dev18": DATA / "search_dev18.jsonl",
    "dev19": DATA / "search_dev19.jsonl",
    "dev20": DATA / "search_dev20.jsonl",
    "dev21": DATA / "search_dev21.jsonl",
    "dev22": DATA / "search_dev22.jsonl",
    "dev23": DATA / "search_dev23.jsonl",
    "dev24": DATA / "search_dev24.jsonl",
    "dev25": DATA / "search_dev25.jsonl",
    "dev26": DATA / "search_dev26.jsonl",
    "dev27": DATA / "search_dev27.jsonl",
    "dev28": DATA / "search_dev28.jsonl",
    "dev29": DATA / "search_dev29.jsonl",
    "dev30": DATA / "search_dev30.jsonl",
}
LABELS = {
    "fresh25": "FRESH25 BLIND set (written 2026-11-29 from the raw catalog data alone, never tuned on)",
    "fresh24": "FRESH24 BLIND set (written 2026-11-29 from the raw catalog data alone, never tuned on)",
    "fresh23": "FRESH23 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh22": "FRESH22 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh21": "FRESH21 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh20": "FRESH20 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh19": "FRESH19 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh18": "FRESH18 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh17": "FRESH17 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh16": "FRESH16 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh15": "FRESH15 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh14": "FRESH14 BLIND set (written 2026-11-28 from the raw catalog data alone, never tuned on)",
    "fresh13": "FRESH13 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh12": "FRESH12 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh11": "FRESH11 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh10": "FRESH10 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh9": "FRESH9 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh8": "FRESH8 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh7": "FRESH7 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh6": "FRESH6 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh5": "FRESH5 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh4": "FRESH4 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh3": "FORMER FRESH3 BLIND set (diagnosed and tuned on since: a DEVELOPMENT figure)",
    "fresh2": "FRESH2 BLIND set (written 2026-11-27 from the raw catalog data alone, never tuned on)",
    "fresh": "FRESH BLIND set (written 2026-11-26 without seeing the ranking, never tuned on)",
    "heldout": "FORMER HELD-OUT set (reported once, then diagnosed and tuned on: a DEVELOPMENT figure)",
    "blind": "FORMER BLIND set (diagnosed and tuned on since: a DEVELOPMENT figure)",
    "dev": "DEVELOPMENT set (the ranking was tuned on it)",
    "dev5": "DEV5 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev6": "DEV6 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev7": "DEV7 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev8": "DEV8 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev9": "DEV9 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev10": "DEV10 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev11": "DEV11 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev12": "DEV12 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev13": "DEV13 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev14": "DEV14 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev15": "DEV15 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev16": "DEV16 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev17": "DEV17 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev18": "DEV18 DEVELOPMENT set (written 2026-11-27 from the raw catalog data alone, to diagnose and tune on)",
    "dev19": "DEV19 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev20": "DEV20 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev21": "DEV21 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev22": "DEV22 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev23": "DEV23 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev24": "DEV24 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev25": "DEV25 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev26": "DEV26 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev27": "DEV27 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev28": "DEV28 DEVELOPMENT set (written 2026-11-28 from the raw catalog data alone, to diagnose and tune on)",
    "dev29": "DEV29 DEVELOPMENT set (written 2026-11-29 from the raw catalog data alone, to diagnose and tune on)",
    "dev30": "DEV30 DEVELOPMENT set (written 2026-11-29 from the raw catalog data alone, to diagnose and tune on)",
}
CACHE = Path.home() / ".cache" / "omg-bench"
NOTHING_FITS = re.compile(
    r"\b(nothing|no (?:repositor|result|project|match)|none of|couldn't find|could not find|didn't find|"
    r"did not find|found no)\w*", re.I
)


@dataclass(frozen=True, slots=True)
class JudgedQuery:
    query: str
    expected: tuple[str, ...]
    style: str  # "conversational" | "descriptive" (dev: "keyword") | "no_match"


def load(name: str) -> list[JudgedQuery]:
    rows = [json.loads(line) for line in SETS[name].read_text(encoding="utf-8").splitlines() if line.strip()]
    return [JudgedQuery(r["query"], tuple(r["expected"]), r["style"]) for r in rows if "query" in r]


def first_hit(names: list[str], expected: tuple[str, ...]) -> int | None:
    wanted = {e.lower() for e in expected}
    return next((rank for rank, name in enumerate(names, 1) if name.lower() in wanted), None)


def honest_no_match(reply: Reply) -> bool:
    data = reply.structured_data
    return isinstance(data, RepoList) and not data.items and bool(NOTHING_FITS.search(reply.markdown))


def hedged(reply: Reply) -> bool:
    """A list said to hold only the closest matches, none a sure one (``ResultMeta.uncertain``)."""
    data = reply.structured_data
    return isinstance(data, RepoList) and bool(data.items) and bool(data.meta and data.meta.uncertain)


async def ask_all(queries: list[JudgedQuery]) -> tuple[list[list[str]], list[bool], list[float], list[bool]]:
    """Each query's listed names, whether it was answered with a plain no, its latency, and whether
    its list was said to hold no sure match."""
    app = await build_app(env={"OMG_GITHUB": "offline"}, memory=True)
    names: list[list[str]] = []
    honest: list[bool] = []
    latencies: list[float] = []
    hedges: list[bool] = []
    try:
        for i, q in enumerate(queries):
            bot = TestBackend(app, thread=f"eval-{i}")
            started = time.perf_counter()
            reply = await bot.ask(q.query)
            latencies.append((time.perf_counter() - started) * 1000)
            data = reply.structured_data
            names.append([item.full_name for item in data.items] if isinstance(data, RepoList) else [])
            honest.append(honest_no_match(reply))
            hedges.append(hedged(reply))
    finally:
        await app.aclose()
    return names, honest, latencies, hedges


def baseline_vectors(catalog: Catalog) -> np.ndarray:
    from core.search.embedding import default_encoder

    texts = [f"{r.full_name.split('/', 1)[1]}: {r.description}" for r in catalog.records]
    key = hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()[:16]
    path = CACHE / f"baseline-minilm-{key}.npy"
    if path.is_file():
        return np.load(path)
    started = time.perf_counter()
    vectors = default_encoder().encode(texts).astype(np.float32)
    print(f"  (baseline: encoded {len(texts):,} catalog texts in {time.perf_counter() - started:.0f} s; cached)")
    CACHE.mkdir(parents=True, exist_ok=True)
    np.save(path, vectors)
    return vectors


def baseline(queries: list[JudgedQuery], catalog: Catalog) -> list[list[str]]:
    from core.search.embedding import default_encoder

    vectors = baseline_vectors(catalog)
    popularity = np.array([0.2 * math.log(r.stars) if r.figures_known and r.stars > 0 else 0.0
                           for r in catalog.records], dtype=np.float32)
    found = default_encoder().encode([q.query for q in queries])
    out = []
    for row in found:
        scores = vectors @ row + popularity
        top = np.argsort(-scores)[:10]
        out.append([catalog.records[i].full_name for i in top])
    return out


def figures(queries: list[JudgedQuery], results: list[list[str]], keep: set[int]) -> dict[str, float]:
    ranks = [first_hit(results[i], queries[i].expected) for i in sorted(keep)]
    n = max(1, len(ranks))
    return {
        "n": len(ranks),
        "hit@5": sum(1 for k in ranks if k and k <= 5) / n,
        "hit@10": sum(1 for k in ranks if k and k <= 10) / n,
        "MRR": sum(1 / k for k in ranks if k) / n,
    }


def subsets(queries: list[JudgedQuery], name: str) -> list[tuple[str, set[int]]]:
    judged = {i for i, q in enumerate(queries) if q.expected}
    out = [("all judged", judged)]
    for style in sorted({q.style for q in queries if q.expected}):
        out.append((style, {i for i in judged if queries[i].style == style}))
    if name != "dev" and SETS["dev"].is_file():
        dev_needs = {e.lower() for q in load("dev") for e in q.expected}
        out.append(("needs not in dev", {i for i in judged if not {e.lower() for e in queries[i].expected} & dev_needs}))
    return out


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    name = argv[argv.index("--set") + 1] if "--set" in argv else "fresh25"
    if name not in SETS:
        print(f"unknown set {name!r}; choose one of: {', '.join(SETS)}")
        return
    queries = load(name)
    print(f"{LABELS[name]}: {SETS[name].name}, {len(queries)} queries")
    catalog = Catalog.load()
    ours, honest, latencies, hedges = asyncio.run(ask_all(queries))
    for title, keep in subsets(queries, name):  # first, in case the baseline's encoding is cut short
        a = figures(queries, ours, keep)
        print(f"  omg ask  {title:18s} n={a['n']:3d}  hit@5 {a['hit@5']:.3f}  hit@10 {a['hit@10']:.3f}  MRR {a['MRR']:.3f}",
              flush=True)
    theirs = baseline(queries, catalog)
    print(f"  {'subset':18s} {'n':>4s}   {'omg ask: hit@5 hit@10   MRR':>28s}   {'baseline: hit@5 hit@10   MRR':>29s}")
    for title, keep in subsets(queries, name):
        a, b = figures(queries, ours, keep), figures(queries, theirs, keep)
        print(f"  {title:18s} {a['n']:4d}   {a['hit@5']:14.3f} {a['hit@10']:6.3f} {a['MRR']:5.3f}"
              f"   {b['hit@5']:15.3f} {b['hit@10']:6.3f} {b['MRR']:5.3f}")
    no_match = [i for i, q in enumerate(queries) if not q.expected]
    fair = sum(honest[i] for i in no_match)
    print(f"  honest no-match    {len(no_match):4d}   {fair}/{len(no_match)} = {fair / max(1, len(no_match)):.3f}"
          f"{'':14s}0/{len(no_match)} = 0.000 (always lists ten)")
    padded = [i for i in no_match if not honest[i]]
    print(f"  no-match answered with a list: {len(padded)}, of which said to hold no sure match: "
          f"{sum(hedges[i] for i in padded)}; judged queries whose list was said so: "
          f"{sum(hedges[i] for i, q in enumerate(queries) if q.expected)}/{sum(1 for q in queries if q.expected)}")
    listed = [len(ours[i]) for i, q in enumerate(queries) if q.expected]
    print(f"  results listed per judged query: mean {sum(listed) / max(1, len(listed)):.1f}, "
          f"fewer than ten for {sum(n < 10 for n in listed)}/{len(listed)} (what does not fit is left out)")
    ordered = sorted(latencies)
    print(f"  omg ask per query (in process, offline): p50 {ordered[len(ordered) // 2]:.0f} ms, "
          f"p95 {ordered[int(len(ordered) * 0.95)]:.0f} ms")
    if "--show" in argv:
        for q, mine, base, fair_reply in zip(queries, ours, theirs, honest):
            rank = first_hit(mine, q.expected) if q.expected else ("honest" if fair_reply else "padded")
            brank = first_hit(base, q.expected) if q.expected else "-"
            print(f"  [{rank or '-'} | base {brank or '-'}] {q.query} -> {', '.join(mine[:5]) or '(nothing)'}")


if __name__ == "__main__":
    main()
