"""The synthesizer's Markdown as Discord Markdown.

Discord renders most Markdown itself (bold, italics, links, lists, code, ``#``-``###`` headings,
block quotes), so text mostly passes through. What it does not render is adapted: tables become
aligned code blocks, deeper headings become bold lines, horizontal rules and ``<br>`` go.
"""

from __future__ import annotations

import re

from bot.rendering import FENCE, clip, plain

_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
_DEEP_HEADING = re.compile(r"^\s*#{4,6}\s+(.*)$")
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
    return plain(cell.strip()).replace("\\|", "|").strip()


def table_block(rows: list[str]) -> str:
    """A Markdown table as a monospace block (Discord has no tables)."""
    cells = [[plain_cell(c) for c in _cells(row)] for row in rows if not _TABLE_SEPARATOR.match(row)]
    if not cells:
        return ""
    width = max(len(r) for r in cells)
    cells = [[clip(c, MAX_CELL) for c in r] + [""] * (width - len(r)) for r in cells]
    widths = [max(len(r[c]) for r in cells) for c in range(width)]
    lines = ["  ".join(cell.ljust(widths[c]) for c, cell in enumerate(r)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "```\n" + "\n".join(lines).replace("```", "'''") + "\n```"


def _cells(row: str) -> list[str]:
    body = row.strip()
    body = body[1:] if body.startswith("|") else body
    body = body[:-1] if body.endswith("|") and not body.endswith("\\|") else body
    return re.split(r"(?<!\\)\|", body)
