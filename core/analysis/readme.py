"""README compression before a README is stored in a conversation.

READMEs over ``MAX_README_CHARS`` (2,000) are compressed by a ``ReadmeCompressor``. The default
is extractive and offline: the title, the first prose paragraph, feature bullets, and the
install and usage sections (first code block each), within the budget. An LLM summarizer can
implement the same protocol; if any compressor fails or returns nothing, the README is
truncated instead, so analysis never fails because of a README.
"""

from __future__ import annotations

import logging
import re
from typing import Protocol

from core.errors import is_expected

log = logging.getLogger("omg.analysis.readme")

MAX_README_CHARS = 2000
TRUNCATION_MARK = "\n\n... (truncated)"

_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$")
_HTML_HEADING = re.compile(r"^\s*<h([1-6])[^>]*>(.*?)</h\1>\s*$", re.I)
_SETEXT = re.compile(r"^\s*(=+|-+)\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_TAG = re.compile(r"<[^>]+>")
_IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_REF_DEF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_INSTALL = re.compile(r"install|setup|set up|getting started|get started|quick ?start", re.I)
_USAGE = re.compile(r"usage|example|how to use|basic use|quick ?start|tutorial", re.I)
_FEATURES = re.compile(r"feature|highlight|why|what.?s included|capabilit|overview", re.I)
_FENCE = re.compile(r"^\s*(```|~~~)")


class ReadmeCompressor(Protocol):
    async def compress(self, readme: str, *, max_chars: int) -> str:
        """A shorter README of at most ``max_chars`` characters that keeps what matters."""
        ...


class Section:
    __slots__ = ("title", "level", "lines")

    def __init__(self, title: str, level: int) -> None:
        self.title = title
        self.level = level
        self.lines: list[str] = []


class ExtractiveCompressor:
    """Keeps title, first paragraph, feature bullets, install and usage (offline, no model)."""

    max_bullets = 8
    max_code_lines = 12

    async def compress(self, readme: str, *, max_chars: int) -> str:
        return extract(readme, max_chars=max_chars, max_bullets=self.max_bullets,
                       max_code_lines=self.max_code_lines)


async def compress_readme(
    readme: str, compressor: ReadmeCompressor | None = None, *, max_chars: int = MAX_README_CHARS
) -> str:
    """``readme`` itself when short enough; else the compressor's result; else a truncation."""
    text = readme.strip()
    if len(text) <= max_chars:
        return text
    compressor = compressor or ExtractiveCompressor()
    try:
        summary = (await compressor.compress(text, max_chars=max_chars)).strip()
    except Exception as exc:  # any compressor failure (LLM or parser) must not fail the analysis
        log.warning("readme compression failed; truncating",
                    extra={"error": repr(exc)}, exc_info=not is_expected(exc))
        summary = ""
    if not summary:
        return truncate(text, max_chars)
    return summary if len(summary) <= max_chars else truncate(summary, max_chars)


def truncate(text: str, max_chars: int) -> str:
    """Cut at a line boundary when one is near, and say it was cut."""
    room = max(0, max_chars - len(TRUNCATION_MARK))
    cut = text[:room]
    newline = cut.rfind("\n")
    if newline > room * 0.6:
        cut = cut[:newline]
    return cut.rstrip() + TRUNCATION_MARK


def extract(readme: str, *, max_chars: int, max_bullets: int = 8, max_code_lines: int = 12) -> str:
    sections = split_sections(_clean(readme))
    title = next((s.title for s in sections if s.title), "")
    parts: list[str] = [f"# {title}"] if title else []
    intro = _first_paragraph(sections)
    if intro:
        parts.append(intro)
    bullets = _feature_bullets(sections, max_bullets)
    if bullets:
        parts.append("Features:\n" + "\n".join(bullets))
    used: set[int] = set()
    for label, pattern in (("Install", _INSTALL), ("Usage", _USAGE)):
        for i, section in enumerate(sections):
            if i not in used and section.title and pattern.search(section.title):
                used.add(i)
                body = _section_digest(section, max_code_lines)
                if body:
                    parts.append(f"## {section.title}\n{body}")
                break
    return _fit(parts, max_chars)


def split_sections(text: str) -> list[Section]:
    sections = [Section("", 0)]
    lines = text.splitlines()
    in_code = False
    for i, line in enumerate(lines):
        if _FENCE.match(line):
            in_code = not in_code
        heading = None if in_code else _heading(line)
        if heading is None and not in_code and _SETEXT.match(line) and sections[-1].lines:
            previous = sections[-1].lines[-1].strip()
            if previous and not _BULLET.match(previous):
                sections[-1].lines.pop()
                heading = (1 if line.strip().startswith("=") else 2, previous)
        if heading is not None:
            sections.append(Section(heading[1], heading[0]))
        else:
            sections[-1].lines.append(line)
    return [s for s in sections if s.title or any(x.strip() for x in s.lines)]


def _heading(line: str) -> tuple[int, str] | None:
    m = _HEADING.match(line)
    if m:
        return len(m.group(1)), _inline(m.group(2))
    m = _HTML_HEADING.match(line)
    if m and _inline(m.group(2)):
        return int(m.group(1)), _inline(m.group(2))
    return None


def _clean(text: str) -> str:
    text = _COMMENT.sub("", text.replace("\r\n", "\n"))
    out = []
    for line in text.splitlines():
        if _HTML_HEADING.match(line) or _FENCE.match(line):
            out.append(line)
            continue
        stripped = _IMAGE.sub("", line)
        if _REF_DEF.match(stripped):
            continue
        if line.strip() and not _TAG.sub("", stripped).strip() and not _LINK.sub("", stripped).strip():
            continue  # badge rows, image-only and tag-only lines
        out.append(_TAG.sub("", stripped) if "<" in stripped else stripped)
    return "\n".join(out)


def _inline(text: str) -> str:
    text = _LINK.sub(r"\1", _IMAGE.sub("", _TAG.sub("", text)))
    return re.sub(r"\s+", " ", text).strip(" #*_`")


def _paragraphs(lines: list[str]) -> list[list[str]]:
    paragraphs: list[list[str]] = [[]]
    in_code = False
    for line in lines:
        if _FENCE.match(line):
            in_code = not in_code
            paragraphs.append([])
            continue
        if in_code:
            continue
        if line.strip():
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return [p for p in paragraphs if p]


def _first_paragraph(sections: list[Section]) -> str:
    for section in sections[:4]:
        for para in _paragraphs(section.lines):
            if _BULLET.match(para[0]) or para[0].lstrip().startswith(("|", ">")) and len(para) == 1:
                continue
            text = _inline(" ".join(line.strip().lstrip(">").strip() for line in para))
            if len(text) >= 30:
                return text[:600]
    return ""


def _feature_bullets(sections: list[Section], limit: int) -> list[str]:
    ordered = [s for s in sections if s.title and _FEATURES.search(s.title)]
    for section in ordered:
        bullets = [_inline(_BULLET.sub("", line)) for line in section.lines if _BULLET.match(line)]
        bullets = [b for b in bullets if b]
        if bullets:
            return [f"- {b[:160]}" for b in bullets[:limit]]
    return []


def _section_digest(section: Section, max_code_lines: int) -> str:
    prose = next((" ".join(line.strip() for line in p) for p in _paragraphs(section.lines)
                  if not _BULLET.match(p[0])), "")
    code = _first_code_block(section.lines, max_code_lines)
    parts = [_inline(prose)[:300]] if prose else []
    if code:
        parts.append(code)
    return "\n".join(parts)


def _first_code_block(lines: list[str], max_lines: int) -> str:
    block: list[str] = []
    fence = ""
    for line in lines:
        if _FENCE.match(line):
            if fence:
                break
            fence = line.strip()
            continue
        if fence:
            block.append(line)
    if not fence or not block:
        return ""
    if len(block) > max_lines:
        block = block[:max_lines] + ["..."]
    closing = fence[:3]
    return "\n".join([fence, *block, closing])


def _fit(parts: list[str], max_chars: int) -> str:
    """Join parts in priority order; a part that doesn't fit is cut (prose) or skipped (code)."""
    kept: list[str] = []
    size = 0
    for part in parts:
        sep = 2 if kept else 0
        if size + sep + len(part) <= max_chars:
            kept.append(part)
            size += sep + len(part)
        elif "```" not in part and "~~~" not in part and max_chars - size - sep > 200:
            kept.append(truncate(part, max_chars - size - sep))
            size = max_chars
    return "\n\n".join(kept)
