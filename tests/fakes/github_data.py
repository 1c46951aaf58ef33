"""A realistic fake GitHub world built from the real snapshot (the packaged catalog).

Stars, forks, language, description, open issues and last push are the snapshot's real values,
shifted in time so that the snapshot date is "today". Everything GitHub has and the snapshot
lacks (creation date, topics, license, releases, commits, contributors, issues and pull requests,
comments, community profile, README) is derived deterministically from the repository's name and
real figures: busy, popular repositories get busy, well-documented histories; stale ones do not.
"""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cached_property

from core.catalog.catalog import Catalog
from core.catalog.records import CatalogRecord

LICENSES = [
    ("mit", "MIT", "MIT License"),
    ("apache-2.0", "Apache-2.0", "Apache License 2.0"),
    ("bsd-3-clause", "BSD-3-Clause", "BSD 3-Clause \"New\" or \"Revised\" License"),
    ("gpl-3.0", "GPL-3.0", "GNU General Public License v3.0"),
    ("other", "NOASSERTION", "Other"),
]
_STOP = {"the", "and", "for", "with", "that", "this", "your", "from", "you", "are", "into", "all",
         "based", "using", "what", "which", "its", "more", "than", "use", "can", "of", "a", "an"}
MAINTAINERS = ["octo-maint", "core-dev", "release-bot-human", "triager"]


def _rng(*parts: object) -> random.Random:
    seed = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return random.Random(int.from_bytes(seed[:8], "big"))


@dataclass(slots=True)
class FakeIssue:
    number: int
    is_pull: bool
    author: str
    created_at: datetime
    updated_at: datetime
    closed_at: datetime | None
    merged_at: datetime | None
    comments: int
    first_response_hours: float | None  # by a maintainer, when comments > 0
    title: str

    @property
    def state(self) -> str:
        return "closed" if self.closed_at else "open"


