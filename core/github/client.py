"""An async GitHub REST client on httpx.

    client = GitHubClient(GitHubSettings.from_env(env))           # real network
    client = GitHubClient(settings, transport=httpx.MockTransport(handler))   # tests

What it does for every GET:
- serves a fresh cached response without a request (per-call ``ttl``), revalidates a stale one
  with ``If-None-Match`` (a 304 reuses the stored body), and shares one in-flight request
  between identical concurrent calls;
- bounds concurrency with a semaphore and applies connect/read timeouts;
- retries 5xx and network errors with exponential backoff (tenacity; timeouts and connection
  failures get at most two attempts so that an offline machine falls back quickly);
- waits out a rate limit when the wait is short (``max_wait_seconds``), otherwise raises
  ``RateLimited(reset_at)``; remembers an exhausted budget until its reset;
- serves a stale cached body when GitHub is rate limited or unreachable (stale-if-error);
- maps 401 -> SourceAuthError, 404 -> RepoNotFound, 422 -> InvalidQuery, and gives up with
  SourceUnavailable after the retries;
- ``graphql()`` POSTs a GraphQL query through the same path (cache keyed by the query and its
  variables, single-flight, retries, rate limits on the "graphql" budget);
- with a ``SharedCache`` (Redis), a response one instance fetched is reused by every other one
  (see ``core.github.shared_cache``), and a burst across instances makes one call.
The token goes into the Authorization header only; it is never logged.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Collection, Mapping
from functools import partial
from hashlib import sha256

import httpx
from tenacity import AsyncRetrying, RetryCallState, retry_if_exception_type, wait_exponential

from core.errors import RateLimited, SourceUnavailable
from core.github.cache import ResponseCache
from core.github.failures import ConnectionFailure, Transient, error_message, status_error
from core.github.ratelimit import Budgets, rate_limit_wait, resource_for
from core.github.shared_cache import SharedCache
from core.metrics import Metrics
from core.metrics import metrics as current_metrics
from core.github.requests import ClientStats, Request, cache_key, from_cache
from core.github.response import GitHubResponse
from core.github.settings import API_VERSION, GitHubSettings

log = logging.getLogger("omg.github")

JSON = "application/vnd.github+json"
RAW = "application/vnd.github.raw"
_KEPT_HEADERS = ("content-type", "etag", "link", "last-modified")
Sleep = Callable[[float], Awaitable[None]]


class GitHubClient:
    def __init__(
        self,
        settings: GitHubSettings,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        sleep: Sleep = asyncio.sleep,
        clock: Callable[[], float] = time.time,
        cache_clock: Callable[[], float] = time.monotonic,
        shared: SharedCache | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.settings = settings
        self.shared = shared
        self._metrics = metrics
        headers = {
            "Accept": JSON,
            "X-GitHub-Api-Version": API_VERSION,
            "User-Agent": settings.user_agent,
        }
        if settings.token is not None:
            headers["Authorization"] = f"Bearer {settings.token.get_secret_value()}"
        self._http = httpx.AsyncClient(
            base_url=settings.api_url,
            headers=headers,
            timeout=httpx.Timeout(settings.read_timeout, connect=settings.connect_timeout),
            transport=transport,
            follow_redirects=True,  # renamed repositories answer 301
        )
        self._sleep = sleep
        self._clock = clock
        self._semaphore = asyncio.Semaphore(settings.max_concurrency)
        self._cache = ResponseCache(settings.cache_entries, max_bytes=settings.cache_bytes, clock=cache_clock)
        self._inflight: dict[str, asyncio.Task[GitHubResponse]] = {}
        self.budgets = Budgets()
        self._exhausted = self.budgets.exhausted
        self.stats = ClientStats()

    @property
    def metrics(self) -> Metrics:
        return self._metrics or current_metrics()

    async def aclose(self) -> None:
        for task in list(self._inflight.values()):
            task.cancel()
        await self._http.aclose()

    def clear_cache(self) -> None:
        self._cache.clear()

    async def get(
        self,
        path: str,
        params: Mapping[str, str | int] | None = None,
        *,
        accept: str = JSON,
        ttl: float = 0.0,
        allow: Collection[int] = (),
        timeout: float | None = None,
    ) -> GitHubResponse:
        """GET ``path`` (relative to the API URL).

        ``ttl``: serve a cached answer younger than this; ``allow``: statuses returned (and
        cached) rather than raised; ``timeout``: this call's read timeout, if not the default.
        """
        limit = None if timeout is None else httpx.Timeout(
            timeout, connect=min(timeout, self.settings.connect_timeout))
        key = cache_key(path, params, accept)
        return await self._cached_or_fetched(Request(key, path, dict(params or {}), accept, allow, limit, ttl))

    async def graphql(self, query: str, variables: Mapping[str, object], *, ttl: float = 0.0,
                      cacheable: Callable[[bytes], bool] | None = None) -> GitHubResponse:
        """POST a GraphQL query; ``cacheable`` decides whether a 200 body may be reused (one
        with errors should not be). Raises like ``get``; GraphQL-level errors are the caller's."""
        body = json.dumps({"query": query, "variables": dict(variables)}, sort_keys=True).encode()
        key = f"POST /graphql {sha256(body).hexdigest()}"
        return await self._cached_or_fetched(Request(key, "/graphql", {}, JSON, (), None, ttl, body, cacheable))

    async def _cached_or_fetched(self, request: Request) -> GitHubResponse:
        """A fresh cached answer, else the in-flight call for the same key, else a new one."""
        cached = self._cache.get(request.key)
        if cached is not None and self._cache.is_fresh(cached, request.ttl):
            self.stats.cache_hits += 1
            self.metrics.cache_lookup("github", hit=True)
            return from_cache(cached)
        task = self._inflight.get(request.key)
        if task is None:
            task = asyncio.create_task(self._fetch_shared(request))
            self._inflight[request.key] = task
            task.add_done_callback(partial(self._forget, request.key))
        return await asyncio.shield(task)

    async def _fetch_shared(self, request: Request) -> GitHubResponse:
        """The shared cache first (another instance may have fetched it), then GitHub."""
        shared = self.shared
        if shared is None or request.ttl <= 0:
            self.metrics.cache_lookup("github", hit=False)
            return await self._fetch(request)
        hit = await self._shared_hit(shared, request)
        if hit is not None:
            return hit
        async with shared.single_flight(request.key):
            hit = await self._shared_hit(shared, request)  # fetched meanwhile by another instance
            if hit is not None:
                return hit
            self.metrics.cache_lookup("github", hit=False)
            response = await self._fetch(request)
            if not response.cached and self._keeps(request, response.status, response.body):
                await shared.put(request.key, response.status, response.body,
                                 dict(response.headers), request.ttl)
            return response

    async def _shared_hit(self, shared: SharedCache, request: Request) -> GitHubResponse | None:
        entry = await shared.get(request.key, request.ttl)
        if entry is None:
            return None
        self.stats.shared_hits += 1
        self.metrics.cache_lookup("github", hit=True)
        self._cache.put(request.key, entry.status, entry.body, entry.headers)
        return GitHubResponse(entry.status, entry.body, entry.headers, cached=True)

    @staticmethod
    def _keeps(request: Request, status: int, body: bytes) -> bool:
        return request.cacheable is None or (status == 200 and request.cacheable(body))

    def prime(self, path: str, body: bytes, *, accept: str = JSON) -> None:
        """Store a body we already have (a search item is a repository's metadata) unless a
        response for ``path`` is cached already; it is then served while fresh (per-call ttl)."""
        key = cache_key(path, None, accept)
        if self._cache.get(key) is None:
            self._cache.put(key, 200, body, {"content-type": "application/json"})

    def _forget(self, key: str, task: asyncio.Task[GitHubResponse]) -> None:
        if self._inflight.get(key) is task:
            del self._inflight[key]
        if not task.cancelled():
            task.exception()  # retrieved here so an unawaited failure is not reported twice

    async def _fetch(self, request: Request) -> GitHubResponse:
        retrying = AsyncRetrying(
            sleep=self._sleep,
            stop=self._should_stop,
            wait=wait_exponential(
                multiplier=self.settings.backoff_seconds, max=self.settings.backoff_seconds * 8
            ),
            retry=retry_if_exception_type(Transient),
            before_sleep=self._count_retry,
            reraise=True,
        )
        try:
            return await retrying(self._attempt, request)
        except (Transient, RateLimited) as exc:
            stale = self._cache.get(request.key)
            if stale is not None:
                self.stats.stale_served += 1
                log.warning("github.stale",
                            extra={"path": request.path, "reason": type(exc).__name__})
                return from_cache(stale)
            if isinstance(exc, RateLimited):
                raise
            raise SourceUnavailable() from exc

    def _should_stop(self, state: RetryCallState) -> bool:
        exc = state.outcome.exception() if state.outcome else None
        limit = self.settings.retries
        if isinstance(exc, ConnectionFailure):
            limit = min(limit, 2)
        return state.attempt_number >= limit

    def _count_retry(self, state: RetryCallState) -> None:
        self.stats.retries += 1

    async def _attempt(self, request: Request) -> GitHubResponse:
        key, path = request.key, request.path
        for _ in range(3):  # at most a few short rate-limit waits, then give up
            await self._respect_exhausted_budget(path)
            cached = self._cache.get(key)
            headers = {"Accept": request.accept}
            if cached is not None and cached.etag:
                headers["If-None-Match"] = cached.etag
            response = await self._send(request, headers)
            status = response.status_code
            resource = response.headers.get("x-ratelimit-resource") or resource_for(path)
            self.budgets.note(resource, response.headers, status)
            self.metrics.github_call(resource, status, self.budgets.remaining.get(resource))
            if status == 304 and cached is not None:
                self.stats.not_modified += 1
                return from_cache(self._cache.refresh(key, cached))
            if 200 <= status < 300:
                kept = {h: response.headers[h] for h in _KEPT_HEADERS if h in response.headers}
                if self._keeps(request, status, response.content):
                    self._cache.put(key, status, response.content, kept)
                return GitHubResponse(status, response.content, kept)
            if status in request.allow:  # an expected answer ("no README"): cached like a success
                kept = {h: response.headers[h] for h in _KEPT_HEADERS if h in response.headers}
                self._cache.put(key, status, response.content, kept)
                return GitHubResponse(status, response.content, kept)
            message = error_message(response)
            wait = rate_limit_wait(status, response.headers, message, self._clock())
            if wait is None:
                raise status_error(status, path, message)
            if wait.seconds > self.settings.max_wait_seconds:
                raise RateLimited(wait.reset_at)
            self.stats.rate_limit_waits += 1
            log.info("github.rate_limit_wait", extra={"seconds": wait.seconds, "path": path})
            await self._sleep(wait.seconds)
            self._exhausted.pop(resource_for(path), None)  # waited as asked: try again
        raise RateLimited(self._exhausted.get(resource_for(path)))

    async def _send(self, request: Request, headers: dict[str, str]) -> httpx.Response:
        path = request.path
        started = time.perf_counter()
        try:
            async with self._semaphore:
                self.stats.requests += 1
                timeout = request.timeout or httpx.USE_CLIENT_DEFAULT
                if request.body is not None:
                    response = await self._http.post(
                        self.settings.graphql_url, content=request.body,
                        headers=headers | {"Content-Type": "application/json"}, timeout=timeout)
                else:
                    response = await self._http.get(
                        path, params=request.params, headers=headers, timeout=timeout)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            log.warning("github.connect_failed", extra={"path": path, "error": type(exc).__name__})
            raise ConnectionFailure(type(exc).__name__) from exc
        except (httpx.TimeoutException, httpx.TransportError) as exc:
            log.warning("github.network_error", extra={"path": path, "error": type(exc).__name__})
            raise Transient(type(exc).__name__) from exc
        log.debug(
            "github.call",
            extra={"path": path, "status": response.status_code,
                   "ms": round((time.perf_counter() - started) * 1000)},
        )
        if response.status_code >= 500:
            raise Transient(f"HTTP {response.status_code}")
        return response

    async def _respect_exhausted_budget(self, path: str) -> None:
        wait = self.budgets.wait_before(resource_for(path), self._clock(), self.settings.max_wait_seconds)
        if wait:
            self.stats.rate_limit_waits += 1
            await self._sleep(wait)
            self._exhausted.pop(resource_for(path), None)

    def remaining(self, resource: str = "core") -> int | None:
        """Calls (GraphQL: points) left in a budget, as GitHub last reported it (None before
        any response)."""
        return self.budgets.remaining.get(resource)

    def limit(self, resource: str = "core") -> int | None:
        """Calls allowed per window (an hour for "core"), as GitHub last reported it; None when
        it has not said yet, or answers without limits (``knows_limit`` tells them apart)."""
        return self.budgets.limits.get(resource)

    def knows_limit(self, resource: str = "core") -> bool:
        return resource in self.budgets.limits


