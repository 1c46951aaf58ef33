"""Repository analysis for the Auditor and the Comparator: metrics, findings, verdicts, needs.

Everything here is pure and measured: a number that the source did not provide is reported as
missing, never estimated. Recommendation rules are in ``recommendation.py``; comparison rules in
``compare.py``; need profiles and their weights in ``need.py``.
"""

from __future__ import annotations

from datetime import datetime

from core.analysis.compare import fit_score, highlights, pick, warnings
from core.analysis.fetch import RepoBundle, fetch_bundle
from core.analysis.findings import build_findings
from core.analysis.metrics import build_metrics
from core.analysis.narrative import DeterministicNarrator, Narrator, narrate, render_analysis
from core.analysis.need import DEFAULT_WEIGHTS, Need, extract_need, need_weights
from core.analysis.readme import (
    MAX_README_CHARS,
    ExtractiveCompressor,
    ReadmeCompressor,
    compress_readme,
)
from core.analysis.recommendation import Verdict, recommend
from core.analysis.targets import candidates, names_in_text, requested_repos
from core.search.measures import SnapshotMoment
from core.sources.base import SourceInfo


def reference_time(info: SourceInfo, now: datetime) -> datetime:
    """The moment ages are measured from: now, or the end of the snapshot day offline.

    The offline catalog describes the world on its snapshot date, so "pushed 2 days ago" and the
    verdict rules are evaluated as of that date. The result is a ``SnapshotMoment`` so ages are
    worded "3 days before the snapshot of <date>", never "3 days ago".
    """
    if info.kind == "catalog" and info.snapshot_date is not None:
        end_of_day = SnapshotMoment.of(info.snapshot_date)
        if now.tzinfo and now < end_of_day:
            return SnapshotMoment.fromtimestamp(now.timestamp(), tz=now.tzinfo)
        return end_of_day
    return now


__all__ = [
    "DEFAULT_WEIGHTS",
    "MAX_README_CHARS",
    "DeterministicNarrator",
    "ExtractiveCompressor",
    "Narrator",
    "Need",
    "ReadmeCompressor",
    "RepoBundle",
    "Verdict",
    "build_findings",
    "build_metrics",
    "candidates",
    "compress_readme",
    "extract_need",
    "fetch_bundle",
    "fit_score",
    "highlights",
    "names_in_text",
    "narrate",
    "need_weights",
    "pick",
    "recommend",
    "reference_time",
    "render_analysis",
    "requested_repos",
    "warnings",
]
