"""A fake GitHub REST API on loopback (aiohttp, port 0), for tests and benchmarks.

    async with FakeGitHub(latency=0.15) as gh:
        source = build_source(gh.env(), catalog_source)
        gh.rate_limit("/search/", reset_in=3600)        # scripted failure, once
        gh.fail("/releases", status=502, times=2)       # two 502s, then OK
        gh.count("/repos/")                              # calls made so far

Payloads are built from the real snapshot (``tests.fakes.github_data``). It honours search
``q`` (terms, OR, phrases, language, stars, pushed, created, topic, archived), sort/order,
per_page/page with ``Link`` headers, ``since`` on commits and issues, raw READMEs, ETags
(``If-None-Match`` -> 304), rate-limit headers (``core_budget`` sets the core
``X-RateLimit-Limit``: 60 is anonymous use), ``incomplete_results`` on demand, an optional required token (401 otherwise) and
an optional path prefix (``/api/v3`` as GitHub Enterprise serves it). ``POST /graphql``
(``/api/graphql`` under that prefix) answers the bot's batched GraphQL queries
(``tests.fakes.github_graphql``), with its own budget ("graphql", spent by each query's cost).
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

from tests.fakes import github_graphql
from tests.fakes.github_data import FakeWorld
from tests.fakes.github_routes import NOT_FOUND, GitHubRoutes
from tests.fakes.loopback import serve_on_loopback, stop_serving

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


class FakeGitHub(GitHubRoutes):
    def __init__(
        self, *, world: FakeWorld | None = None, latency: float = 0.0, prefix: str = "",
        token: str | None = None, core_budget: int = 5000, search_budget: int = 30,
    ) -> None:
        self.world = world or shared_world()
        self.latency = latency
        self.prefix = prefix.rstrip("/")
        self.token = token
        self.budgets = {"core": core_budget, "search": search_budget, "graphql": 5000}
        self.used = {"core": 0, "search": 0, "graphql": 0}
        self.failing_fields: dict[tuple[str, str], str] = {}  # (repo, GraphQL field) -> error
        self.failing_searches: dict[str, str] = {}  # text in a GraphQL search's q -> error
        self.graphql_limited = 0  # answers left that say RATE_LIMITED
        self.calls: list[Call] = []
        self.faults: list[Fault] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.etags = True
        self.incomplete_results = False  # search answers say GitHub timed out on its side
        self.limit_headers = True  # False: no X-RateLimit-* headers (GHE with rate limiting off)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- lifecycle -------------------------------------------------------------------------------

    async def start(self) -> "FakeGitHub":
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner, self.port = await serve_on_loopback(app, shutdown_timeout=0.5)
        return self

    async def stop(self) -> None:
        await stop_serving(self._runner)

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

    def fail_field(self, full_name: str, field_name: str, message: str = "Something went wrong") -> None:
        """GraphQL answers leave ``field_name`` of ``full_name`` null with an error (a partial
        answer, 200), until ``failing_fields`` is cleared."""
        self.failing_fields[(full_name.lower(), field_name)] = message

    def fail_search(self, text: str, message: str = "Something went wrong") -> None:
        """GraphQL answers leave every repository search whose q contains ``text`` null with an
        error (a partial answer, 200), until ``failing_searches`` is cleared."""
        self.failing_searches[text] = message

    def graphql_rate_limit(self, times: int = 1) -> None:
        """The next ``times`` GraphQL answers: 200, no data, a RATE_LIMITED error."""
        self.graphql_limited = times

    def count(self, pattern: str = "") -> int:
        return sum(1 for c in self.calls if re.search(pattern, c.path))

    def reset_log(self) -> None:
        self.calls.clear()
        self.max_in_flight = 0

    # -- serving ---------------------------------------------------------------------------------

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if self.prefix:
            if path == self.prefix.rsplit("/", 1)[0] + "/graphql":  # GHE: /api/graphql
                path = self.prefix + "/graphql"
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
        if path == "/graphql" and request.method == "POST":
            return await self._graphql(request)
        for pattern, name in _ROUTES:
            match = pattern.match(path)
            if match:
                handler: Callable[..., web.StreamResponse] = getattr(self, f"_r_{name}")
                return handler(request, *match.groups())
        return self._json(request, 404, NOT_FOUND)

    async def _graphql(self, request: web.Request) -> web.Response:
        if self.graphql_limited > 0:
            self.graphql_limited -= 1
            payload, headers = github_graphql.rate_limited()
            return self._json(request, 200, payload, headers, etag=False)
        body = await request.json()
        cost = github_graphql.cost(body.get("query", ""), body.get("variables"))
        self.used["graphql"] += cost - 1  # _limit_headers counts the call itself
        remaining = max(0, self.budgets["graphql"] - self.used["graphql"] - 1)
        payload = github_graphql.answer(self.world, body, remaining=remaining,
                                        reset_at=datetime.now(UTC).replace(microsecond=0),
                                        failing=self.failing_fields, failing_searches=self.failing_searches)
        return self._json(request, 200, payload, etag=False)

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
        resource = "graphql" if path.endswith("/graphql") else "search" if "/search/" in path else "core"
        self.used[resource] += 1
        if not self.limit_headers:
            return {}
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

    @property
    def api(self) -> str:
        return self.url
