"""Fetch everything an analysis needs about one repository, concurrently, tolerating gaps.

The repository itself is required (RepoNotFound and other source errors propagate); signals
and the README are best effort: if either fails, the analysis goes on without it and says so.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from core.errors import OmgError, RateLimited, RepoNotFound
from core.models import Repository, RepoSignals
from core.sources.base import RepoSource, SourceInfo

log = logging.getLogger("omg.analysis.fetch")


@dataclass(slots=True)
class RepoBundle:
    repo: Repository
    signals: RepoSignals
    readme: str | None = None
    notes: list[str] = field(default_factory=list)  # calls that failed, in plain language
    partial: bool = False


async def fetch_bundle(source: RepoSource, full_name: str, *, readme: bool = True) -> RepoBundle:
    calls = [source.get_repo(full_name), source.get_signals(full_name)]
    if readme:
        calls.append(source.get_readme(full_name))
    results = await asyncio.gather(*calls, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, Exception):
            raise result  # cancellation and the like
    repo_result, signals_result = results[0], results[1]
    if isinstance(repo_result, RepoNotFound) and source.info.kind == "catalog":
        raise offline_not_found(full_name, source.info) from repo_result
    if isinstance(repo_result, Exception):
        raise repo_result
    bundle = RepoBundle(repo=repo_result, signals=RepoSignals())
    if isinstance(signals_result, Exception):
        bundle.partial = True
        bundle.notes.append(_gap_note(full_name, "activity and community numbers", signals_result))
    else:
        bundle.signals = signals_result
        # ``signals.notes`` explain gaps (shown with the signals); live, a gap means something
        # failed (e.g. a rate limit on one sub-request), offline it is the snapshot's nature
        if signals_result.notes and source.info.kind != "catalog":
            bundle.partial = True
    if readme:
        readme_result = results[2]
        if isinstance(readme_result, Exception):
            bundle.notes.append(_gap_note(full_name, "README", readme_result))
        else:
            bundle.readme = readme_result
    return bundle


def _gap_note(full_name: str, what: str, exc: Exception) -> str:
    log.warning("partial fetch", extra={"repo": full_name, "missing": what, "error": repr(exc)})
    if isinstance(exc, RateLimited):
        return f"{exc.user_message} I couldn't load the {what} of {full_name}."
    if isinstance(exc, OmgError):
        return f"I couldn't load the {what} of {full_name} ({exc.user_message.rstrip('.')})."
    return f"I couldn't load the {what} of {full_name}."


def missing_repo_answer(exc: RepoNotFound, info: SourceInfo) -> str:
    """A repository the data doesn't hold is an answer, not a failure: say so and what would help
    (a retry can't succeed, so none is offered)."""
    if info.kind != "catalog":
        return exc.user_message
    date = f" of {info.snapshot_date.isoformat()}" if info.snapshot_date else ""
    return (f"{exc.full_name} isn't in the offline snapshot{date}, which holds only the most-starred "
            "GitHub repositories, so I can't measure it here. With GitHub access (a network "
            "connection, ideally with a GITHUB_TOKEN) I can analyze it.")


def listed_only_answer(repo: Repository, info: SourceInfo) -> str:
    """A repository known offline only from a curated list: it has a description and a category,
    but no star, activity or issue figures, so there is nothing honest to score."""
    date = f" of {info.snapshot_date.isoformat()}" if info.snapshot_date else ""
    listed = f": it is only listed in {'; '.join(repo.categories[:2])}" if repo.categories else ""
    about = f" ({repo.description.strip().rstrip('.')})" if repo.description.strip() else ""
    return (f"{repo.full_name}{about} isn't in the offline snapshot{date}{listed}, so I have no star, "
            "activity or issue figures to judge it by and can't say how well it is maintained. "
            "With GitHub access (a network connection, ideally with a GITHUB_TOKEN) I can analyze it.")


def offline_not_found(full_name: str, info: SourceInfo) -> RepoNotFound:
    """Offline, "not found" means "not in the snapshot", not "no such repository"."""
    date = f" of {info.snapshot_date.isoformat()}" if info.snapshot_date else ""
    return RepoNotFound(
        full_name,
        where=f"in the offline snapshot{date}, which only holds the most-starred repositories "
              "(live GitHub isn't available right now)",
    )
