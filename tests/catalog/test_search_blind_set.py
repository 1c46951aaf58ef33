"""The blind judged search set (``bench/data/search_blind.jsonl``) stays well-formed against the
catalog. It only checks the set's shape; nothing is tuned on it."""

from __future__ import annotations

from bench.search_eval import NOTHING_FITS, load
from core.catalog import Catalog


def test_blind_set_shape_and_every_expected_repository_is_in_the_catalog() -> None:
    queries = load("blind")
    catalog = Catalog.load()
    judged = [q for q in queries if q.expected]
    assert len(judged) >= 80
    assert sum(q.style == "conversational" for q in judged) >= 0.45 * len(judged)
    assert sum(q.style == "no_match" and not q.expected for q in queries) >= 10
    assert len({q.query.lower() for q in queries}) == len(queries)
    for q in judged:
        for name in q.expected:
            record = catalog.get(name)
            assert record is not None and record.full_name == name, (q.query, name)


def test_the_honest_no_match_wording_is_recognised() -> None:
    assert NOTHING_FITS.search("Nothing in the offline catalog fits that.")
    assert NOTHING_FITS.search("I couldn't find any repository for that")
    assert not NOTHING_FITS.search("I found 10 repositories for knitting")
