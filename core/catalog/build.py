"""Rebuild the packaged catalog from the EvanLi/Github-Ranking snapshot CSVs.

    python -m core.catalog.build /path/to/github-ranking   # the folder with github-ranking-<date>.csv

Keeps only what the product needs: every repository of the newest snapshot (deduplicated across
the per-language lists), its newest facts, and its stars and forks on each date (for growth).
Writes ``core/catalog/github-ranking.csv.gz``; the header carries the snapshot dates
(``stars@<date>`` and ``forks@<date>`` columns, newest first).
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import sys
from pathlib import Path

DATA_FILE = Path(__file__).with_name("github-ranking.csv.gz")
_DATE = re.compile(r"github-ranking-(\d{4}-\d{2}-\d{2})\.csv$")
FACT_COLUMNS = ["full_name", "language", "forks", "open_issues", "pushed_at", "description"]


def _full_name(url: str) -> str:
    return url.rstrip("/").removeprefix("https://github.com/")


def read_snapshots(folder: Path) -> dict[str, list[dict[str, str]]]:
    """{date: rows}, oldest first."""
    found = sorted((m.group(1), p) for p in folder.iterdir() if (m := _DATE.search(p.name)))
    if not found:
        raise SystemExit(f"no github-ranking-<date>.csv files in {folder}")
    return {d: list(csv.DictReader(p.open(encoding="utf-8", newline=""))) for d, p in found}


def build(folder: Path) -> bytes:
    snapshots = read_snapshots(folder)
    dates = list(snapshots)
    stars: dict[str, dict[str, int]] = {}
    forks: dict[str, dict[str, int]] = {}
    for day, rows in snapshots.items():
        for row in rows:
            key = _full_name(row["repo_url"]).lower()
            stars.setdefault(key, {})[day] = int(row["stars"])
            forks.setdefault(key, {})[day] = int(row["forks"])
    newest: dict[str, dict[str, str]] = {}
    for row in snapshots[dates[-1]]:
        newest.setdefault(_full_name(row["repo_url"]).lower(), row)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    newest_first = list(reversed(dates))
    writer.writerow(FACT_COLUMNS + [f"stars@{d}" for d in newest_first] + [f"forks@{d}" for d in newest_first])
    ordered = sorted(newest.items(), key=lambda kv: -int(kv[1]["stars"]))
    for key, row in ordered:
        history, fork_history = stars[key], forks[key]
        writer.writerow(
            [
                _full_name(row["repo_url"]),
                row["language"],
                row["forks"],
                row["issues"],
                row["last_commit"],
                " ".join(row["description"].split()),
            ]
            + [history.get(d, "") for d in newest_first]
            + [fork_history.get(d, "") for d in newest_first]
        )
    return gzip.compress(out.getvalue().encode("utf-8"), compresslevel=9, mtime=0)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "../shared/data/github-ranking")
    payload = build(folder)
    DATA_FILE.write_bytes(payload)
    print(f"wrote {DATA_FILE} ({len(payload):,} bytes)")


if __name__ == "__main__":
    main()
