"""A fake GitHub REST API on loopback (aiohttp, port 0), for tests and benchmarks.

    async with FakeGitHub(latency=0.15) as gh:
        source = build_source(gh.env(), catalog_source)
        gh.rate_limit("/search/", reset_in=3600)        # scripted failure, once
        gh.fail("/releases", status=502, times=2)       # two 502s, then OK
        gh.count("/repos/")                              # calls made so far

Payloads are built from the real snapshot (``tests.fakes.github_data``). It honours search
``q`` (terms, OR, phrases, language, stars, pushed, created, topic, archived), sort/order,
per_page/page with ``Link`` headers, ``since`` on commits and issues, raw READMEs, ETags
(``If-None-Match`` -> 304), rate-limit headers, an optional required token (401 otherwise) and
an optional path prefix (``/api/v3`` as GitHub Enterprise serves it).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from math import ceil
from typing import Any

from aiohttp import web

from tests.fakes import github_payloads as P
from tests.fakes.github_data import FakeRepo, FakeWorld
from tests.fakes.github_query import QueryRefused, date_matches, number_matches, parse, text_matches

_ROUTES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^/search/repositories$"), "search_repos"),
    (re.compile(r"^/search/issues$"), "search_issues"),
    (re.compile(r"^/rate_limit$"), "rate_limit_status"),
    (re.compile(r"^/repos/([^/]+/[^/]+)$"), "repo"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/readme$"), "readme"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/releases$"), "releases"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/commits$"), "commits"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/contributors$"), "contributors"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/issues$"), "issues"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/issues/(\d+)/comments$"), "comments"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/pulls$"), "pulls"),
    (re.compile(r"^/repos/([^/]+/[^/]+)/community/profile$"), "community"),
]
NOT_FOUND = {"message": "Not Found", "documentation_url": "https://docs.github.com/rest"}
_WORLD: FakeWorld | None = None


def shared_world() -> FakeWorld:
    global _WORLD
    if _WORLD is None or _WORLD.now.date() != datetime.now(UTC).date():
        _WORLD = FakeWorld()
    return _WORLD


@dataclass
class Call:
    path: str
    query: dict[str, str]
    status: int
    accept: str
    if_none_match: str | None
    authorization: bool


@dataclass
class Fault:
    pattern: str  # a regex searched in the path, or in "path?query"
    status: int | None  # None: only the delay
    times: int | None  # None: every time
    headers: dict[str, str] = field(default_factory=dict)
    body: dict[str, Any] = field(default_factory=dict)
    delay: float = 0.0
    hits: int = 0


class FakeGitHub:
    def __init__(
        self, *, world: FakeWorld | None = None, latency: float = 0.0, prefix: str = "",
        token: str | None = None, core_budget: int = 5000, search_budget: int = 30,
    ) -> None:
        self.world = world or shared_world()
        self.latency = latency
        self.prefix = prefix.rstrip("/")
        self.token = token
        self.budgets = {"core": core_budget, "search": search_budget}
        self.used = {"core": 0, "search": 0}
        self.calls: list[Call] = []
        self.faults: list[Fault] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.etags = True
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> "FakeGitHub":
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def __aenter__(self) -> "FakeGitHub":
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.prefix}"

    def env(self, **extra: str) -> dict[str, str]:
        env = {"GITHUB_API_URL": self.url, "OMG_GITHUB_BACKOFF": "0"}
        if self.token:
            env["GITHUB_TOKEN"] = self.token
        return env | extra

    # -- scripting -------------------------------------------------------------------------------

    def fail(self, pattern: str = "", status: int = 500, *, times: int | None = 1,
             message: str = "Server Error", headers: dict[str, str] | None = None,
             delay: float = 0.0) -> Fault:
        fault = Fault(pattern, status, times, headers or {}, {"message": message}, delay)
        self.faults.append(fault)
        return fault

    def rate_limit(self, pattern: str = "", *, reset_in: float = 3600, times: int | None = 1) -> Fault:
        """A primary rate limit: 403, remaining 0, reset in ``reset_in`` seconds."""
        reset = str(int(time.time() + reset_in))
        return self.fail(pattern, 403, times=times, headers={
            "X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset,
            "X-RateLimit-Resource": "search" if "search" in pattern else "core"},
            message="API rate limit exceeded for 127.0.0.1.")

    def secondary_rate_limit(self, pattern: str = "", *, retry_after: int = 60,
                             times: int | None = 1, status: int = 403) -> Fault:
        return self.fail(pattern, status, times=times, headers={"Retry-After": str(retry_after)},
                         message="You have exceeded a secondary rate limit.")

    def slow(self, pattern: str = "", seconds: float = 5.0, *, times: int | None = 1) -> Fault:
        fault = Fault(pattern, None, times, delay=seconds)
        self.faults.append(fault)
        return fault

    def count(self, pattern: str = "") -> int:
        return sum(1 for c in self.calls if re.search(pattern, c.path))

    def reset_log(self) -> None:
        self.calls.clear()
        self.max_in_flight = 0

    # -- serving ---------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if self.prefix:
            if not path.startswith(self.prefix + "/"):
                return self._json(request, 404, NOT_FOUND)
            path = path[len(self.prefix):]
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        status = 500
        try:
            if self.latency:
                await asyncio.sleep(self.latency)
            response = await self._respond(request, path)
            status = response.status
            return response
        finally:
            self.in_flight -= 1
            self.calls.append(Call(path, dict(request.query), status,
                                   request.headers.get("Accept", ""),
                                   request.headers.get("If-None-Match"),
                                   "Authorization" in request.headers))

    async def _respond(self, request: web.Request, path: str) -> web.StreamResponse:
        target = f"{path}?{request.query_string}"
        for fault in self.faults:
            matches = re.search(fault.pattern, path) or re.search(fault.pattern, target)
            if (fault.times is None or fault.hits < fault.times) and matches:
                fault.hits += 1
                if fault.delay:
                    await asyncio.sleep(fault.delay)
                if fault.status is not None:
                    return self._json(request, fault.status, fault.body, fault.headers, etag=False)
                break
        if self.token and request.headers.get("Authorization") != f"Bearer {self.token}":
            return self._json(request, 401, {"message": "Bad credentials"}, etag=False)
        for pattern, name in _ROUTES:
            match = pattern.match(path)
            if match:
                handler: Callable[..., web.StreamResponse] = getattr(self, f"_r_{name}")
                return handler(request, *match.groups())
        return self._json(request, 404, NOT_FOUND)

    def _json(self, request: web.Request, status: int, payload: Any,
              headers: dict[str, str] | None = None, *, etag: bool = True,
              text: str | None = None, content_type: str = "application/json") -> web.Response:
        body = (text if text is not None else json.dumps(payload)).encode()
        out = dict(self._limit_headers(request.path)) | (headers or {})
        if status == 200 and etag and self.etags:
            tag = 'W/"' + hashlib.sha1(body).hexdigest() + '"'
            out["ETag"] = tag
            if request.headers.get("If-None-Match") == tag:
                return web.Response(status=304, headers=out)
        return web.Response(status=status, body=body, headers=out,
                            content_type=content_type.split(";")[0], charset="utf-8")

    def _limit_headers(self, path: str) -> dict[str, str]:
        resource = "search" if "/search/" in path else "core"
        self.used[resource] += 1
        limit = self.budgets[resource]
        return {"X-RateLimit-Limit": str(limit), "X-RateLimit-Resource": resource,
                "X-RateLimit-Used": str(self.used[resource]),
                "X-RateLimit-Remaining": str(max(1, limit - self.used[resource])),
                "X-RateLimit-Reset": str(int(time.time()) + 3600)}

    def _page(self, request: web.Request, total: int, make: Callable[[int], Any],
              default_per_page: int = 30) -> web.Response:
        per_page = max(1, min(100, int(request.query.get("per_page", default_per_page))))
        page = max(1, int(request.query.get("page", 1)))
        last = max(1, ceil(total / per_page))
        start = (page - 1) * per_page
        items = [make(i) for i in range(start, min(total, start + per_page))]
        links = []
        for rel, number in (("prev", page - 1), ("next", page + 1), ("last", last), ("first", 1)):
            if (rel in {"prev", "first"} and page > 1) or (rel in {"next", "last"} and page < last):
                url = request.url.update_query(page=str(number))
                links.append(f'<{url}>; rel="{rel}"')
        return self._json(request, 200, items, {"Link": ", ".join(links)} if links else None)

    def _find(self, full_name: str) -> FakeRepo | None:
        return self.world.get(full_name)

    @property
    def api(self) -> str:
        return self.url

    # -- routes ----------------------------------------------------------------------------------

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
        hits: list[tuple[int, FakeRepo]] = []
        language = (query.first("language") or "").lower()
        for fr in self.world.repos:
            if language and (fr.record.language or "").lower() != language:
                continue
            if not all(number_matches(s, fr.record.stars) for s in query.qualifiers.get("stars", [])):
                continue
            if not all(date_matches(s, fr.pushed_at) for s in query.qualifiers.get("pushed", [])):
                continue
            if not all(date_matches(s, fr.created_at) for s in query.qualifiers.get("created", [])):
                continue
            if not all(t.lower() in fr.topics for t in query.qualifiers.get("topic", [])):
                continue
            if query.first("archived") == "false" and fr.archived:
                continue
            score = text_matches(query.alternatives, fr.with_topics_text())
            if score:
                hits.append((score, fr))
        sort, desc = request.query.get("sort"), request.query.get("order", "desc") != "asc"
        keys: dict[str | None, Callable[[tuple[int, FakeRepo]], Any]] = {
            "stars": lambda h: h[1].record.stars, "forks": lambda h: h[1].record.forks,
            "updated": lambda h: h[1].pushed_at,
        }
        key = keys.get(sort, lambda h: (h[0], h[1].record.stars))
        hits.sort(key=key, reverse=desc if sort in keys else True)
        hits = hits[:1000]
        per_page = max(1, min(100, int(request.query.get("per_page", 30))))
        page = max(1, int(request.query.get("page", 1)))
        chunk = hits[(page - 1) * per_page: page * per_page]
        items = [P.repo(fr, self.api) | {"score": float(score)} for score, fr in chunk]
        return self._json(request, 200, {"total_count": len(hits), "incomplete_results": False,
                                         "items": items})

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
        import base64
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
