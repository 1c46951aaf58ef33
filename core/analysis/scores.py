"""Glue to the search scoring (``core.search.scoring``): optional LLM text judge, with fallback."""

from __future__ import annotations

import logging
from datetime import datetime

from core.errors import is_expected
from core.models import DimensionScores, Repository, RepoSignals
from core.search.scoring import TextScorer, TextScores, score_repository

log = logging.getLogger("omg.analysis.scores")


async def score(
    repo: Repository,
    signals: RepoSignals,
    readme: str | None,
    *,
    now: datetime,
    text_scorer: TextScorer | None = None,
) -> DimensionScores:
    """``score_repository`` with no query; a failed ``text_scorer`` falls back to the heuristics."""
    text: TextScores | None = None
    if text_scorer is not None:
        try:
            text = await text_scorer.score_text(repo, signals, None, readme)
        except Exception as exc:  # any scorer failure means heuristic scores, never a flat default
            log.warning("text scorer failed; using README heuristics",
                        extra={"error": repr(exc)}, exc_info=not is_expected(exc))
    return score_repository(repo, signals, None, readme, now=now, text=text)
