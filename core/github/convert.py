"""Wire payloads -> domain models (``core.models``)."""

from __future__ import annotations

from core.github.payloads import GhLicense, GhRepo
from core.models import Repository


def license_name(license: GhLicense | None) -> str | None:
    if license is None:
        return None
    if license.spdx_id and license.spdx_id != "NOASSERTION":
        return license.spdx_id
    return license.name or None  # "Other" when GitHub could not identify it


def to_repository(repo: GhRepo) -> Repository:
    return Repository(
        full_name=repo.full_name,
        description=(repo.description or "").strip(),
        url=repo.html_url or f"https://github.com/{repo.full_name}",
        stars=repo.stargazers_count,
        forks=repo.forks_count,
        language=repo.language,
        open_issues=repo.open_issues_count,
        topics=list(repo.topics),
        license=license_name(repo.license),
        archived=repo.archived or repo.disabled,
        fork=repo.fork,
        homepage=repo.homepage or None,
        created_at=repo.created_at,
        pushed_at=repo.pushed_at,
    )
