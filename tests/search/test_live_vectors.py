"""Live candidates' vectors: encoded off the event loop before ranking, then found by it."""

from __future__ import annotations

import asyncio
import uuid

import numpy as np

from core.catalog.catalog import Catalog
from core.models import Repository
from core.search import fit
from core.search.embedding import default_encoder
from core.search.semantic import repository_text
from tests.fakes.search_source import repo


def _live(count: int) -> list[Repository]:
    tag = uuid.uuid4().hex[:8]  # texts no earlier test encoded
    return [repo(f"owner{i}/tool-{tag}-{i}", 100 + i, f"A command line tool number {i} ({tag}) for text",
                 topics=["cli", "text"]) for i in range(count)]


async def test_candidates_are_encoded_while_the_event_loop_runs_other_work() -> None:
    repos = _live(40)
    turns = 0

    async def other_conversation() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    other = asyncio.create_task(other_conversation())
    await asyncio.sleep(0)
    before = turns
    await fit.prepare_vectors(repos)
    other.cancel()
    assert turns > before + 1  # a synchronous encode would have held the loop until it was done


async def test_ranking_finds_the_prepared_vectors_and_they_are_the_encoders() -> None:
    repos = _live(5)
    texts = [repository_text(r.full_name, r.description, r.topics) for r in repos]
    await fit.prepare_vectors(repos)
    assert all(text in fit._ENCODED for text in texts)
    vectors = fit.repository_vectors(repos)
    assert np.allclose(vectors, default_encoder().encode(texts), atol=1e-6)


async def test_catalog_rows_unchanged_use_their_shipped_vectors_and_encode_nothing() -> None:
    catalog = Catalog.load()
    record = next(r for r in catalog.records if r.description and catalog.vector(r.full_name, r.description) is not None)
    shipped = repo(record.full_name, 1000, record.description)
    cached = len(fit._ENCODED)
    await fit.prepare_vectors([shipped])
    assert len(fit._ENCODED) == cached
    assert np.array_equal(fit.repository_vectors([shipped])[0], catalog.vector(record.full_name, record.description))


def test_the_texts_kept_encoded_are_the_latest_few_thousand() -> None:
    kept = dict(fit._ENCODED)
    try:
        fit._ENCODED.clear()
        for index in range(fit._ENCODED_MAX + 10):
            fit._ENCODED[f"text {index}"] = np.zeros(1, dtype=np.float32)
        fit._forget_oldest()
        assert len(fit._ENCODED) == fit._ENCODED_MAX
        assert "text 9" not in fit._ENCODED and "text 10" in fit._ENCODED
    finally:
        fit._ENCODED.clear()
        fit._ENCODED.update(kept)
