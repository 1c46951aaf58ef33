"""README compression: untouched under 2,000 chars, extractive over it, truncation on failure."""

from __future__ import annotations

import pytest

from core.analysis.readme import (
    MAX_README_CHARS,
    TRUNCATION_MARK,
    ExtractiveCompressor,
    compress_readme,
    split_sections,
)
from tests.analysis.fixtures import README_ZUSTAND


class BrokenCompressor:
    async def compress(self, readme: str, *, max_chars: int) -> str:
        raise RuntimeError("LLM down")


class WordyCompressor:
    async def compress(self, readme: str, *, max_chars: int) -> str:
        return "summary line\n" * 1000


class EmptyCompressor:
    async def compress(self, readme: str, *, max_chars: int) -> str:
        return "   "


async def test_short_readme_is_kept_as_is() -> None:
    text = "# Tiny\n\nA short README.\n"
    assert await compress_readme(text) == text.strip()


async def test_exactly_the_limit_is_not_compressed() -> None:
    text = "x" * MAX_README_CHARS
    assert await compress_readme(text, BrokenCompressor()) == text


async def test_long_readme_keeps_title_intro_features_install_usage() -> None:
    assert len(README_ZUSTAND) > MAX_README_CHARS
    out = await compress_readme(README_ZUSTAND)
    assert len(out) <= MAX_README_CHARS
    assert out.startswith("# Zustand")
    assert "bearbones state-management solution" in out
    assert "- Tiny: under 1 kB gzipped" in out
    assert "npm install zustand" in out
    assert "import { create } from 'zustand'" in out
    assert "img.shields.io" not in out and "<p" not in out  # badges and HTML dropped
    assert "Recipe 11" not in out and "Lorem ipsum" not in out
    assert out.count("```") % 2 == 0  # code fences stay balanced


async def test_compressor_failure_falls_back_to_truncation() -> None:
    out = await compress_readme(README_ZUSTAND, BrokenCompressor())
    assert len(out) <= MAX_README_CHARS
    assert out.endswith(TRUNCATION_MARK)
    assert out.startswith("<p align")  # plain truncation of the original


async def test_empty_compressor_answer_falls_back_to_truncation() -> None:
    out = await compress_readme(README_ZUSTAND, EmptyCompressor())
    assert out.endswith(TRUNCATION_MARK) and len(out) <= MAX_README_CHARS


async def test_an_overlong_summary_is_cut_to_the_budget() -> None:
    out = await compress_readme(README_ZUSTAND, WordyCompressor())
    assert len(out) <= MAX_README_CHARS and out.endswith(TRUNCATION_MARK)


@pytest.mark.parametrize("budget", [300, 800, 2000])
async def test_extractive_respects_any_budget(budget: int) -> None:
    out = await ExtractiveCompressor().compress(README_ZUSTAND * 3, max_chars=budget)
    assert 0 < len(out) <= budget
    assert out.startswith("# Zustand")


async def test_readme_without_headings_still_compresses() -> None:
    prose = ("This project does a great many useful things for its users. " * 60).strip()
    out = await compress_readme(prose)
    assert 100 < len(out) <= MAX_README_CHARS


def test_setext_and_html_headings_are_sections() -> None:
    text = "Title\n=====\n\nIntro paragraph here.\n\n<h2>Install</h2>\n\n```\npip install x\n```\n"
    titles = [s.title for s in split_sections(text)]
    assert titles == ["Title", "Install"]


def test_hash_lines_inside_code_are_not_headings() -> None:
    text = "# Real\n\n```bash\n# just a comment\nmake\n```\n"
    assert [s.title for s in split_sections(text)] == ["Real"]
