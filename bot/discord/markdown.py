"""The synthesizer's Markdown as Discord Markdown, and splitting it into message-sized parts.

Discord renders most Markdown itself (bold, italics, links, lists, code, ``#``-``###`` headings,
block quotes), so text mostly passes through. What it does not render is adapted: tables become
aligned code blocks, deeper headings become bold lines, horizontal rules and ``<br>`` go.
"""

from __future__ import annotations

import re

FENCE = re.compile(r"^\s*(```+|~~~+)(.*)$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_DEEP_HEADING = re.compile(r"^\s*#{4,6}\s+(.*)$")
_LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_EMPHASIS = re.compile(r"(\*\*|__|\*|_|`)(.+?)\1")
MAX_CELL = 28


def to_discord(markdown: str) -> str:
    lines = markdown.replace("\r\n", "\n").replace("<br>", "\n").replace("<br/>", "\n").split("\n")
    out: list[str] = []
    i, fence = 0, None
    while i < len(lines):
        line = lines[i]
        opener = FENCE.match(line)
        if fence is not None:  # inside a code block: untouched until its closing fence
            out.append(line)
            if opener and opener.group(1)[0] == fence[0]:
                fence = None
            i += 1
            continue
        if opener:
            fence = opener.group(1)
            out.append(line)
            i += 1
            continue
        if _is_table_start(lines, i):
            end = i
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            out.append(table_block(lines[i:end]))
            i = end
            continue
        if _RULE.match(line):
            out.append("")
        elif heading := _DEEP_HEADING.match(line):
            out.append(f"**{heading.group(1).strip()}**")
        else:
            out.append(line)
        i += 1
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


def _is_table_start(lines: list[str], i: int) -> bool:
    return (i + 1 < len(lines) and lines[i].strip().startswith("|")
            and _TABLE_SEPARATOR.match(lines[i + 1]) is not None)


def plain_cell(cell: str) -> str:
    text = _LINK.sub(r"\1", cell.strip())
    for _ in range(3):
        text = _EMPHASIS.sub(r"\2", text)
    return text.replace("\\|", "|").strip()


def table_block(rows: list[str]) -> str:
    """A Markdown table as a monospace block (Discord has no tables)."""
    cells = [[plain_cell(c) for c in _cells(row)] for row in rows if not _TABLE_SEPARATOR.match(row)]
    if not cells:
        return ""
    width = max(len(r) for r in cells)
    cells = [[_clip(c, MAX_CELL) for c in r] + [""] * (width - len(r)) for r in cells]
    widths = [max(len(r[c]) for r in cells) for c in range(width)]
    lines = ["  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "```\n" + "\n".join(lines).replace("```", "'''") + "\n```"


def _cells(row: str) -> list[str]:
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return re.split(r"(?<!\\)\|", body)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# -- splitting -------------------------------------------------------------------------------------


def split_markdown(text: str, limit: int) -> list[str]:
    """Parts of at most ``limit`` characters, cut between paragraphs where possible, then
    between lines, then between words; a code block cut in two is closed and reopened."""
    text = text.strip()
    if not text:
        return []
    if len(text) <= limit:
        return [text]
    parts: list[str] = []
    current = ""
    for block in _blocks(text):
        candidate = f"{current}\n\n{block}" if current else block
        if len(candidate) <= limit:
            current = candidate
            continue
        if current:
            parts.append(current)
            current = ""
        if len(block) <= limit:
            current = block
        else:
            pieces = _split_block(block, limit)
            parts.extend(pieces[:-1])
            current = pieces[-1]
    if current:
        parts.append(current)
    return parts


def _blocks(text: str) -> list[str]:
    """Paragraphs; a fenced code block stays one block even across blank lines."""
    blocks: list[str] = []
    current: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        opener = FENCE.match(line)
        if opener:
            fence = None if fence is not None else opener.group(1)
        if not line.strip() and fence is None:
            if current:
                blocks.append("\n".join(current))
                current = []
            continue
        current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _split_block(block: str, limit: int) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    fence: str | None = None  # the opening line of the code block we are inside

    def size(lines: list[str]) -> int:
        return sum(len(x) + 1 for x in lines)

    def flush() -> None:
        nonlocal current
        if not current:
            return
        closing = ["```"] if fence is not None else []
        parts.append("\n".join(current + closing))
        current = [fence] if fence is not None else []

    for line in _short_lines(block.split("\n"), limit - 24):
        reserve = 4 if fence is not None or FENCE.match(line) else 0
        if size(current) + len(line) + reserve > limit and current and current != [fence]:
            flush()
        current.append(line)
        opener = FENCE.match(line)
        if opener:
            fence = None if fence is not None else line.strip()
    if current and current != [fence]:
        parts.append("\n".join(current + (["```"] if fence is not None else [])))
    return parts or [block[:limit]]


def _short_lines(lines: list[str], limit: int) -> list[str]:
    out: list[str] = []
    limit = max(20, limit)
    for line in lines:
        while len(line) > limit:
            cut = line.rfind(" ", 0, limit)
            cut = cut if cut > limit // 2 else limit
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    return out
