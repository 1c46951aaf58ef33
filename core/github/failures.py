"""How failed GitHub answers become ``core.errors`` exceptions (or retryable failures)."""

from __future__ import annotations

import re

import httpx

from core.errors import InvalidQuery, RepoNotFound, SourceAuthError, SourceError
from core.github.payloads import GhError

_REPO_PATH = re.compile(r"^/repos/([^/]+)/([^/]+)")


class Transient(Exception):
    """Internal control flow: a failure worth retrying (5xx, timeout, network); never leaves
    GitHubClient, whose retry loop turns the last one into ``SourceUnavailable``."""


class ConnectionFailure(Transient):
    """Internal control flow: could not connect (or timed out): retried once at most."""


def error_message(response: httpx.Response) -> str:
    try:
        return GhError.model_validate_json(response.content).message
    except ValueError:
        return ""


def status_error(status: int, path: str, message: str) -> SourceError:
    repo = _REPO_PATH.match(path)
    if status == 401:
        return SourceAuthError()
    if status == 404 and repo:
        return RepoNotFound(f"{repo.group(1)}/{repo.group(2)}")
    if status == 404:
        return SourceError("GitHub couldn't find that.")
    if status == 422:
        return InvalidQuery()
    if status in (403, 451):
        return SourceError("GitHub refused that request: the repository may be private or blocked.")
    return SourceError(f"GitHub answered with an unexpected error (HTTP {status}).")
