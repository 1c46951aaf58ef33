"""Key metrics of one repository, grouped as overview / activity / maintenance / community.

Every metric comes from a field that was actually measured. A metric the source could not
measure is still listed, with ``value=None`` and a note saying so plainly, so a reply can show
"not available in the offline snapshot" instead of inventing a number.
"""

from __future__ import annotations

from datetime import datetime

from core.analysis.format import ago, days_since, hours, last_commits, signed, span
from core.models import KeyMetric, Repository, RepoSignals

GROUPS: tuple[str, ...] = ("overview", "activity", "maintenance", "community")

_MISSING = {
    "catalog": "not available in the offline snapshot",
    "github": "not measured (GitHub did not return it)",
}


def missing_note(source_kind: str) -> str:
    return _MISSING.get(source_kind, "not measured")


class _Builder:
    def __init__(self, source_kind: str) -> None:
        self.metrics: list[KeyMetric] = []
        self.missing = missing_note(source_kind)

    def add(
        self, group: str, name: str, label: str, value: str | None, note: str = "",
        *, missing: str | None = None,
    ) -> None:
        """``note`` explains a present value; a missing value gets ``missing`` or the default."""
        self.metrics.append(
            KeyMetric(group=group, name=name, label=label, value=value,
                      note=note if value is not None else (missing or self.missing))
        )


def build_metrics(
    repo: Repository, signals: RepoSignals, *, now: datetime, source_kind: str
) -> list[KeyMetric]:
    b = _Builder(source_kind)
    _overview(b, repo, now, source_kind)
    _activity(b, repo, signals, now)
    _maintenance(b, repo, signals)
    _community(b, repo, signals, source_kind)
    return b.metrics


def _overview(b: _Builder, repo: Repository, now: datetime, source_kind: str) -> None:
    stars = repo.measured_stars
    b.add("overview", "stars", "Stars", None if stars is None else f"{stars:,}",
          missing="not measured: known offline only from curated lists")
    b.add("overview", "language", "Main language", repo.language)
    if repo.license:
        b.add("overview", "license", "License", repo.license)
    elif source_kind == "github":
        b.add("overview", "license", "License", "none",
              "no license file, so the terms for reusing the code are unclear")
    else:
        b.add("overview", "license", "License", None)
    age = days_since(repo.created_at, now)
    b.add("overview", "age", "Age",
          span(age) if age is not None else None,
          f"created {repo.created_at:%Y-%m-%d}" if repo.created_at else "")
    if repo.archived:
        b.add("overview", "archived", "Status", "archived",
              "read-only: the owners no longer accept changes")


def _activity(b: _Builder, repo: Repository, s: RepoSignals, now: datetime) -> None:
    b.add("activity", "commits_30d", "Commits (last 30 days)", _count(s.commits_30d))
    b.add("activity", "commits_90d", "Commits (last 90 days)", _count(s.commits_90d))
    if s.releases is None:
        b.add("activity", "releases", "Releases", None)
    elif s.releases == 0:
        b.add("activity", "releases", "Releases", "0", "no published GitHub releases")
    else:
        latest = s.latest_release or "latest"
        when = ago(s.latest_release_at, now)
        b.add("activity", "releases", "Releases", f"{s.releases:,}",
              f"latest {latest}" + (f", {when}" if when else ""))
    b.add("activity", "last_push", "Last push", ago(repo.pushed_at, now),
          f"{repo.pushed_at:%Y-%m-%d}" if repo.pushed_at else "")


def _maintenance(b: _Builder, repo: Repository, s: RepoSignals) -> None:
    if s.open_issues_only is not None:
        b.add("maintenance", "open_issues", "Open issues", f"{s.open_issues_only:,}")
    elif repo.open_issues is not None:
        b.add("maintenance", "open_issues", "Open issues and pull requests",
              f"{repo.open_issues:,}", "GitHub counts open issues and pull requests together")
    else:
        b.add("maintenance", "open_issues", "Open issues", None)
    b.add("maintenance", "closed_issues_90d", "Issues closed (last 90 days)",
          _count(s.closed_issues_90d))
    b.add("maintenance", "open_pulls", "Open pull requests", _count(s.open_pulls))
    b.add("maintenance", "merged_pulls_90d", "Pull requests merged (last 90 days)",
          _count(s.merged_pulls_90d))
    b.add("maintenance", "first_response", "Time to first response",
          hours(s.median_first_response_hours) if s.median_first_response_hours is not None
          else None,
          "median wait before a maintainer first replies to a recent issue")


def _community(b: _Builder, repo: Repository, s: RepoSignals, source_kind: str) -> None:
    if s.contributors is not None or s.recent_committers is None:
        b.add("community", "contributors", "Contributors", _count(s.contributors))
    if s.recent_committers is not None and s.recent_commits_sampled is not None:
        b.add("community", "recent_committers", "Recent committers", f"{s.recent_committers:,}",
              f"distinct authors of {last_commits(s.recent_commits_sampled)} on the default "
              "branch, bots aside" if s.recent_commits_sampled else "no commits yet")
    forks = repo.measured_forks
    b.add("community", "forks", "Forks", None if forks is None else f"{forks:,}",
          "copies people made to change the code")
    no_history = (
        "not available from the live API (GitHub keeps no star or fork history)"
        if source_kind == "github" else None
    )
    b.add("community", "star_growth", "Star growth",
          _growth(repo.star_growth_12m, repo.star_growth_6m), missing=no_history)
    b.add("community", "fork_growth", "Fork growth",
          _growth(repo.fork_growth_12m, repo.fork_growth_6m), missing=no_history)
    files = community_files(s)
    if s.health_percentage is not None or files is not None:
        value = f"{s.health_percentage}%" if s.health_percentage is not None else "measured"
        note = f"has {', '.join(files)}" if files else "no CONTRIBUTING guide or code of conduct"
        b.add("community", "community_profile", "Community profile", value, note)
    else:
        b.add("community", "community_profile", "Community profile", None)


def community_files(s: RepoSignals) -> list[str] | None:
    """Names of the community files present, or None when none of them was checked."""
    checks = {
        "README": s.has_readme,
        "CONTRIBUTING guide": s.has_contributing,
        "code of conduct": s.has_code_of_conduct,
        "issue templates": s.has_issue_template,
        "pull request template": s.has_pull_request_template,
    }
    if all(v is None for v in checks.values()):
        return None
    return [name for name, present in checks.items() if present]


def _count(n: int | None) -> str | None:
    return None if n is None else f"{n:,}"


def _growth(g12: int | None, g6: int | None) -> str | None:
    if g12 is not None:
        return f"{signed(g12)} in 12 months" + (f" ({signed(g6)} in 6)" if g6 is not None else "")
    if g6 is not None:
        return f"{signed(g6)} in 6 months"
    return None


__all__ = ["GROUPS", "build_metrics", "community_files", "missing_note"]
