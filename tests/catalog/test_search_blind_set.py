"""The judged search sets of ``bench/data`` (the fresh blind sets ``search_fresh25.jsonl`` back to
``search_fresh.jsonl``, the former held-out and blind sets, and the development sets
``search_dev6.jsonl`` to ``search_dev30.jsonl``, but dev26, a third of whose judged queries are
conversational) stay well-formed against the catalog. Only their
shape is checked here; nothing is tuned on the fresh ones."""

from __future__ import annotations

import pytest

from bench.search_eval import NOTHING_FITS, load
from core.catalog import Catalog


@pytest.mark.parametrize("name", [
    "fresh25", "fresh24", "fresh23", "fresh22", "fresh21", "fresh20", "fresh19", "fresh18", "fresh17", "fresh16", "fresh15", "fresh14", "fresh13", "fresh12", "fresh11", "fresh10", "fresh9", "fresh8", "fresh7", "fresh6", "fresh5", "fresh4", "fresh2", "fresh",
    "heldout", "blind", "dev6", "dev7", "dev8", "dev9", "dev10", "dev11", "dev12", "dev13", "dev14", "dev15", "dev16", "dev17", "dev18", "dev19", "dev20", "dev21", "dev22", "dev23", "dev24", "dev25", "dev27", "dev28", "dev29", "dev30",
])
def test_judged_set_shape_and_every_query_has_an_answer_in_the_catalog(name: str) -> None:
    queries = load(name)
    catalog = Catalog.load()
    judged = [q for q in queries if q.expected]
    assert len(judged) >= 80
    assert sum(q.style == "conversational" for q in judged) >= 0.45 * len(judged)
    assert sum(q.style == "no_match" and not q.expected for q in queries) >= 10
    assert len({q.query.lower() for q in queries}) == len(queries)
    for q in judged:  # any one expected repository counts as a hit; one at least is in the catalog
        assert any(catalog.get(name) is not None for name in q.expected), q.query


def test_the_honest_no_match_wording_is_recognised() -> None:
    assert NOTHING_FITS.search("Nothing in the offline catalog fits that.")
    assert NOTHING_FITS.search("I couldn't find any repository for that")
    assert not NOTHING_FITS.search("I found 10 repositories for knitting")
