"""Small text helpers shared by the renderers: numbers, dates, links, truncation, table cells.

Everything here produces portable Markdown (headings, bold, italics, bullet lists, links,
simple tables) that the Slack and Discord adapters convert and the shell renders as is.
"""

from __future__ import annotations


import re
from datetime import date, datetime

from core.models import Repository
from core.synth.phrases import plural

_SPACES = re.compile(r"\s+")
ELLIPSIS = "…"


def one_line(text: str | None) -> str:
    """Collapse newlines and runs of spaces (descriptions come from many authors)."""
    return _SPACES.sub(" ", text or "").strip()


def truncate(text: str | None, limit: int) -> str:
    """At most ``limit`` characters (ellipsis included), cut at a word boundary when one is near."""
    text = one_line(text)
    if len(text) <= limit:
        return text
    cut = text[: max(0, limit - 1)]
    space = cut.rfind(" ")
    if space >= limit * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:.-") + ELLIPSIS


def compact_number(n: int | float) -> str:
    """58592 -> '58.6k', 1_234_567 -> '1.2M', 842 -> '842'."""
    n = float(n)
    sign = "-" if n < 0 else ""
    n = abs(n)
    if n >= 1_000_000:
        value, suffix = n / 1_000_000, "M"
    elif n >= 1_000:
        value, suffix = n / 1_000, "k"
    else:
        return f"{sign}{int(n)}"
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    if text == "1000" and suffix == "k":
        return f"{sign}1M"
    return f"{sign}{text}{suffix}"


def signed(n: int) -> str:
    return f"+{compact_number(n)}" if n >= 0 else compact_number(n)



def score(value: float) -> str:
    return f"{value:.1f}/10"


def duration(hours: float) -> str:
    """A wait in plain words: 'under an hour', 'about 5 hours', 'about 3 days'."""
    if hours < 1:
        return "under an hour"
    return f"about {round(hours)} hours" if hours < 48 else f"about {round(hours / 24)} days"


def as_date(value: date | datetime | None) -> date | None:
    if value is None:
        return None
    return value.date() if isinstance(value, datetime) else value


class SnapshotDay(date):
    """``today`` when the data is an offline snapshot: dates are given as dates ("2026-08-19"),
    since "3 days ago" would be counted from the snapshot, not from the reader's today."""

    @classmethod
    def of(cls, day: date) -> SnapshotDay:
        return cls(day.year, day.month, day.day)


def age(value: date | datetime | None, today: date) -> str | None:
    """'today', '3 days ago', '5 months ago', 'over 2 years ago' (relative to ``today``);
    '2026-08-19' for snapshot data (``today`` is a ``SnapshotDay``)."""
    when = as_date(value)
    if when is None:
        return None
    if isinstance(today, SnapshotDay):
        return when.isoformat()
    days = (today - when).days
    if days <= 0:
        return "today"
    if days == 1:
        return "yesterday"
    if days < 31:
        return f"{days} days ago"
    if days < 365:
        months = max(1, round(days / 30.4))
        return "1 month ago" if months == 1 else f"{months} months ago"
    years = days // 365
    return "over a year ago" if years == 1 else f"over {years} years ago"


def period(days: int) -> str:
    """'5 days', '14 months', 'about 4.8 years'."""
    if days < 60:
        return plural(days, "day")
    if days < 730:
        return plural(round(days / 30.4), "month")
    return f"about {days / 365:.1f} years".replace(".0 years", " years")


def before(days: int, today: date) -> str:
    """'3 days ago', or '3 days before the snapshot' when ``today`` is a ``SnapshotDay``."""
    if isinstance(today, SnapshotDay):
        return f"{period(days)} before the snapshot of {today.isoformat()}"
    return f"{period(days)} ago"


def days_since(value: date | datetime | None, today: date) -> int | None:
    when = as_date(value)
    return None if when is None else (today - when).days


def link(repo: Repository) -> str:
    return f"[{repo.full_name}]({repo.html_url})"


def cell(text: str) -> str:
    """A table cell: one line, pipes escaped."""
    return one_line(text).replace("|", "\\|")




def sentence(text: str) -> str:
    """Capitalised, ending with punctuation."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?…" else f"{text}."
