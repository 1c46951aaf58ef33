"""Filling ``RepoSignals`` fields from single GitHub answers (``core.github.signals`` calls these)."""

from __future__ import annotations

from core.github.payloads import GhCommunityProfile, releases_adapter
from core.github.response import GitHubResponse
from core.models import RepoSignals


def count(response: GitHubResponse) -> int:
    if response.status == 409:  # "Git Repository is empty"
        return 0
    return response.count_with_per_page_one()


def fill_releases(signals: RepoSignals, response: GitHubResponse) -> None:
    releases = response.items(releases_adapter)
    signals.releases = count(response)
    published = [r for r in releases if not r.draft]
    if published:
        signals.latest_release = published[0].tag_name or published[0].name
        signals.latest_release_at = published[0].published_at or published[0].created_at


def fill_profile(signals: RepoSignals, profile: GhCommunityProfile) -> None:
    files = profile.files
    signals.health_percentage = profile.health_percentage
    signals.has_readme = files.readme is not None
    signals.has_contributing = files.contributing is not None
    signals.has_license = files.license is not None
    signals.has_code_of_conduct = (
        files.code_of_conduct is not None or files.code_of_conduct_file is not None
    )
    signals.has_issue_template = files.issue_template is not None
    signals.has_pull_request_template = files.pull_request_template is not None


def fill_readme(signals: RepoSignals, response: GitHubResponse) -> None:
    if response.status == 404:
        signals.readme_chars = 0
        signals.has_readme = False if signals.has_readme is None else signals.has_readme
        return
    signals.readme_chars = len(response.text())
    signals.has_readme = True
