"""Realistic structured data for synthesizer tests and the synthesis benchmark.

Facts for the named repositories are taken from the 2026-08-22 GitHub ranking snapshot the
catalog ships (stars, forks, language, last commit, description); scores and signals are
plausible values of the shape the Search Team and the Auditor produce.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from core.models import (
    Clarification,
    Comparison,
    ComparisonRow,
    DimensionScores,
    KeyMetric,
    Recommendation,
    RepoDetailData,
    RepoList,
    RepoSignals,
    RepositoryDetail,
    ResultMeta,
    ScoredRepository,
    SearchParams,
)

SNAPSHOT = date(2026, 8, 22)
NOW = datetime(2026, 8, 22, 12, 0, tzinfo=UTC)

# full name, stars, forks, language, days since last push, 12-month star growth, description, topics
STATE_LIBRARIES: list[tuple[str, int, int, str, int, int, str, list[str]]] = [
    ("pmndrs/zustand", 58592, 2184, "TypeScript", 3, 9120,
     "🐻 Bear necessities for state management in React", ["react", "state-management", "hooks"]),
    ("reduxjs/redux", 61509, 15198, "TypeScript", 2, 1210,
     "A JS library for predictable global state management", ["redux", "state-management", "javascript"]),
    ("pmndrs/jotai", 20871, 710, "TypeScript", 5, 2480,
     "👻 Primitive and flexible state management for React", ["react", "state-management", "atomic"]),
    ("mobxjs/mobx", 28102, 1800, "TypeScript", 12, 640,
     "Simple, scalable state management.", ["mobx", "reactive-programming", "state-management"]),
    ("vuejs/pinia", 14321, 1150, "TypeScript", 9, 1530,
     "🍍 Intuitive, type safe, light and flexible Store for Vue using the composition api",
     ["vue", "store", "state-management"]),
    ("statelyai/xstate", 28610, 1330, "TypeScript", 4, 1720,
     "Actor-based state management & orchestration for complex app logic.",
     ["state-machine", "statecharts", "state-management"]),
    ("reduxjs/redux-toolkit", 11080, 1230, "TypeScript", 6, 560,
     "The official, opinionated, batteries-included toolset for efficient Redux development",
     ["redux", "state-management", "react"]),
    ("pmndrs/valtio", 9650, 270, "TypeScript", 20, 410,
     "💊 Valtio makes proxy-state simple for React and Vanilla", ["react", "proxy", "state-management"]),
    ("nanostores/nanostores", 6800, 130, "JavaScript", 15, 900,
     "A tiny (265 bytes) state manager for React/RN/Preact/Vue/Svelte with many atomic tree-shakable stores",
     ["state-management", "store", "atomic"]),
    ("facebookexperimental/Recoil", 19560, 1180, "JavaScript", 900, -120,
     "Recoil is an experimental state management library for React apps.",
     ["react", "state-management"]),
    ("effector/effector", 4780, 240, "TypeScript", 30, 210,
     "Business logic with ease ☄️", ["state-management", "reactive", "business-logic"]),
    ("sveltejs/svelte", 84500, 4500, "JavaScript", 1, 5200,
     "web development for the rest of us", ["svelte", "ui", "compiler"]),
]

LANGUAGES = ["TypeScript", "JavaScript", "Python", "Go", "Rust", "Java"]
TOPICS = ["state-management", "react", "cli", "web", "database", "testing", "http"]


def scores(base: float, *, unmeasured: tuple[str, ...] = ()) -> DimensionScores:
    """Plausible per-dimension scores spread around ``base``."""
    values = {
        "maturity": base + 0.6, "activity": base + 0.4, "documentation": base - 0.3,
        "community": base + 0.2, "ease_of_use": base - 0.8, "maintenance": base,
        "relevance": base + 1.0,
    }
    clamp = {k: (0.0 if k in unmeasured else max(0.0, min(10.0, round(v, 1)))) for k, v in values.items()}
    result = DimensionScores(
        **clamp,
        overall=max(0.0, min(10.0, round(base, 1))),
        reasons={"activity": "Recent commits and releases", "maintenance": "Issues get answered"},
    )
    if unmeasured and "unmeasured" in DimensionScores.model_fields:
        result.unmeasured = list(unmeasured)
    return result


def signals(*, commits_90d: int = 120, contributors: int = 250, response_hours: float = 6.0) -> RepoSignals:
    return RepoSignals(
        releases=42, latest_release="v5.0.3", latest_release_at=NOW - timedelta(days=20),
        commits_30d=commits_90d // 3, commits_90d=commits_90d, contributors=contributors,
        open_issues_only=14, closed_issues_90d=61, open_pulls=9, merged_pulls_90d=48,
        median_first_response_hours=response_hours, has_readme=True, has_contributing=True,
        has_license=True, has_code_of_conduct=True, health_percentage=100,
    )


def repo(
    index: int = 0,
    *,
    description: str | None = None,
    with_signals: bool = True,
    base_score: float | None = None,
) -> ScoredRepository:
    """One of the state libraries above (wrapping around with synthetic owners past the list)."""
    name, stars, forks, language, idle, growth, text, topics = STATE_LIBRARIES[index % len(STATE_LIBRARIES)]
    lap = index // len(STATE_LIBRARIES)
    if lap:
        owner, short = name.split("/")
        name = f"{owner}-labs{lap}/{short}-{lap}"
        stars = max(50, stars // (lap + 1))
        language = LANGUAGES[index % len(LANGUAGES)]
        topics = [TOPICS[index % len(TOPICS)], *topics[:1]]
        idle = idle + 40 * lap
    return ScoredRepository(
        full_name=name,
        description=text if description is None else description,
        url=f"https://github.com/{name}",
        stars=stars,
        forks=forks,
        language=language,
        topics=topics,
        license="MIT",
        archived=idle > 800,
        pushed_at=NOW - timedelta(days=idle),
        created_at=datetime(2019, 4, 1, tzinfo=UTC),
        star_growth_12m=growth,
        star_growth_6m=growth // 2,
        scores=scores(base_score if base_score is not None else max(1.0, 8.6 - 0.35 * index)),
        why="Matches state management for React and is actively maintained",
        signals=signals(commits_90d=max(0, 140 - 9 * index)) if with_signals else None,
    )


def catalog_meta(query: str = "React state management", **extra: object) -> ResultMeta:
    return ResultMeta(
        source="catalog",
        snapshot_date=SNAPSHOT,
        query=query,
        search_params=SearchParams(text=query, keywords=query.lower().split(), limit=10),
        **extra,
    )


def repo_list(count: int = 5, *, meta: ResultMeta | None = None, **repo_kwargs: object) -> RepoList:
    return RepoList(items=[repo(i, **repo_kwargs) for i in range(count)], meta=meta or catalog_meta())


def repo_detail(index: int = 0, *, with_metrics: bool = True, recommendation: Recommendation | None = Recommendation.CONTRIBUTE) -> RepoDetailData:
    base = repo(index)
    metrics = [
        KeyMetric(group="overview", name="stars", label="Stars", value=f"{base.stars:,}"),
        KeyMetric(group="activity", name="commits_90d", label="Commits (last 90 days)", value="142"),
        KeyMetric(group="activity", name="commits_30d", label="Commits (last 30 days)", value=None,
                  note="not available in the offline snapshot"),
        KeyMetric(group="activity", name="last_push", label="Last push", value="3 days ago", note="2026-08-19"),
        KeyMetric(group="maintenance", name="first_response", label="Time to first response",
                  value="6 hours", note="median wait before a maintainer first replies to a recent issue"),
        KeyMetric(group="maintenance", name="merged_pulls_90d", label="Pull requests merged (last 90 days)",
                  value="48"),
        KeyMetric(group="community", name="contributors", label="Contributors", value="250"),
        KeyMetric(group="community", name="forks", label="Forks", value=f"{base.forks:,}",
                  note="copies people made to change the code"),
    ] if with_metrics else []
    detail = RepositoryDetail(
        **base.model_dump(),
        metrics=metrics,
        findings=[
            "Very active: 142 commits in the last 90 days",
            "Maintainers reply to new issues within about 6 hours",
            "Small API surface: one hook covers most use cases",
        ],
        recommendation=recommendation,
        recommendation_reasons=["Active maintainers who review pull requests within days",
                                "A contributing guide and good first issues"] if recommendation else [],
    )
    return RepoDetailData(
        repo=detail,
        analysis=f"**{base.full_name}** is a {base.language} project with {base.stars:,} stars.",
        meta=catalog_meta(base.full_name),
    )


def comparison(count: int = 2, *, need: str | None = None, **fields: object) -> Comparison:
    rows = [
        ComparisonRow(
            repo=repo(i),
            highlights=[f"Most popular: {repo(i).stars:,} stars"] if i == 1 else ["Smallest API"],
            warnings=["No release in 14 months"] if i == 2 else [],
        )
        for i in range(count)
    ]
    return Comparison(items=rows, need=need, meta=catalog_meta("compare"), **fields)


def clarification() -> Clarification:
    return Clarification(
        question="Which repository do you mean?",
        options=["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai"],
    )
