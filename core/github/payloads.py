"""GitHub REST payloads, typed as the wire sends them (snake_case), apart from domain models.

Only the fields we read are declared; everything else is ignored. ``convert.py`` turns these
into ``core.models`` objects.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class Payload(BaseModel):
    model_config = ConfigDict(extra="ignore")


class GhUser(Payload):
    login: str = ""
    type: str = "User"  # "User" | "Bot" | "Organization"


class GhLicense(Payload):
    key: str = ""
    spdx_id: str | None = None
    name: str = ""


class GhRepo(Payload):
    full_name: str
    description: str | None = None
    html_url: str = ""
    homepage: str | None = None
    stargazers_count: int = 0
    forks_count: int = 0
    language: str | None = None
    open_issues_count: int | None = None  # issues + pull requests
    topics: list[str] = Field(default_factory=list)
    license: GhLicense | None = None
    archived: bool = False
    disabled: bool = False
    fork: bool = False
    default_branch: str = "main"
    created_at: datetime | None = None
    updated_at: datetime | None = None
    pushed_at: datetime | None = None


class GhSearchRepos(Payload):
    total_count: int = 0
    incomplete_results: bool = False
    items: list[GhRepo] = Field(default_factory=list)


class GhRelease(Payload):
    tag_name: str = ""
    name: str | None = None
    draft: bool = False
    prerelease: bool = False
    created_at: datetime | None = None
    published_at: datetime | None = None


class GhCommit(Payload):
    sha: str


class GhContributor(Payload):
    login: str | None = None  # anonymous contributors have none
    contributions: int = 0
    type: str = "User"


class GhIssuePullRef(Payload):
    merged_at: datetime | None = None


class GhIssue(Payload):
    """An entry of ``/issues``: an issue, or a pull request when ``pull_request`` is set."""

    number: int
    state: str = "open"
    user: GhUser | None = None
    comments: int = 0
    created_at: datetime
    closed_at: datetime | None = None
    pull_request: GhIssuePullRef | None = None

    @property
    def is_pull(self) -> bool:
        return self.pull_request is not None


class GhComment(Payload):
    user: GhUser | None = None
    created_at: datetime
    author_association: str = "NONE"


class GhPull(Payload):
    number: int
    state: str = "open"
    merged_at: datetime | None = None


class GhCommunityFile(Payload):
    url: str | None = None
    html_url: str | None = None


class GhCommunityFiles(Payload):
    readme: GhCommunityFile | None = None
    contributing: GhCommunityFile | None = None
    license: GhCommunityFile | None = None
    code_of_conduct: GhCommunityFile | None = None
    code_of_conduct_file: GhCommunityFile | None = None
    issue_template: GhCommunityFile | None = None
    pull_request_template: GhCommunityFile | None = None


class GhCommunityProfile(Payload):
    health_percentage: int | None = None
    description: str | None = None
    documentation: str | None = None
    files: GhCommunityFiles = Field(default_factory=GhCommunityFiles)


class GhError(Payload):
    message: str = ""
    documentation_url: str | None = None


releases_adapter = TypeAdapter(list[GhRelease])
commits_adapter = TypeAdapter(list[GhCommit])
contributors_adapter = TypeAdapter(list[GhContributor])
issues_adapter = TypeAdapter(list[GhIssue])
comments_adapter = TypeAdapter(list[GhComment])
pulls_adapter = TypeAdapter(list[GhPull])


class GhSearchCount(Payload):
    """Any search answer when only the count matters (``per_page=1``)."""

    total_count: int = 0
    incomplete_results: bool = False
