"""Reading a batched GraphQL answer (``core.github.graphql_query``) into domain models.

GitHub answers 200 even when parts failed: ``data`` holds what resolved and ``errors`` lists
the rest, each with a ``path`` (``["r3"]``: the whole repository; ``["r3", "releases"]``: one
field) and a ``type`` (``NOT_FOUND``, ``RATE_LIMITED``...). A field that failed is reported in
``GqlRepo.failed`` by the REST signal names that can replace it, so the caller re-measures only
those over REST; a repository GitHub does not know raises ``RepoNotFound``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from statistics import median
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.github.graphql_query import CONTRIBUTING_FILES, README_FILES
from core.models import Repository, RepoSignals
from core.sources.base import SignalDepth

# which REST signal re-measures a failed GraphQL field
_REST_FOR_FIELD = {
    "defaultBranchRef": ("commits_30d", "commits_90d"), "releases": ("releases",),
    "openPulls": ("open_pulls",), "openIssues": ("open_pulls",),
    "codeOfConduct": ("community",), "issueTemplates": ("community",),
    "pullRequestTemplates": ("community",),
}


class _Gql(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class GqlError(_Gql):
    message: str = ""
    type: str | None = None
    path: list[str | int] = Field(default_factory=list)


class GqlAnswer(_Gql):
    data: dict[str, Any] | None = None
    errors: list[GqlError] = Field(default_factory=list)


@dataclass(slots=True)
class GqlRepo:
    repository: Repository
    signals: RepoSignals
    readme: str | None
    depth: SignalDepth
    failed: set[str] = field(default_factory=set)  # REST signal names to re-measure


def _get(node: Any, *keys: str) -> Any:
    for key in keys:
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _total(node: Any, key: str) -> int | None:
    value = _get(node, key, "totalCount")
    return value if isinstance(value, int) else None


def _when(value: Any) -> datetime | None:
    return datetime.fromisoformat(value.replace("Z", "+00:00")) if isinstance(value, str) else None


def repository(node: dict[str, Any], depth: SignalDepth) -> Repository:
    license_info = node.get("licenseInfo") or None
    license_name = None
    if license_info:
        spdx = license_info.get("spdxId")
        license_name = spdx if spdx and spdx != "NOASSERTION" else (license_info.get("name") or None)
    open_issues = None
    if depth == "full" and _total(node, "openIssues") is not None and _total(node, "openPulls") is not None:
        open_issues = (_total(node, "openIssues") or 0) + (_total(node, "openPulls") or 0)
    topics = [_get(t, "topic", "name") for t in _get(node, "repositoryTopics", "nodes") or []]
    return Repository(
        full_name=node["nameWithOwner"], description=(node.get("description") or "").strip(),
        url=node.get("url") or f"https://github.com/{node['nameWithOwner']}",
        stars=node.get("stargazerCount") or 0, forks=node.get("forkCount") or 0,
        language=_get(node, "primaryLanguage", "name"), open_issues=open_issues,
        topics=[t for t in topics if isinstance(t, str)], license=license_name,
        archived=bool(node.get("isArchived") or node.get("isDisabled")),
        fork=bool(node.get("isFork")), homepage=node.get("homepageUrl") or None,
        created_at=_when(node.get("createdAt")), pushed_at=_when(node.get("pushedAt")),
    )


def _readme(node: dict[str, Any]) -> str | None:
    for i in range(len(README_FILES)):
        text = _get(node, f"readme{i}", "text")
        if isinstance(text, str):
            return text
    return None


def signals(node: dict[str, Any], depth: SignalDepth, since90: datetime,
            extra: dict[str, Any]) -> tuple[RepoSignals, str | None]:
    out = RepoSignals()
    history = _get(node, "defaultBranchRef", "target") or {}
    if node.get("defaultBranchRef") is None:  # an empty repository has no default branch
        out.commits_30d = out.commits_90d = 0
    else:
        out.commits_30d, out.commits_90d = _total(history, "since30"), _total(history, "since90")
    releases = node.get("releases")
    if isinstance(releases, dict):
        out.releases = releases.get("totalCount")
        published = [r for r in releases.get("nodes") or [] if not r.get("isDraft")]
        if published:
            out.latest_release = published[0].get("tagName") or published[0].get("name")
            out.latest_release_at = _when(published[0].get("publishedAt") or published[0].get("createdAt"))
    readme = _readme(node)
    out.has_readme = readme is not None
    out.readme_chars = len(readme) if readme is not None else 0
    if depth == "full":
        if node.get("defaultBranchRef") is None:
            out.recent_committers = out.recent_commits_sampled = 0
        else:
            out.recent_committers, out.recent_commits_sampled = _committers(history.get("recent"))
        out.open_pulls = _total(node, "openPulls")
        out.open_issues_only = _total(node, "openIssues")
        out.has_license = node.get("licenseInfo") is not None
        out.has_code_of_conduct = node.get("codeOfConduct") is not None
        out.has_issue_template = bool(node.get("issueTemplates"))
        out.has_pull_request_template = bool(node.get("pullRequestTemplates"))
        out.has_contributing = any(node.get(f"contributing{i}") for i in range(len(CONTRIBUTING_FILES)))
        out.closed_issues_90d = _get(extra, "closed", "issueCount")
        out.merged_pulls_90d = _get(extra, "merged", "issueCount")
        out.median_first_response_hours = _first_response(node, since90)
    return out, readme


def _committers(history: Any) -> tuple[int | None, int | None]:
    """Distinct authors of the sampled commits, bots aside, and how many commits were sampled.
    An author is their GitHub login when the commit is linked to an account, else their email
    (else their name): one person committing under two unlinked addresses counts twice."""
    nodes = _get(history, "nodes")
    if not isinstance(nodes, list):
        return None, None
    people: set[str] = set()
    for commit in nodes:
        author = _get(commit, "author") or {}
        login, email, name = _get(author, "user", "login"), author.get("email"), author.get("name")
        if any(isinstance(v, str) and "[bot]" in v for v in (login, email, name)):
            continue
        key = login or (email.lower() if isinstance(email, str) and email else None) or name
        if isinstance(key, str) and key:
            people.add(key if login else f"~{key}")  # a login never clashes with an email
    return len(people), len(nodes)


def _first_response(node: dict[str, Any], since90: datetime) -> float | None:
    """The median hours to the first comment by someone other than the author (bots aside),
    over the most recent commented issues created in the last 90 days (at most 5, like REST)."""
    hours: list[float] = []
    sampled = 0
    for issue in _get(node, "recentIssues", "nodes") or []:
        created = _when(issue.get("createdAt"))
        if created is None or created < since90 or not _total(issue, "comments"):
            continue
        sampled += 1
        author = _get(issue, "author", "login")
        for comment in _get(issue, "comments", "nodes") or []:
            who = comment.get("author") or {}
            if who.get("login") != author and who.get("__typename") != "Bot":
                when = _when(comment.get("createdAt"))
                if when is not None:
                    hours.append((when - created).total_seconds() / 3600)
                break
        if sampled == 5:
            break
    return round(median(hours), 1) if hours else None


def failed_fields(errors: list[GqlError], alias: str) -> set[str]:
    """REST signal names that replace the fields GitHub could not resolve under ``alias``."""
    out: set[str] = set()
    for error in errors:
        if len(error.path) >= 2 and error.path[0] == alias:
            name = str(error.path[1])
            if name.startswith("readme"):
                out.add("readme")
            out.update(_REST_FOR_FIELD.get(name, ()))
    return out


def repo_error(errors: list[GqlError], alias: str) -> GqlError | None:
    """The error that made a whole repository (``path == [alias]``) unresolvable, if any."""
    return next((e for e in errors if e.path[:1] == [alias] and len(e.path) == 1), None)
