"""The judged relevance set used by ``bench/search_quality.py`` stays well-formed."""

from __future__ import annotations

from bench.search_quality import load_judged
from core.catalog import Catalog


def test_relevance_set_is_judged_from_the_catalog() -> None:
    judged = load_judged()
    catalog = Catalog.load()
    assert len(judged) >= 40
    assert {j.split for j in judged} == {"dev", "blind"}
    assert sum(j.split == "blind" for j in judged) >= len(judged) // 4
    assert len({j.query for j in judged}) == len(judged)
    for j in judged:
        assert j.relevant, j.query
        assert not set(j.relevant) & set(j.irrelevant), j.query
        for name in (*j.relevant, *j.irrelevant):
            record = catalog.get(name)
            assert record is not None and record.full_name == name, (j.query, name)
