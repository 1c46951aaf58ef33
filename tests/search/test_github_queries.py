"""Every search the Scout builds for the judged queries is one GitHub accepts (length, operators)."""

from __future__ import annotations

from bench.search_quality import load_judged
from core.github.query import MAX_OPERATORS, build_query
from core.search.scout import related_only, relaxation_steps, split_words, strategies, widened, without_related
from core.search.translator import RuleBasedTranslator
from tests.fakes.github_query import parse


def test_strategies_and_widening_make_queries_github_accepts() -> None:
    rules = RuleBasedTranslator()
    for judged in load_judged():
        params = rules.translate_sync(judged.query)
        variants = [s.params for s in strategies(params)]
        variants += [widened(change(params)) for _, change in relaxation_steps(params)] + [related_only(params)]
        loose = split_words(without_related(params))
        variants += [loose] if loose is not None else []
        for variant in variants:
            q = build_query(variant)
            assert len(q) <= 256 and sum(t in {"AND", "OR", "NOT"} for t in q.split()) <= MAX_OPERATORS, q
            parse(q)  # the fake refuses what GitHub refuses
