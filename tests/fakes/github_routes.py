"""The fake GitHub's endpoints (a mixin of ``tests.fakes.github.FakeGitHub``)."""

from __future__ import annotations

import base64
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.fakes import github_payloads as P
from tests.fakes import github_search
from tests.fakes.github_data import FakeRepo, FakeWorld
from tests.fakes.github_query import QueryRefused, date_matches, parse

NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}


class GitHubRoutes:
    """``_r_<name>`` handlers; the server dispatches to them by path pattern."""

    world: FakeWorld
    incomplete_results: bool
    budgets: dict[str, int]
    used: dict[str, int]

    if TYPE_CHECKING:
        @property
        def api(self) -> str: ...

        def _json(self, request: web.Request, status: int, payload: Any,
                  headers: dict[str, str] | None = None, *, etag: bool = True,
                  text: str | None = None, content_type: str = "application/json") -> web.Response: ...

        def _page(self, request: web.Request, total: int, make: Callable[[int], Any],
                  default_per_page: int = 30) -> web.Response: ...

    def _find(self, full_name: str) -> FakeRepo | None:
        return self.world.get(full_name)

    def _r_rate_limit_status(self, request: web.Request) -> web.Response:
        return self._json(request, 200, {"resources": {
            k: {"limit": v, "used": self.used[k], "remaining": v - self.used[k]}
            for k, v in self.budgets.items()}}, etag=False)

    def _r_search_repos(self, request: web.Request) -> web.Response:
        try:
            query = parse(request.query.get("q", ""))
        except QueryRefused as exc:
            return self._json(request, 422, {"message": "Validation Failed",
                                             "errors": [{"message": str(exc), "code": "invalid"}]})
        sort, desc = request.query.get("sort"), request.query.get("order", "desc") != "asc"
        hits = github_search.find(self.world, query, sort, desc)
        per_page = max(1, min(100, int(request.query.get("per_page", 30))))
        page = max(1, int(request.query.get("page", 1)))
        chunk = hits[(page - 1) * per_page: page * per_page]
        items = [P.repo(fr, self.api) | {"score": float(score)} for score, fr in chunk]
        return self._json(request, 200, {"total_count": len(hits),
                                         "incomplete_results": self.incomplete_results, "items": items})

    def _r_search_issues(self, request: web.Request) -> web.Response:
        try:
            query = parse(request.query.get("q", ""))
        except QueryRefused as exc:
            return self._json(request, 422, {"message": "Validation Failed",
                                             "errors": [{"message": str(exc)}]})
        fr = self._find(query.first("repo") or "")
        if fr is None:
            return self._json(request, 422, {"message": "Validation Failed"})
        kinds = set(query.qualifiers.get("is", []))
        found = [i for i in fr.recent_issues
                 if ("pr" not in kinds or i.is_pull) and ("issue" not in kinds or not i.is_pull)
                 and ("closed" not in kinds or i.closed_at) and ("open" not in kinds or not i.closed_at)
                 and ("merged" not in kinds or i.merged_at)
                 and all(date_matches(s, i.closed_at) for s in query.qualifiers.get("closed", []))
                 and all(date_matches(s, i.merged_at) for s in query.qualifiers.get("merged", []))]
        per_page = max(1, min(100, int(request.query.get("per_page", 30))))
        items = [P.issue(fr, i, self.api) for i in found[:per_page]]
        return self._json(request, 200, {"total_count": len(found), "incomplete_results": False,
                                         "items": items})

    def _r_repo(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        return self._json(request, 200, P.repo(fr, self.api)) if fr else self._json(request, 404, NOT_FOUND)

    def _r_readme(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        if fr is None or fr.readme is None:
            return self._json(request, 404, NOT_FOUND)
        if "raw" in request.headers.get("Accept", ""):
            return self._json(request, 200, None, text=fr.readme,
                              content_type="application/vnd.github.raw")
        return self._json(request, 200, {"name": "README.md", "path": "README.md",
                                         "encoding": "base64",
                                         "content": base64.b64encode(fr.readme.encode()).decode()})

    def _r_releases(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        if fr is None:
            return self._json(request, 404, NOT_FOUND)
        rel = fr.releases
        return self._page(request, len(rel), lambda i: P.release(fr, *rel[i]))

    def _r_commits(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        if fr is None:
            return self._json(request, 404, NOT_FOUND)
        since = request.query.get("since")
        dates = fr.commit_dates
        if since:
            cut = datetime.fromisoformat(since.replace("Z", "+00:00"))
            dates = [d for d in dates if d >= cut]
        return self._page(request, len(dates), lambda i: P.commit(fr, dates[i], i))

    def _r_contributors(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        if fr is None:
            return self._json(request, 404, NOT_FOUND)
        return self._page(request, fr.contributors, lambda i: P.contributor(fr, i))

    def _r_issues(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        if fr is None:
            return self._json(request, 404, NOT_FOUND)
        state = request.query.get("state", "open")
        items = [i for i in fr.recent_issues if state == "all" or i.state == state]
        since = request.query.get("since")
        if since:
            cut = datetime.fromisoformat(since.replace("Z", "+00:00"))
            items = [i for i in items if i.updated_at >= cut]
        field_name = "created_at" if request.query.get("sort") == "created" else "updated_at"
        items.sort(key=lambda i: getattr(i, field_name),
                   reverse=request.query.get("direction", "desc") == "desc")
        return self._page(request, len(items), lambda i: P.issue(fr, items[i], self.api))

    def _r_comments(self, request: web.Request, name: str, number: str) -> web.Response:
        fr = self._find(name)
        item = next((i for i in fr.recent_issues if i.number == int(number)), None) if fr else None
        if fr is None or item is None:
            return self._json(request, 404, NOT_FOUND)
        found = P.comments(fr, item)
        return self._page(request, len(found), lambda i: found[i])

    def _r_pulls(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        if fr is None:
            return self._json(request, 404, NOT_FOUND)
        if request.query.get("state", "open") == "open":
            top = 5000 + fr.record.open_issues
            return self._page(request, fr.open_pulls, lambda i: P.pull(fr, top - i, "open", None))
        closed = [i for i in fr.recent_issues if i.is_pull and i.closed_at]
        return self._page(request, len(closed),
                          lambda i: P.pull(fr, closed[i].number, "closed", closed[i].merged_at))

    def _r_community(self, request: web.Request, name: str) -> web.Response:
        fr = self._find(name)
        return self._json(request, 200, P.community(fr, self.api)) if fr else self._json(request, 404, NOT_FOUND)
