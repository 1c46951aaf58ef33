"""Rebuild the packaged catalog from the EvanLi/Github-Ranking snapshot CSVs and the awesome-lists data.

    python -m core.catalog.build [RANKING_FOLDER [AWESOME_LISTS_FOLDER]]
    # defaults: ../shared/data/github-ranking and ../shared/data/awesome-lists

Keeps only what the product needs: every repository of the newest snapshot (deduplicated across
the per-language lists), its newest facts, and its stars and forks on each date (for growth).
Writes ``core/catalog/github-ranking.csv.gz``; the header carries the snapshot dates
(``stars@<date>`` and ``forks@<date>`` columns, newest first). The repositories only older
snapshots list go to ``core/catalog/earlier-stars.csv.gz`` with their last measured stars.

From the awesome-lists folder (``categories.csv``, ``README.md``, ``LICENSES/``) it writes
``data/awesome-lists.csv.gz`` and, apart, the share-alike rows to ``data/awesome-lists-sharealike.csv.gz``
(see ``core.catalog.lists``), copies the list licenses to ``data/LICENSES/`` and the sources and
attribution section of the README to ``data/AWESOME_LISTS.md``.
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import sys
from pathlib import Path

from core.catalog.lists import LIST_COLUMNS, group_rows, is_share_alike, repository_languages

DATA_FILE = Path(__file__).with_name("github-ranking.csv.gz")
EARLIER_FILE = Path(__file__).with_name("earlier-stars.csv.gz")
LISTS_DIR = Path(__file__).with_name("data")
LISTS_FILE = LISTS_DIR / "awesome-lists.csv.gz"
SHARE_ALIKE_FILE = LISTS_DIR / "awesome-lists-sharealike.csv.gz"
LISTS_ATTRIBUTION = LISTS_DIR / "AWESOME_LISTS.md"
_KEPT_README_SECTIONS = ("## Sources", "## Excluded lists", "## License and attribution")
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


def build_earlier(folder: Path) -> bytes:
    """The repositories of the older snapshots that the newest one no longer lists (under any
    owner), with their
    stars on the last date they were listed (``full_name,date,stars``): the catalog knows many of
    them from curated lists only, and their last measured stars say how widely used they are."""
    snapshots = read_snapshots(folder)
    dates = list(snapshots)
    newest = {_full_name(row["repo_url"]).lower() for row in snapshots[dates[-1]]}
    # a repository that moved to another owner (facebook/react -> react/react) is listed under its
    # new name: its old name is not an earlier repository
    newest_names = {name.split("/", 1)[1] for name in newest}
    last: dict[str, tuple[str, str, int]] = {}
    for day in dates[:-1]:
        for row in snapshots[day]:
            name = _full_name(row["repo_url"])
            if name.lower() not in newest and name.lower().split("/", 1)[1] not in newest_names:
                last[name.lower()] = (name, day, int(row["stars"]))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["full_name", "date", "stars"])
    writer.writerows(sorted(last.values(), key=lambda row: -row[2]))
    return gzip.compress(out.getvalue().encode("utf-8"), compresslevel=9, mtime=0)


def _gzip_csv(rows: list[dict[str, str]], languages: dict[str, str | None]) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(LIST_COLUMNS)
    writer.writerows(group_rows(rows, languages))
    return gzip.compress(out.getvalue().encode("utf-8"), compresslevel=9, mtime=0)


def build_lists(folder: Path) -> tuple[bytes, bytes]:
    """(permissive rows, share-alike rows), each a gzip CSV with one row per repository, in the
    source's order; a repository's language is read from every list that files it, in both files."""
    path = folder / "categories.csv"
    if not path.is_file():
        raise SystemExit(f"no categories.csv in {folder}")
    rows = list(csv.DictReader(path.open(encoding="utf-8", newline="")))
    permissive = [r for r in rows if not is_share_alike(r["list_license"])]
    share_alike = [r for r in rows if is_share_alike(r["list_license"])]
    languages = repository_languages(rows)
    return _gzip_csv(permissive, languages), _gzip_csv(share_alike, languages)


def lists_attribution(folder: Path) -> str:
    """The README's sources table, exclusions and attribution section, under our own heading."""
    readme = (folder / "README.md").read_text(encoding="utf-8")
    sections = re.split(r"(?m)^(?=## )", readme)
    kept = [s.rstrip() for s in sections if s.startswith(_KEPT_README_SECTIONS)]
    header = (
        "# Awesome-list category data: sources, licenses and attribution\n\n"
        "`awesome-lists.csv.gz` and `awesome-lists-sharealike.csv.gz` are derived from the category data\n"
        "below: one row per repository with its language (from a one-language list, its section in a\n"
        "list organised by language, or else what its description says it is written in; awesome-cpp's\n"
        "entries C, C++ or \"C/C++\" as their descriptions say, awesome-dotnet's C# or F#; read from every\n"
        "list that files it, in both files; TypeScript or Kotlin where a JavaScript or Java list files it\n"
        "too), category paths,\n"
        "the lists' descriptions, the lists and their licenses. The share-alike rows are in their own file; see\n"
        "`awesome-lists-sharealike.LICENSE.md`. The license texts of every list are in `LICENSES/`.\n"
        "Copied from the data's README by `python -m core.catalog.build`.\n"
    )
    return header + "\n" + "\n\n".join(kept) + "\n"


def write_lists(folder: Path) -> None:
    permissive, share_alike = build_lists(folder)
    (LISTS_DIR / "LICENSES").mkdir(parents=True, exist_ok=True)
    LISTS_FILE.write_bytes(permissive)
    SHARE_ALIKE_FILE.write_bytes(share_alike)
    LISTS_ATTRIBUTION.write_text(lists_attribution(folder), encoding="utf-8")
    for license_file in sorted((folder / "LICENSES").glob("*.txt")):
        (LISTS_DIR / "LICENSES" / license_file.name).write_bytes(license_file.read_bytes())
    print(f"wrote {LISTS_FILE} ({len(permissive):,} bytes) and {SHARE_ALIKE_FILE} ({len(share_alike):,} bytes)")


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "../shared/data/github-ranking")
    payload = build(folder)
    DATA_FILE.write_bytes(payload)
    print(f"wrote {DATA_FILE} ({len(payload):,} bytes)")
    earlier = build_earlier(folder)
    EARLIER_FILE.write_bytes(earlier)
    print(f"wrote {EARLIER_FILE} ({len(earlier):,} bytes)")
    write_lists(Path(args[1] if len(args) > 1 else "../shared/data/awesome-lists"))


if __name__ == "__main__":
    main()
