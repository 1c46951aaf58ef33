"""The fake GitHub's GraphQL endpoint (``POST /graphql``), for the queries the bot sends.

It does not implement GraphQL: it resolves the aliases ``core.github.graphql_query`` builds
(``rN: repository(owner: $oN, name: $nN)``, ``closedN`` / ``mergedN`` issue searches,
``sN: search(query: $qN, type: REPOSITORY, first: $fN)`` repository searches -- answered like
the REST search, ``sort:`` qualifier included -- and ``rateLimit``) from the variables, over the same snapshot world as the REST fake, and answers
a superset of the fields (the client ignores what it did not ask for); a full repository also
gets the authors of its newest 100 commits (``recent: history(first: 100)``: regulars, bots,
addresses linked to no account). Like GitHub it answers
200 with ``errors`` for what could not be resolved: an unknown repository (``NOT_FOUND``,
``data.rN = null``), scripted field failures (``fail_field``), an exhausted budget
(``RATE_LIMITED``, no data), a scripted search failure (``fail_search``: that alias null with
an error). The REST fake's faults (5xx, 403 rate limits, delays) apply to
the ``/graphql`` path as to any other.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from tests.fakes import github_payloads as P
from tests.fakes import github_search
from tests.fakes.github_data import FakeRepo, FakeWorld
from tests.fakes.github_query import QueryRefused, date_matches, parse

_TOP = re.compile(r"^  (\w+): (\w+)\(", re.M)


def _iso(moment: datetime | None) -> str | None:
    return P.iso(moment)


def _history(fr: FakeRepo, since: str) -> dict[str, int]:
    cut = datetime.fromisoformat(since.replace("Z", "+00:00"))
    return {"totalCount": sum(1 for d in fr.commit_dates if d >= cut)}


def _repository(fr: FakeRepo, variables: dict[str, Any], full: bool) -> dict[str, Any]:
    lic = fr.license
    releases = fr.releases
    node: dict[str, Any] = {
        "nameWithOwner": fr.full_name, "description": fr.record.description or None,
        "url": f"https://github.com/{fr.full_name}", "homepageUrl": None,
        "stargazerCount": fr.record.stars, "forkCount": fr.record.forks,
        "isArchived": fr.archived, "isDisabled": False, "isFork": False,
        "createdAt": _iso(fr.created_at), "pushedAt": _iso(fr.pushed_at),
        "primaryLanguage": {"name": fr.record.language} if fr.record.language else None,
        "licenseInfo": None if lic is None else {"key": lic[0], "spdxId": lic[1], "name": lic[2]},
        "repositoryTopics": {"nodes": [{"topic": {"name": t}} for t in fr.topics]},
        "defaultBranchRef": {"target": {"since30": _history(fr, variables["since30"]),
                                        "since90": _history(fr, variables["since90"])}},
        "releases": {"totalCount": len(releases), "nodes": [
            {"tagName": tag, "name": tag, "isDraft": False, "publishedAt": _iso(at), "createdAt": _iso(at)}
            for tag, at in releases[:1]]},
        "readme0": {"text": fr.readme, "byteSize": len(fr.readme)} if fr.readme is not None else None,
    }
    if full:
        node["defaultBranchRef"]["target"]["recent"] = {"nodes": [
            {"author": {"name": name, "email": email, "user": {"login": login} if login else None}}
            for login, email, name in fr.commit_authors]}
        files = fr.community
        open_pulls = fr.open_pulls
        node |= {
            "openIssues": {"totalCount": max(0, fr.record.open_issues - open_pulls)},
            "openPulls": {"totalCount": open_pulls},
            "codeOfConduct": {"key": "contributor_covenant"} if files["code_of_conduct"] else None,
            "issueTemplates": [{"name": "Bug report"}] if files["issue_template"] else [],
            "pullRequestTemplates": [{"filename": "PULL_REQUEST_TEMPLATE.md"}]
            if files["pull_request_template"] else [],
            "contributing0": {"byteSize": 900} if files["contributing"] else None,
            "recentIssues": {"nodes": _recent_issues(fr)},
        }
    return node


def _recent_issues(fr: FakeRepo) -> list[dict[str, Any]]:
    issues = sorted((i for i in fr.recent_issues if not i.is_pull), key=lambda i: i.created_at,
                    reverse=True)[:20]
    out = []
    for item in issues:
        comments = P.comments(fr, item)[:10]
        out.append({"createdAt": _iso(item.created_at), "author": {"login": item.author},
                    "comments": {"totalCount": item.comments, "nodes": [
                        {"createdAt": c["created_at"],
                         "author": {"login": c["user"]["login"], "__typename": c["user"]["type"]}}
                        for c in comments]}})
    return out


def _issue_count(world: FakeWorld, q: str) -> dict[str, int] | None:
    try:
        query = parse(q)
    except QueryRefused:
        return None
    fr = world.get(query.first("repo") or "")
    if fr is None:
        return None
    kinds = set(query.qualifiers.get("is", []))
    found = [i for i in fr.recent_issues
             if ("pr" not in kinds or i.is_pull) and ("issue" not in kinds or not i.is_pull)
             and ("closed" not in kinds or i.closed_at) and ("merged" not in kinds or i.merged_at)
             and all(date_matches(s, i.closed_at) for s in query.qualifiers.get("closed", []))
             and all(date_matches(s, i.merged_at) for s in query.qualifiers.get("merged", []))]
    return {"issueCount": len(found)}


def _search_node(fr: FakeRepo) -> dict[str, Any]:
    lic = fr.license
    open_pulls = fr.open_pulls
    return {
        "nameWithOwner": fr.full_name, "description": fr.record.description or None,
        "url": f"https://github.com/{fr.full_name}",
        "homepageUrl": P.repo(fr, "")["homepage"] or None,
        "stargazerCount": fr.record.stars, "forkCount": fr.record.forks,
        "isArchived": fr.archived, "isDisabled": False, "isFork": False,
        "createdAt": _iso(fr.created_at), "pushedAt": _iso(fr.pushed_at),
        "primaryLanguage": {"name": fr.record.language} if fr.record.language else None,
        "licenseInfo": None if lic is None else {"key": lic[0], "spdxId": lic[1], "name": lic[2]},
        "repositoryTopics": {"nodes": [{"topic": {"name": t}} for t in fr.topics]},
        "openIssues": {"totalCount": max(0, fr.record.open_issues - open_pulls)},
        "openPulls": {"totalCount": open_pulls},
    }


def _repositories(world: FakeWorld, q: str, first: int) -> dict[str, Any] | None:
    """A repository search as GitHub's GraphQL answers it; None when GitHub would refuse q."""
    try:
        query = parse(q)
    except QueryRefused:
        return None
    sort, desc = github_search.sort_qualifier(query)
    hits = github_search.find(world, query, sort, desc)
    return {"repositoryCount": len(hits), "nodes": [_search_node(fr) for _, fr in hits[:first]]}


