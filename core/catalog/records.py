"""Catalog records: one row of the packaged snapshot, and how growth is computed from its dates.

Star and fork growth over ~6 and ~12 months: the newest figure minus the one on the older
snapshot date closest to the window's start (``growth_baseline``); unknown (``None``, never 0)
when the repository was not listed on that date. Files written before forks were kept (no
``forks@`` columns) still load, with fork growth unknown."""

from __future__ import annotations

import csv
import gzip
import io
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path

from core.catalog.lists import ListedRepository
from core.models import Repository

GROWTH_WINDOWS = {"6m": 182, "12m": 365}  # days back from the newest snapshot
GROWTH_TOLERANCE_DAYS = 45  # the older snapshot used must be this close to the window's start


@dataclass(slots=True)
class CatalogRecord:
    id: int
    full_name: str
    language: str | None
    forks: int
    open_issues: int
    pushed_at: datetime | None
    description: str
    stars: int  # on the newest snapshot date
    stars_by_date: dict[date, int]  # only the dates the repository was listed on
    star_growth_6m: int | None
    star_growth_12m: int | None
    forks_by_date: dict[date, int] = field(default_factory=dict)
    fork_growth_6m: int | None = None
    fork_growth_12m: int | None = None
    categories: list[str] = field(default_factory=list)  # curated-list categories ("awesome-go: Web Frameworks")
    list_descriptions: list[str] = field(default_factory=list)  # what the lists say about it
    # False: known only from curated lists; stars/forks/issues/push were not measured and the
    # zeros above are placeholders, never facts
    figures_known: bool = True
    # a list-only repository that an older snapshot listed: its stars on that date, used only to
    # tell how widely used it is when ranking (never shown: it is not a figure of the newest date)
    earlier_stars: int | None = None

    def to_repository(self) -> Repository:
        return Repository(
            full_name=self.full_name,
            description=self.description,
            url=f"https://github.com/{self.full_name}",
            stars=self.stars,
            forks=self.forks,
            language=self.language,
            open_issues=self.open_issues if self.figures_known else None,
            figures_known=self.figures_known,
            categories=self.categories,
            pushed_at=self.pushed_at,
            star_growth_6m=self.star_growth_6m,
            star_growth_12m=self.star_growth_12m,
            fork_growth_6m=self.fork_growth_6m,
            fork_growth_12m=self.fork_growth_12m,
        )


def list_only_record(record_id: int, listed: ListedRepository) -> CatalogRecord:
    """A repository only the curated lists know: described by them, with no figures."""
    descriptions = listed.descriptions
    return CatalogRecord(
        id=record_id,
        full_name=listed.full_name,
        language=listed.language,
        forks=0,
        open_issues=0,
        pushed_at=None,
        description=descriptions[0] if descriptions else "",
        stars=0,
        stars_by_date={},
        star_growth_6m=None,
        star_growth_12m=None,
        categories=listed.categories,
        list_descriptions=descriptions,
        figures_known=False,
    )


def merge_lists(records: list[CatalogRecord], listed: dict[str, ListedRepository],
                earlier: dict[str, int] | None = None) -> list[CatalogRecord]:
    """Snapshot records gain their list categories; list-only repositories are appended after them,
    with the stars an older snapshot measured when one listed them (``earlier``, by lower-cased
    full name)."""
    known = {r.full_name.lower(): r for r in records}
    merged = list(records)
    for key, entry in listed.items():
        record = known.get(key)
        if record is None:
            merged.append(list_only_record(len(merged), entry))
            merged[-1].earlier_stars = (earlier or {}).get(key)
        else:
            record.categories = entry.categories
            record.list_descriptions = entry.descriptions
    return merged


def growth_baseline(dates: list[date], days_back: int) -> date | None:
    """The older snapshot date closest to ``newest - days_back`` (within the tolerance)."""
    newest = max(dates)
    target = newest - timedelta(days=days_back)
    candidates = [d for d in dates if d < newest and abs((d - target).days) <= GROWTH_TOLERANCE_DAYS]
    return min(candidates, key=lambda d: abs((d - target).days)) if candidates else None


def read_earlier(path: Path) -> dict[str, int]:
    """Lower-cased full name -> stars on the last older snapshot that listed it (the file written
    by ``core.catalog.build``; empty when there is none)."""
    if not path.is_file():
        return {}
    rows = csv.DictReader(io.StringIO(gzip.decompress(path.read_bytes()).decode("utf-8")))
    return {row["full_name"].lower(): int(row["stars"]) for row in rows}


def read_records(path: Path) -> tuple[list[date], list[CatalogRecord]]:
    """Parse the gzip CSV written by ``core.catalog.build``; dates come from its header."""
    text = gzip.decompress(path.read_bytes()).decode("utf-8")
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    star_cols = [(i, date.fromisoformat(h.split("@", 1)[1])) for i, h in enumerate(header) if h.startswith("stars@")]
    fork_cols = [(i, date.fromisoformat(h.split("@", 1)[1])) for i, h in enumerate(header) if h.startswith("forks@")]
    dates = [d for _, d in star_cols]
    newest = max(dates)
    base_6m = growth_baseline(dates, GROWTH_WINDOWS["6m"])
    base_12m = growth_baseline(dates, GROWTH_WINDOWS["12m"])
    records: list[CatalogRecord] = []
    for row in reader:
        history = {d: int(row[i]) for i, d in star_cols if row[i]}
        forks_history = {d: int(row[i]) for i, d in fork_cols if row[i]}
        stars = history[newest]
        forks = int(row[2])
        records.append(
            CatalogRecord(
                id=len(records),
                full_name=row[0],
                language=row[1] or None,
                forks=forks,
                open_issues=int(row[3]),
                pushed_at=datetime.fromisoformat(row[4]) if row[4] else None,
                description=row[5],
                stars=stars,
                stars_by_date=history,
                star_growth_6m=_growth(history, stars, base_6m),
                star_growth_12m=_growth(history, stars, base_12m),
                forks_by_date=forks_history,
                fork_growth_6m=_growth(forks_history, forks, base_6m),
                fork_growth_12m=_growth(forks_history, forks, base_12m),
            )
        )
    return sorted(dates), records


def _growth(history: dict[date, int], stars: int, baseline: date | None) -> int | None:
    if baseline is None or baseline not in history:
        return None  # not listed on that date: growth unknown, not zero
    return stars - history[baseline]
