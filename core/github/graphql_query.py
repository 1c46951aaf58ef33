"""The GraphQL query that fetches the signals of many repositories in one call.

Every repository is one aliased ``repository(owner:, name:)`` field (``r0``, ``r1``...) whose
owner and name are variables, so the query text depends only on how many repositories at which
depth -- the same candidates make the same query (one cache key, on every instance).
``rateLimit { cost remaining resetAt limit }`` comes back with every answer.

Cost (GitHub's rules: the requests needed to fill each connection, summed, divided by 100, at
least 1 point): a light repository asks ~6 connections, a full one ~11 (the authors of its
newest ``RECENT_COMMITS`` commits among them) plus ``FIRST_RESPONSE`` issue comment lists, so
twelve light candidates cost 1 point and a comparison of three ~1-2.
Every connection asks ``first`` <= 100, far below the 500,000-node limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from core.sources.base import SignalDepth

README_FILES = ("README.md", "README.rst", "README", "readme.md", "README.txt", "README.markdown")
CONTRIBUTING_FILES = ("CONTRIBUTING.md", ".github/CONTRIBUTING.md", "docs/CONTRIBUTING.md")
FIRST_RESPONSE = 20  # most recent issues read for the time to first response
COMMENTS = 10
RECENT_COMMITS = 100  # newest default-branch commits whose distinct authors are counted

_REPOSITORY = """
    nameWithOwner description url homepageUrl stargazerCount forkCount isArchived isDisabled isFork
    createdAt pushedAt primaryLanguage { name } licenseInfo { key spdxId name }
    repositoryTopics(first: 20) { nodes { topic { name } } }
    defaultBranchRef { target { ... on Commit {
      since30: history(since: $since30) { totalCount }
      since90: history(since: $since90) { totalCount }%s } } }
    releases(first: 1, orderBy: {field: CREATED_AT, direction: DESC}) {
      totalCount nodes { tagName name isDraft publishedAt createdAt } }
"""
_FULL = """
    openIssues: issues(states: OPEN) { totalCount }
    openPulls: pullRequests(states: OPEN) { totalCount }
    codeOfConduct { key }
    issueTemplates { name }
    pullRequestTemplates { filename }
    recentIssues: issues(first: %d, orderBy: {field: CREATED_AT, direction: DESC}) {
      nodes { createdAt author { login }
        comments(first: %d) { totalCount nodes { createdAt author { __typename login } } } } }
""" % (FIRST_RESPONSE, COMMENTS)


def _files(prefix: str, names: Sequence[str], *, text: bool) -> str:
    fields = "text byteSize" if text else "byteSize"
    return "\n".join(
        f'    {prefix}{i}: object(expression: "HEAD:{name}") {{ ... on Blob {{ {fields} }} }}'
        for i, name in enumerate(names))


# GraphQL has no contributor count (REST's /contributors): a full collection counts the
# distinct authors of the newest commits instead, reported as "recent committers"
_RECENT = """
      recent: history(first: %d) { nodes { author { name email user { login } } } }""" % RECENT_COMMITS


def repository_fields(depth: SignalDepth) -> str:
    parts = [_REPOSITORY % (_RECENT if depth == "full" else ""), _files("readme", README_FILES, text=True)]
    if depth == "full":
        parts += [_FULL, _files("contributing", CONTRIBUTING_FILES, text=False)]
    return "\n".join(parts)


def _day(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT00:00:00Z")  # stable for a whole day: one cache key


def build(names: Sequence[tuple[str, SignalDepth]], now: datetime) -> tuple[str, dict[str, object]]:
    """The query and its variables for ``names`` (owner/name, depth), in the given order."""
    since90 = now - timedelta(days=90)
    variables: dict[str, object] = {"since30": _day(now - timedelta(days=30)),
                                    "since90": _day(since90)}
    declared = ["$since30: GitTimestamp!", "$since90: GitTimestamp!"]
    fields: list[str] = []
    day = since90.date().isoformat()
    for i, (full_name, depth) in enumerate(names):
        owner, _, name = full_name.partition("/")
        variables |= {f"o{i}": owner, f"n{i}": name}
        declared += [f"$o{i}: String!", f"$n{i}: String!"]
        fields.append(f"  r{i}: repository(owner: $o{i}, name: $n{i}) {{\n"
                      f"{repository_fields(depth)}\n  }}")
        if depth == "full":  # issue/PR flow over 90 days: two search counts, as REST does
            variables |= {f"qc{i}": f"repo:{full_name} is:issue is:closed closed:>={day}",
                          f"qm{i}": f"repo:{full_name} is:pr is:merged merged:>={day}"}
            declared += [f"$qc{i}: String!", f"$qm{i}: String!"]
            fields.append(f"  closed{i}: search(query: $qc{i}, type: ISSUE, first: 1) {{ issueCount }}")
            fields.append(f"  merged{i}: search(query: $qm{i}, type: ISSUE, first: 1) {{ issueCount }}")
    fields.append("  rateLimit { cost remaining resetAt limit }")
    query = f"query Signals({', '.join(declared)}) {{\n" + "\n".join(fields) + "\n}"
    return query, variables
