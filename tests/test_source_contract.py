"""Every repository source implements the whole ``RepoSource`` contract, with its signatures."""

from __future__ import annotations

import inspect

import pytest

from core.catalog.source import CatalogSource
from core.github.fallback import FallbackSource
from core.github.source import GitHubSource
from core.research.factory import _NoNetwork
from core.sources.base import RepoSource
from tests.fakes.memory_source import MemorySource
from tests.fakes.search_source import SearchSource
from tests.research.fakes import FakeRepoSource

SOURCES = [CatalogSource, GitHubSource, FallbackSource, _NoNetwork, MemorySource, SearchSource, FakeRepoSource]
MEMBERS = sorted(name for name in vars(RepoSource) if not name.startswith("_"))


def _shape(function: object) -> list[tuple[str, inspect._ParameterKind, object]]:
    """Names, kinds and defaults of the parameters (annotations are strings here and there)."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]  # type: ignore[arg-type]


@pytest.mark.parametrize("source", SOURCES, ids=lambda cls: cls.__name__)
def test_a_source_implements_every_member_of_the_contract(source: type) -> None:
    assert {"info", "search", "ping", "aclose"} <= set(MEMBERS)
    for name in MEMBERS:
        declared, implemented = getattr(RepoSource, name), inspect.getattr_static(source, name, None)
        assert implemented is not None, f"{source.__name__} has no {name}"
        if callable(declared):
            assert _shape(getattr(source, name)) == _shape(declared), f"{source.__name__}.{name}"
            assert inspect.iscoroutinefunction(getattr(source, name)) == inspect.iscoroutinefunction(declared), name
