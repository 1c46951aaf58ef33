"""JSON payloads of the fake GitHub, shaped like the real REST API's (v2022-11-28)."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from tests.fakes.github_data import MAINTAINERS, FakeIssue, FakeRepo


def iso(moment: datetime | None) -> str | None:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ") if moment else None


def _id(*parts: object) -> int:
    return int(hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:8], 16)


def repo(fr: FakeRepo, api: str) -> dict[str, Any]:
    owner, name = fr.full_name.split("/", 1)
    lic = fr.license
    return {
        "id": _id(fr.full_name), "node_id": f"R_{_id(fr.full_name):x}", "name": name,
        "full_name": fr.full_name, "private": False,
        "owner": {"login": owner, "id": _id(owner), "type": "Organization", "site_admin": False},
        "html_url": f"https://github.com/{fr.full_name}",
        "description": fr.record.description or None, "fork": False,
        "url": f"{api}/repos/{fr.full_name}", "homepage": f"https://{name.lower()}.dev" if _id(name) % 3 == 0 else "",
        "size": 1000 + _id(fr.full_name, "size") % 90_000,
        "stargazers_count": fr.record.stars, "watchers_count": fr.record.stars,
        "language": fr.record.language, "forks_count": fr.record.forks,
        "open_issues_count": fr.record.open_issues, "topics": fr.topics,
        "license": None if lic is None else {"key": lic[0], "name": lic[2], "spdx_id": lic[1],
                                             "url": f"{api}/licenses/{lic[0]}", "node_id": "L"},
        "archived": fr.archived, "disabled": False, "visibility": "public",
        "default_branch": "main", "created_at": iso(fr.created_at),
        "updated_at": iso(fr.pushed_at), "pushed_at": iso(fr.pushed_at),
        "has_issues": True, "has_wiki": True, "forks": fr.record.forks,
        "open_issues": fr.record.open_issues, "watchers": fr.record.stars,
    }


def release(fr: FakeRepo, tag: str, at: datetime) -> dict[str, Any]:
    return {"id": _id(fr.full_name, tag), "tag_name": tag, "name": tag, "draft": False,
            "prerelease": False, "created_at": iso(at), "published_at": iso(at),
            "html_url": f"https://github.com/{fr.full_name}/releases/tag/{tag}"}


def commit(fr: FakeRepo, at: datetime, index: int) -> dict[str, Any]:
    sha = hashlib.sha1(f"{fr.full_name}{index}".encode()).hexdigest()
    return {"sha": sha, "html_url": f"https://github.com/{fr.full_name}/commit/{sha}",
            "commit": {"author": {"name": "dev", "date": iso(at)}, "message": f"change {index}"}}


def contributor(fr: FakeRepo, index: int) -> dict[str, Any]:
    return {"login": f"contributor{index}", "id": _id(fr.full_name, index), "type": "User",
            "contributions": max(1, 5000 // (index + 1))}


def issue(fr: FakeRepo, item: FakeIssue, api: str) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "id": _id(fr.full_name, item.number), "number": item.number, "title": item.title,
        "state": item.state, "user": {"login": item.author, "type": "User"},
        "comments": item.comments, "created_at": iso(item.created_at),
        "updated_at": iso(item.updated_at), "closed_at": iso(item.closed_at),
        "author_association": "NONE",
        "html_url": f"https://github.com/{fr.full_name}/issues/{item.number}",
    }
    if item.is_pull:
        payload["pull_request"] = {"url": f"{api}/repos/{fr.full_name}/pulls/{item.number}",
                                   "merged_at": iso(item.merged_at)}
    return payload


def pull(fr: FakeRepo, number: int, state: str, merged_at: datetime | None) -> dict[str, Any]:
    return {"id": _id(fr.full_name, "pr", number), "number": number, "state": state,
            "title": f"PR {number}", "merged_at": iso(merged_at), "user": {"login": "dev"}}


def comments(fr: FakeRepo, item: FakeIssue) -> list[dict[str, Any]]:
    if not item.comments or item.first_response_hours is None:
        return []
    out = []
    first = item.created_at + timedelta(hours=item.first_response_hours)
    # sometimes the author adds a note before anyone answers: it is not a response
    if item.number % 4 == 0:
        out.append({"user": {"login": item.author, "type": "User"},
                    "created_at": iso(item.created_at + timedelta(minutes=5)),
                    "author_association": "NONE", "body": "more details"})
    if item.number % 5 == 0:
        out.append({"user": {"login": "helper-bot[bot]", "type": "Bot"},
                    "created_at": iso(item.created_at + timedelta(minutes=1)),
                    "author_association": "NONE", "body": "Thanks for opening this issue!"})
    out.sort(key=lambda c: c["created_at"])
    for k in range(item.comments - len(out)):
        out.append({"user": {"login": MAINTAINERS[k % len(MAINTAINERS)], "type": "User"},
                    "created_at": iso(first + timedelta(hours=k * 3)),
                    "author_association": "MEMBER", "body": "Looking into it."})
    return out


def community(fr: FakeRepo, api: str) -> dict[str, Any]:
    files = fr.community
    base = f"{api}/repos/{fr.full_name}"

    def entry(name: str, path: str) -> dict[str, str] | None:
        return {"url": f"{base}/contents/{path}",
                "html_url": f"https://github.com/{fr.full_name}/blob/main/{path}"} if files[name] else None

    present = sum(files.values()) + (1 if fr.record.description else 0)
    return {
        "health_percentage": round(100 * present / 7), "description": fr.record.description or None,
        "documentation": None, "updated_at": iso(fr.pushed_at), "content_reports_enabled": False,
        "files": {
            "readme": entry("readme", "README.md"), "contributing": entry("contributing", "CONTRIBUTING.md"),
            "license": entry("license", "LICENSE"), "code_of_conduct": (
                {"key": "contributor_covenant", "name": "Contributor Covenant", "url": f"{api}/codes_of_conduct/contributor_covenant"}
                if files["code_of_conduct"] else None),
            "code_of_conduct_file": entry("code_of_conduct", "CODE_OF_CONDUCT.md"),
            "issue_template": entry("issue_template", ".github/ISSUE_TEMPLATE/bug.md"),
            "pull_request_template": entry("pull_request_template", ".github/PULL_REQUEST_TEMPLATE.md"),
        },
    }
