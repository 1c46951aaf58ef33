"""Pick questions ("which of those is best maintained?") get an answer from measured signals."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from core.analysis.question import asked_quality, pick_answer
from core.models import DimensionScores, RepoSignals, ScoredRepository

NOW = datetime(2026, 8, 22, tzinfo=timezone.utc)


def repo(name: str, *, stars: int = 1000, days: int = 3, issues: int = 10, hours: float | None = None,
         docs: float | None = None) -> ScoredRepository:
    return ScoredRepository(
        full_name=name, stars=stars, open_issues=issues, pushed_at=NOW - timedelta(days=days),
        star_growth_12m=stars // 10,
        scores=DimensionScores(maintenance=10.0, activity=9.0, documentation=docs),
        signals=RepoSignals(median_first_response_hours=hours),
    )


@pytest.mark.parametrize(
    ("message", "key"),
    [
        ("which of those is best maintained?", "maintenance"),
        ("which one is better maintained", "maintenance"),
        ("which is the most popular?", "popularity"),
        ("what's the fastest growing one", "growth"),
        ("which of them is best documented?", "documentation"),
        ("which one is most active", "activity"),
        ("which is easiest to use?", "ease_of_use"),
    ],
)
def test_the_asked_quality_is_read(message: str, key: str) -> None:
    quality = asked_quality(message)
    assert quality is not None and quality.key == key


def test_plain_compare_requests_are_not_pick_questions() -> None:
    assert asked_quality("compare the first two for a small team") is None
    assert asked_quality("compare zustand vs redux") is None


def test_offline_maintenance_is_never_a_tie_of_tens() -> None:
    repos = [repo("a/fresh", days=1, issues=5), repo("b/old", days=200, issues=5), repo("c/mid", days=30)]
    text = pick_answer(repos, asked_quality("which is best maintained?"), now=NOW, offline=True)
    assert text.startswith("I can't tell that reliably offline")
    assert "**a/fresh** looks the most actively kept up" in text
    assert "With GitHub access I would check" in text
    assert "10.0" not in text and "too close" not in text


def test_measured_response_times_answer_it_directly() -> None:
    repos = [repo("a/slow", hours=200.0), repo("b/quick", hours=5.0)]
    text = pick_answer(repos, asked_quality("which is best maintained?"), now=NOW, offline=False)
    assert text.startswith("**b/quick** looks best maintained")
    assert "about 5 hours" in text


def test_an_unmeasured_quality_is_said_plainly() -> None:
    text = pick_answer([repo("a/b"), repo("c/d")], asked_quality("which is best documented?"), now=NOW,
                       offline=True)
    assert text.startswith("I can't tell which is the best documented here")


def test_a_level_result_names_no_winner() -> None:
    text = pick_answer([repo("a/b", stars=5000), repo("c/d", stars=5000)],
                       asked_quality("which is the most popular?"), now=NOW, offline=True)
    assert "are level on stars" in text
