"""Realistic repositories for the analysis tests (numbers shaped like real GitHub projects)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from core.agents.base import AgentContext
from core.models import (
    Classification,
    CollectingSink,
    Conversation,
    ConversationKey,
    Intent,
    Repository,
    RepoSignals,
    StructuredData,
)
from tests.fakes.memory_source import MemorySource

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)


def clock() -> datetime:
    return NOW


def days_ago(n: float) -> datetime:
    return NOW - timedelta(days=n)


README_ZUSTAND = """<p align="center"><img src="bear.jpg" /></p>

[![Build Status](https://img.shields.io/github/actions/workflow/status/pmndrs/zustand/test.yml)](https://github.com/pmndrs/zustand/actions)
[![npm](https://img.shields.io/npm/v/zustand)](https://www.npmjs.com/package/zustand)

# Zustand

A small, fast and scalable bearbones state-management solution using simplified flux principles.
Has a comfy API based on hooks, isn't boilerplatey or opinionated.

## Features

- Tiny: under 1 kB gzipped
- No providers needed
- Works with React concurrent mode
- Transient updates without re-renders

## Installation

Install it from npm:

```bash
npm install zustand
```

## Usage

First create a store. Your store is a hook!

```jsx
import { create } from 'zustand'

const useBearStore = create((set) => ({
  bears: 0,
  increasePopulation: () => set((state) => ({ bears: state.bears + 1 })),
}))
```

## Recipes

""" + "\n\n".join(
    f"### Recipe {i}\n\n" + "Lorem ipsum dolor sit amet, consectetur adipiscing elit. " * 4
    for i in range(12)
)


def zustand() -> tuple[Repository, RepoSignals, str]:
    repo = Repository(
        full_name="pmndrs/zustand", description="Bear necessities for state management in React",
        stars=58_592, forks=2_184, language="TypeScript", open_issues=6, license="MIT",
        topics=["react", "state-management", "hooks"], created_at=days_ago(7 * 365),
        pushed_at=days_ago(2), star_growth_6m=1_510, star_growth_12m=4_417,
    )
    signals = RepoSignals(
        releases=120, latest_release="v5.0.8", latest_release_at=days_ago(20), commits_30d=25,
        commits_90d=84, contributors=290, open_issues_only=3, closed_issues_90d=45, open_pulls=3,
        merged_pulls_90d=52, median_first_response_hours=4.0, has_readme=True,
        has_contributing=True, has_license=True, has_code_of_conduct=False,
        has_issue_template=True, has_pull_request_template=False, health_percentage=75,
    )
    return repo, signals, README_ZUSTAND


def redux() -> tuple[Repository, RepoSignals, str]:
    repo = Repository(
        full_name="reduxjs/redux", description="A JS library for predictable and maintainable "
        "global state management", stars=61_400, forks=15_200, language="TypeScript",
        open_issues=45, license="MIT", created_at=days_ago(11 * 365), pushed_at=days_ago(9),
        star_growth_12m=600,
    )
    signals = RepoSignals(
        releases=95, latest_release="v5.0.1", latest_release_at=days_ago(400), commits_30d=3,
        commits_90d=12, contributors=980, open_issues_only=40, closed_issues_90d=8, open_pulls=5,
        merged_pulls_90d=6, median_first_response_hours=30.0, has_readme=True,
        has_contributing=True, has_license=True, has_code_of_conduct=True, health_percentage=100,
    )
    return repo, signals, "# Redux\n\nPredictable state container.\n\n## Installation\n\n```\nnpm install redux\n```\n"


def jotai() -> tuple[Repository, RepoSignals, str]:
    repo = Repository(
        full_name="pmndrs/jotai", description="Primitive and flexible state management for React",
        stars=20_100, forks=680, language="TypeScript", open_issues=4, license="MIT",
        created_at=days_ago(5 * 365), pushed_at=days_ago(1), star_growth_12m=2_100,
    )
    signals = RepoSignals(
        releases=200, latest_release="v2.10.3", latest_release_at=days_ago(6), commits_30d=40,
        commits_90d=120, contributors=230, open_issues_only=2, closed_issues_90d=30, open_pulls=6,
        merged_pulls_90d=70, median_first_response_hours=2.0, has_readme=True,
        has_contributing=False, has_license=True, health_percentage=62,
    )
    return repo, signals, "# Jotai\n\nPrimitive and flexible state management.\n\n## Usage\n\n```js\nconst a = atom(1)\n```\n"


def abandoned() -> tuple[Repository, RepoSignals, None]:
    repo = Repository(
        full_name="old/flux-store", description="Flux store, no longer maintained", stars=900,
        forks=40, language="JavaScript", open_issues=120, license=None,
        created_at=days_ago(10 * 365), pushed_at=days_ago(800), star_growth_12m=-5,
    )
    signals = RepoSignals(
        releases=0, commits_30d=0, commits_90d=0, contributors=2, open_issues_only=110,
        closed_issues_90d=0, open_pulls=10, merged_pulls_90d=0,
        median_first_response_hours=900.0, has_readme=True, has_contributing=False,
        has_license=False, has_code_of_conduct=False,
    )
    return repo, signals, None


def simple(name: str, stars: int, *, commits_90d: int = 10, language: str = "Python") -> tuple[Repository, RepoSignals, str]:
    repo = Repository(full_name=name, description=f"{name} does things", stars=stars, forks=stars // 10,
                      language=language, license="Apache-2.0", created_at=days_ago(3 * 365),
                      pushed_at=days_ago(3))
    signals = RepoSignals(commits_90d=commits_90d, commits_30d=commits_90d // 3, releases=10,
                          latest_release="v1.0.0", latest_release_at=days_ago(30), contributors=15)
    return repo, signals, f"# {name}\n\nDoes things.\n"


def rich_source(*extra: tuple) -> MemorySource:
    source = MemorySource(kind="github")
    for repo, signals, readme in (zustand(), redux(), jotai(), abandoned(), *extra):
        source.add(repo, signals, readme)
    return source


def context(
    message: str, repos: list[str] | None = None, *, intent: Intent = Intent.ANALYZE,
    previous: StructuredData | None = None,
) -> tuple[AgentContext, CollectingSink]:
    sink = CollectingSink()
    ctx = AgentContext(
        message=message,
        classification=Classification(intent=intent, confidence=0.95, repos=repos or []),
        conversation=Conversation(id="t", key=ConversationKey(platform="test", channel="c", thread="t")),
        previous=previous,
        progress=sink,
    )
    return ctx, sink
