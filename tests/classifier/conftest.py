"""Shared fixtures: the shipped classifier (loaded once) and threads that read like chat."""

from __future__ import annotations

import pytest

from core.classifier import LocalIntentClassifier, StaticNameIndex
from core.models import (
    Clarification,
    Comparison,
    ComparisonRow,
    Message,
    RepoDetailData,
    RepositoryDetail,
    RepoList,
    ScoredRepository,
)

STATE_LIBS = ["pmndrs/zustand", "reduxjs/redux", "mobxjs/mobx", "pmndrs/jotai", "facebookexperimental/Recoil"]


def listed(names: list[str], query: str = "find react state management libraries") -> list[Message]:
    return [
        Message(role="user", content=query),
        Message(role="assistant", content="Here is what I found.",
                structured_data=RepoList(items=[ScoredRepository(full_name=n) for n in names])),
    ]


def detailed(name: str) -> list[Message]:
    return [
        Message(role="user", content=f"analyze {name}"),
        Message(role="assistant", content="Here is the analysis.",
                structured_data=RepoDetailData(repo=RepositoryDetail(full_name=name))),
    ]


def compared(names: list[str]) -> list[Message]:
    return [
        Message(role="user", content=" vs ".join(names)),
        Message(role="assistant", content="Here is the comparison.",
                structured_data=Comparison(items=[ComparisonRow(repo=ScoredRepository(full_name=n)) for n in names])),
    ]


def asked(question: str = "", options: list[str] | None = None) -> Message:
    return Message(role="assistant", content=question,
                   structured_data=Clarification(question=question, options=options or []))


@pytest.fixture(scope="session")
def classifier() -> LocalIntentClassifier:
    return LocalIntentClassifier()


@pytest.fixture
def fresh_classifier(classifier: LocalIntentClassifier) -> LocalIntentClassifier:
    """A classifier whose thresholds a test may change (shares the loaded model)."""
    return LocalIntentClassifier(classifier.trained)


@pytest.fixture(scope="session")
def names() -> StaticNameIndex:
    return StaticNameIndex(
        ["pmndrs/zustand", "reduxjs/redux", "mobxjs/mobx", "pmndrs/jotai", "vercel/next.js",
         "fastapi/fastapi", "moment/moment", "someone/zustand"],
    )