def cost(query: str, variables: dict[str, Any] | None = None) -> int:
    """GitHub's rule, roughly: connection requests / 100, at least 1."""
    requests = 0
    for alias, kind in _TOP.findall(query):
        if kind == "repository":
            requests += 4  # topics, two histories, releases
        elif kind == "search" and alias.startswith("s"):  # a node's topics, issues, pulls
            requests += 1 + 3 * int((variables or {}).get("f" + alias[1:], 30))
        elif kind == "search":
            requests += 1
    requests += query.count("recentIssues:") * 23  # the issues, their comment lists, counts
    requests += query.count("recent: history(") * 1  # up to 100 commits and their authors
    return max(1, round(requests / 100))


def answer(world: FakeWorld, body: dict[str, Any], *, remaining: int, reset_at: datetime,
           failing: dict[tuple[str, str], str], failing_searches: dict[str, str] | None = None,
           ) -> dict[str, Any]:
    """The JSON answer to ``body`` ({"query", "variables"}); ``failing`` maps
    (owner/name lower-case, field) to an error message for scripted partial failures, and
    ``failing_searches`` a text found in a search's q to the error that search gets."""
    query, variables = body.get("query", ""), body.get("variables") or {}
    data: dict[str, Any] = {}
    errors: list[dict[str, Any]] = []
    for alias, kind in _TOP.findall(query):
        block = query[query.index(f"  {alias}: "):]
        nxt = _TOP.search(block, 3)
        block = block[: nxt.start()] if nxt else block
        number = alias.lstrip("rclosedmerg")
        if kind == "repository":
            name = f"{variables.get('o' + number)}/{variables.get('n' + number)}"
            fr = world.get(name)
            if fr is None:
                data[alias] = None
                errors.append({"type": "NOT_FOUND", "path": [alias], "locations": [],
                               "message": f"Could not resolve to a Repository with the name '{name}'."})
                continue
            node = _repository(fr, variables, "openIssues:" in block)
            for (repo, field), message in failing.items():
                if repo == name.lower() and field in node:
                    node[field] = None
                    errors.append({"type": "SERVICE_UNAVAILABLE", "path": [alias, field], "message": message})
            data[alias] = node
        elif kind == "search" and alias.startswith("s"):
            q = str(variables.get("q" + alias[1:], ""))
            message = next((m for text, m in (failing_searches or {}).items() if text in q), None)
            found = None if message is not None else _repositories(world, q, int(variables.get("f" + alias[1:], 30)))
            data[alias] = found
            if found is None:
                errors.append({"type": "SERVICE_UNAVAILABLE" if message else "INVALID_QUERY",
                               "path": [alias], "message": message or "The search query is invalid."})
        elif kind == "search":
            q = variables.get(("qc" if alias.startswith("closed") else "qm") + number, "")
            data[alias] = _issue_count(world, q)
        elif kind == "rateLimit":
            pass
    if "rateLimit" in query:
        data["rateLimit"] = {"cost": cost(query, variables), "remaining": remaining, "limit": 5000,
                             "resetAt": _iso(reset_at)}
    return {"data": data, "errors": errors} if errors else {"data": data}


def rate_limited(reset_in: float = 3600) -> tuple[dict[str, Any], dict[str, str]]:
    """GitHub's answer when the GraphQL budget is spent: 200, no data, a RATE_LIMITED error."""
    reset = int((datetime.now() + timedelta(seconds=reset_in)).timestamp())
    return ({"errors": [{"type": "RATE_LIMITED", "message": "API rate limit exceeded for user ID 1."}]},
            {"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0",
             "X-RateLimit-Reset": str(reset), "X-RateLimit-Resource": "graphql"})