@dataclass
class FakeRepo:
    record: CatalogRecord
    now: datetime
    shift: timedelta

    @property
    def full_name(self) -> str:
        return self.record.full_name

    @cached_property
    def rng_seed(self) -> str:
        return self.full_name.lower()

    @cached_property
    def pushed_at(self) -> datetime:
        pushed = self.record.pushed_at or (self.now - timedelta(days=400))
        return min(self.now, pushed.astimezone(UTC) + self.shift)

    @cached_property
    def idle_days(self) -> float:
        return max(0.0, (self.now - self.pushed_at).total_seconds() / 86400)

    @cached_property
    def activity(self) -> float:
        """0 (abandoned) .. 1 (very busy), from the real last push and popularity."""
        recency = 1.0 if self.idle_days < 7 else 0.7 if self.idle_days < 30 else (
            0.35 if self.idle_days < 120 else 0.05)
        size = min(1.0, (self.record.stars / 80_000) ** 0.5)
        return round(recency * (0.4 + 0.6 * size), 3)

    @cached_property
    def archived(self) -> bool:
        return self.idle_days > 700 and _rng(self.rng_seed, "archived").random() < 0.5

    @cached_property
    def created_at(self) -> datetime:
        years = 1.5 + min(10.0, self.record.stars / 15_000) + _rng(self.rng_seed, "age").random() * 3
        return self.pushed_at - timedelta(days=365 * years)

    @cached_property
    def topics(self) -> list[str]:
        words = re.findall(r"[a-z][a-z0-9+#-]{2,}", self.record.description.lower())
        picked = [w for w in dict.fromkeys(words) if w not in _STOP][:4]
        if self.record.language:
            picked.append(self.record.language.lower().replace(" ", "-").replace("+", "p"))
        return list(dict.fromkeys(picked))

    @cached_property
    def license(self) -> tuple[str, str, str] | None:
        r = _rng(self.rng_seed, "license").random()
        if r < 0.08:
            return None
        return LICENSES[min(len(LICENSES) - 1, int(r * 10) % len(LICENSES))]

    @cached_property
    def releases(self) -> list[tuple[str, datetime]]:
        rng = _rng(self.rng_seed, "releases")
        if rng.random() < 0.15:
            return []  # some projects never publish releases
        count = int(3 + self.activity * 120 * rng.random() + self.record.stars / 10_000)
        span = (self.pushed_at - self.created_at).total_seconds()
        out = []
        for i in range(count):
            at = self.pushed_at - timedelta(seconds=span * (i / max(count, 1)) ** 1.3)
            n = count - i
            out.append((f"v{n // 20}.{(n // 5) % 4}.{n % 5}", at))
        return out  # newest first

    @cached_property
    def commit_dates(self) -> list[datetime]:
        rng = _rng(self.rng_seed, "commits")
        per_day = self.activity * 12 * (0.3 + rng.random())
        out: list[datetime] = []
        at = self.pushed_at
        for _ in range(4000):
            out.append(at)
            at -= timedelta(days=rng.expovariate(per_day) if per_day > 0.01 else 60)
            if at < self.now - timedelta(days=200):
                break
        return out  # newest first

    @cached_property
    def contributors(self) -> int:
        rng = _rng(self.rng_seed, "contributors")
        return max(1, int(self.record.stars ** 0.62 * (0.3 + rng.random())))

    @cached_property
    def commit_authors(self) -> list[tuple[str | None, str, str]]:
        """(login or None when the email is linked to no account, email, name) of the newest
        100 commits, newest first: a few regulars write most commits, some commits come from
        bots (dependabot), some from addresses GitHub cannot link to a user."""
        rng = _rng(self.rng_seed, "authors")
        pool = max(1, min(self.contributors, int(2 + self.activity * 60 * (0.5 + rng.random()))))
        out: list[tuple[str | None, str, str]] = []
        for _ in self.commit_dates[:100]:
            if rng.random() < 0.06:
                out.append((None, "49699333+dependabot[bot]@users.noreply.github.com", "dependabot[bot]"))
                continue
            who = min(pool - 1, int(rng.paretovariate(1.2)) - 1)
            login = f"committer{who}"
            linked = _rng(self.rng_seed, "linked", who).random() < 0.9
            out.append((login if linked else None, f"{login}@example.org", f"Committer {who}"))
        return out

    @cached_property
    def open_pulls(self) -> int:
        return int(self.record.open_issues * (0.1 + 0.3 * _rng(self.rng_seed, "pulls").random()))

    @cached_property
    def recent_issues(self) -> list[FakeIssue]:
        """Issues and PRs updated in the last ~120 days, newest update first."""
        rng = _rng(self.rng_seed, "issues")
        count = int(self.activity * 420 * (0.4 + rng.random()))
        out: list[FakeIssue] = []
        number = 1000 + self.record.open_issues * 3 + count
        response_scale = 2 + (1 - self.activity) * 80
        for i in range(count):
            created = self.now - timedelta(days=rng.random() * 115)
            is_pull = rng.random() < 0.45
            closed = None
            if rng.random() < 0.7:
                closed = created + timedelta(hours=rng.expovariate(1 / 60))
                closed = closed if closed < self.now else None
            merged = closed if (is_pull and closed and rng.random() < 0.8) else None
            comments = 0 if rng.random() < 0.2 else rng.randint(1, 12)
            response = rng.expovariate(1 / response_scale) if comments else None
            updated = max(x for x in (created, closed or created) if x)
            if response is not None:
                updated = max(updated, min(self.now, created + timedelta(hours=response)))
            out.append(FakeIssue(number=number - i, is_pull=is_pull, author=f"user{rng.randint(1, 9999)}",
                                 created_at=created, updated_at=updated, closed_at=closed,
                                 merged_at=merged, comments=comments, first_response_hours=response,
                                 title=f"Issue {number - i}"))
        out.sort(key=lambda x: x.updated_at, reverse=True)
        return out

    @cached_property
    def community(self) -> dict[str, bool]:
        rng = _rng(self.rng_seed, "community")
        care = min(1.0, 0.3 + self.record.stars / 40_000)
        return {
            "readme": rng.random() < 0.97,
            "contributing": rng.random() < care,
            "license": self.license is not None,
            "code_of_conduct": rng.random() < care * 0.8,
            "issue_template": rng.random() < care * 0.9,
            "pull_request_template": rng.random() < care * 0.7,
        }

    @cached_property
    def readme(self) -> str | None:
        if not self.community["readme"]:
            return None
        rng = _rng(self.rng_seed, "readme")
        name = self.record.full_name.split("/")[1]
        install = {
            "Python": f"pip install {name.lower()}", "JavaScript": f"npm install {name.lower()}",
            "TypeScript": f"npm install {name.lower()}", "Rust": f"cargo add {name.lower()}",
            "Go": f"go get github.com/{self.full_name}",
        }.get(self.record.language or "", f"git clone https://github.com/{self.full_name}")
        parts = [f"# {name}", "", self.record.description or f"{name} project.", "",
                 "## Installation", "", "```sh", install, "```", "", "## Usage", ""]
        parts += [f"Step {i + 1}: configure {name} for your project and run it." for i in range(rng.randint(2, 12))]
        parts += ["", "## Documentation", "", f"See https://github.com/{self.full_name}/wiki for guides.",
                  "", "## Contributing", "", "Pull requests are welcome.", "", "## License", "",
                  (self.license[2] if self.license else "All rights reserved.")]
        return "\n".join(parts) + "\n"

    @cached_property
    def topics_text(self) -> str:
        return " ".join([self.full_name.replace("/", " "), self.record.description, " ".join(self.topics)]).lower()


class FakeWorld:
    """Every repository of the snapshot, as GitHub would show it today."""

    def __init__(self, now: datetime | None = None, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or Catalog.load()
        self.now = now or datetime.now(UTC)
        snapshot: date = self.catalog.snapshot_date
        self.shift = self.now.date() - snapshot
        self.repos = [FakeRepo(r, self.now, self.shift) for r in self.catalog.records]
        self._by_name = {r.full_name.lower(): r for r in self.repos}
        self.searches: dict[tuple[object, ...], list[tuple[int, FakeRepo]]] = {}  # github_search.find

    def get(self, full_name: str) -> FakeRepo | None:
        return self._by_name.get(full_name.lower())
