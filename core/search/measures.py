"""Shared measuring tools for the scoring formulas (documented in ``core/search/SCORING.md``)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone


@dataclass(frozen=True, slots=True)
class DimensionScore:
    score: float  # 0-10
    reason: str


@dataclass(slots=True)
class Parts:
    """Weighted parts of one dimension; ``None`` values are skipped and named as not measured."""

    scored: list[tuple[float, float, str]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)

    def add(self, weight: float, score: float | None, label: str, missing_label: str) -> None:
        if score is None:
            self.missing.append(missing_label)
        else:
            self.scored.append((weight, min(10.0, max(0.0, score)), label))

    def result(self) -> DimensionScore | None:
        if not self.scored:
            return None
        total = sum(w for w, _, _ in self.scored)
        score = sum(w * s for w, s, _ in self.scored) / total
        reason = ", ".join(label for _, _, label in self.scored)
        if self.missing:
            reason += f" (not measured: {', '.join(self.missing)})"
        return DimensionScore(round(score, 1), reason)


# -- helpers --------------------------------------------------------------------------------------

RECENCY_DAYS: Sequence[tuple[float, float]] = ((0, 10), (7, 10), (30, 9), (90, 7), (180, 5), (365, 3), (730, 1), (1095, 0))


def log_scale(value: float, full: float) -> float:
    """0 at 0, 10 at ``full`` and above, logarithmic in between."""
    if value <= 0:
        return 0.0
    return 10 * min(1.0, math.log10(1 + value) / math.log10(1 + full))


def interpolate(x: float, points: Sequence[tuple[float, float]]) -> float:
    """Piecewise-linear through ``points`` (x ascending), flat outside them."""
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    return points[-1][1]


def recency_score(days: float | None) -> float | None:
    return None if days is None else interpolate(days, RECENCY_DAYS)


def human(n: int | float) -> str:
    n = int(n)
    if abs(n) >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if abs(n) >= 10_000:
        return f"{n / 1000:.0f}k"
    if abs(n) >= 1000:
        return f"{n / 1000:.1f}k"
    return str(n)


class SnapshotMoment(datetime):
    """The end of an offline snapshot's day, used as "now" when the data is that snapshot.

    Ages measured from it are phrased "before the snapshot", never "ago": the snapshot is not today.
    """

    @classmethod
    def of(cls, day: date) -> SnapshotMoment:
        return cls.combine(day, time(23, 59, 59), tzinfo=timezone.utc)

    @property
    def snapshot_day(self) -> str:
        return self.date().isoformat()


def duration_words(days: float) -> str:
    """'5 days', '3 weeks', '14 months', 'about 4.8 years'."""
    if days < 14:
        whole = round(days)
        return "1 day" if whole == 1 else f"{whole} days"
    if days < 60:
        weeks = int(days // 7)
        return f"{weeks} weeks"
    if days < 730:
        return f"{int(days * 12 // 365)} months"
    return f"about {days / 365.25:.1f} years".replace(".0 years", " years")


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=timezone.utc)


def days_since(value: datetime | None, now: datetime) -> float | None:
    return None if value is None else max(0.0, (_aware(now) - _aware(value)).total_seconds() / 86400)


def years_since(value: datetime | None, now: datetime) -> float | None:
    days = days_since(value, now)
    return None if days is None else days / 365.25


def ago(days: float | None, now: datetime | None = None) -> str:
    """'today', '3 days ago', 'about 4.8 years ago'; relative to the snapshot when ``now`` is one."""
    if days is None:
        return ""
    if isinstance(now, SnapshotMoment):
        if days < 1:
            return f"on the snapshot day ({now.snapshot_day})"
        return f"{duration_words(days)} before the snapshot of {now.snapshot_day}"
    if days < 1:
        return "today"
    return f"{duration_words(days)} ago"
