"""Plain-language number and time formatting shared by the analysis modules."""

from __future__ import annotations

from datetime import UTC, datetime

from core.search.measures import SnapshotMoment


def compact(n: int | float) -> str:
    """12345 -> '12.3k', 2_400_000 -> '2.4M', 999 -> '999'."""
    n = float(n)
    sign = "-" if n < 0 else ""
    n = abs(n)
    if n >= 1_000_000:
        return f"{sign}{n / 1_000_000:.1f}M".replace(".0M", "M")
    if n >= 1_000:
        return f"{sign}{n / 1_000:.1f}k".replace(".0k", "k")
    return f"{sign}{int(n)}"


def signed(n: int) -> str:
    """+1.2k / -300 / 0."""
    return f"+{compact(n)}" if n > 0 else compact(n)


def plural(n: int | float, word: str, many: str | None = None) -> str:
    """'1 commit', '3 commits', '1.2k stars'."""
    count = f"{n:,}" if isinstance(n, int) and n < 10_000 else compact(n)
    return f"{count} {word if n == 1 else (many or word + 's')}"


def committers(people: int, sampled: int) -> str:
    """'12 people wrote the last 100 commits': recent committers (what GraphQL measures), never
    called contributors, which GitHub counts over all time."""
    if sampled == 0:
        return "no commits yet"
    return f"{plural(people, 'person', 'people')} wrote {last_commits(sampled)}"


def last_commits(sampled: int) -> str:
    """'the last 100 commits', or 'the only commit'."""
    return "the only commit" if sampled == 1 else f"the last {sampled:,} commits"


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def days_since(then: datetime | None, now: datetime) -> int | None:
    if then is None:
        return None
    return max(0, (_aware(now) - _aware(then)).days)


def months_since(then: datetime | None, now: datetime) -> int | None:
    days = days_since(then, now)
    return None if days is None else days * 12 // 365


def span(days: int) -> str:
    """A duration in the largest sensible unit: '5 days', '3 weeks', '14 months', '2.5 years'."""
    if days < 14:
        return plural(days, "day")
    if days < 60:
        return plural(days // 7, "week")
    if days < 730:
        return plural(days * 12 // 365, "month")
    years = days / 365
    return f"about {years:.1f} years".replace(".0 years", " years")


def ago(then: datetime | None, now: datetime) -> str | None:
    """'today', '3 days ago'; '3 days before the snapshot of 2026-08-22' when ``now`` is a
    ``SnapshotMoment`` (offline data: the snapshot is not today, so "ago" would mislead)."""
    days = days_since(then, now)
    if days is None:
        return None
    if isinstance(now, SnapshotMoment):
        if days == 0:
            return f"on the snapshot day ({now.snapshot_day})"
        return f"{span(days)} before the snapshot of {now.snapshot_day}"
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"
    return f"{span(days)} ago"


def hours(h: float) -> str:
    """A response time: '40 minutes', '5 hours', '3 days'."""
    if h < 1:
        return plural(max(1, round(h * 60)), "minute")
    if h < 48:
        return plural(round(h), "hour")
    return plural(round(h / 24), "day")


def percent(part: int, whole: int) -> str:
    return f"{round(100 * part / whole)}%" if whole else "n/a"
