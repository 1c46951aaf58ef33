"""Markdown <-> Slack text: the core's Markdown to Slack ``mrkdwn``, user text back to plain text.

Slack's ``mrkdwn`` is not Markdown: bold is ``*x*``, italic ``_x_``, strike ``~x~``, links
``<url|label>``, no headings and no tables, and ``&``, ``<``, ``>`` must be escaped. Code spans
and fenced blocks are kept verbatim (escaped); tables become preformatted, aligned text.
"""

from __future__ import annotations

import re

_FENCE = re.compile(r"^\s*```")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_CODE_SPAN = re.compile(r"`[^`\n]+`")
_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_AUTOLINK = re.compile(r"<(https?://[^>\s]+)>")
_BOLD = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_ITALIC_STAR = re.compile(r"(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_PLACEHOLDER = re.compile("\x00(\\d+)\x00")

_SLACK_LINK = re.compile(r"<((?:https?|mailto):[^>|]+)(?:\|([^>]*))?>")
_SLACK_USER = re.compile(r"<@([UW][A-Z0-9]+)(?:\|[^>]*)?>")
_SLACK_CHANNEL = re.compile(r"<#([CG][A-Z0-9]+)(?:\|([^>]*))?>")
_SLACK_SPECIAL = re.compile(r"<!([a-z]+)(?:\|[^>]*)?>")


def escape(text: str) -> str:
    """Escape Slack's three control characters (for any text we send)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def link(url: str, label: str) -> str:
    """A Slack link; ``|`` and ``>`` cannot appear inside one, so they are dropped/escaped."""
    safe_url = url.replace(">", "%3E").replace("|", "%7C").replace(" ", "%20")
    return f"<{safe_url}|{escape(label.replace('|', '/'))}>"


def to_mrkdwn(markdown: str) -> str:
    """Convert the core's Markdown to Slack mrkdwn."""
    out: list[str] = []
    lines = markdown.replace("\r\n", "\n").split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            block, i = _take_fenced(lines, i)
            out.append(block)
            continue
        if _TABLE_ROW.match(line):
            rows: list[str] = []
            while i < len(lines) and _TABLE_ROW.match(lines[i]):
                rows.append(lines[i])
                i += 1
            out.append(table_to_text(rows))
            continue
        out.append(_convert_line(line))
        i += 1
    return "\n".join(out).strip("\n")


def _take_fenced(lines: list[str], start: int) -> tuple[str, int]:
    body: list[str] = []
    i = start + 1
    while i < len(lines) and not _FENCE.match(lines[i]):
        body.append(lines[i])
        i += 1
    text = "\n".join(body)
    return f"```\n{escape(text)}\n```", i + 1  # Slack shows a language tag literally: drop it


def _convert_line(line: str) -> str:
    if _RULE.match(line):
        return "──────────"
    heading = _HEADING.match(line)
    if heading:
        title = _strip_emphasis(heading.group(1))
        return f"*{convert_inline(title)}*" if title else ""
    bullet = _BULLET.match(line)
    if bullet:
        indent = len(bullet.group(1).replace("\t", "    "))
        mark = "•" if indent < 2 else "◦"
        return f"{' ' * (indent * 2)}{mark} {convert_inline(bullet.group(2))}"
    quote = re.match(r"^\s*>\s?(.*)$", line)
    if quote:
        return f">{convert_inline(quote.group(1))}"
    return convert_inline(line)


def convert_inline(text: str) -> str:
    """Inline Markdown (code, links, bold, italic, strike) to mrkdwn, escaping the rest."""
    kept: list[str] = []

    def keep(value: str) -> str:
        kept.append(value)
        return f"\x00{len(kept) - 1}\x00"

    text = _CODE_SPAN.sub(lambda m: keep(escape(m.group(0))), text)
    text = _IMAGE.sub(lambda m: keep(link(m.group(2), m.group(1) or m.group(2))), text)
    text = _LINK.sub(lambda m: keep(link(m.group(2), _strip_emphasis(m.group(1)))), text)
    text = _AUTOLINK.sub(lambda m: keep(link(m.group(1), m.group(1))), text)
    text = escape(text)
    text = _BOLD.sub(lambda m: keep(f"*{m.group(2)}*"), text)
    text = _ITALIC_STAR.sub(r"_\1_", text)
    text = _STRIKE.sub(r"~\1~", text)
    while _PLACEHOLDER.search(text):
        text = _PLACEHOLDER.sub(lambda m: kept[int(m.group(1))], text)
    return text


def _strip_emphasis(text: str) -> str:
    text = _BOLD.sub(r"\2", text)
    text = _ITALIC_STAR.sub(r"\1", text)
    return _STRIKE.sub(r"\1", text)


def plain(markdown: str) -> str:
    """Markdown as plain text (for notification fallbacks and cells): links keep their label."""
    text = _IMAGE.sub(r"\1", markdown)
    text = _LINK.sub(r"\1", text)
    text = _strip_emphasis(text).replace("`", "")
    return re.sub(r"^\s{0,3}#{1,6}\s+", "", text, flags=re.MULTILINE)


def table_to_text(rows: list[str], max_width: int = 24) -> str:
    """A Markdown table as an aligned, preformatted block (Slack has no tables)."""
    cells = [
        [plain(c.strip()) for c in row.strip().strip("|").split("|")]
        for row in rows
        if not _TABLE_SEPARATOR.match(row)
    ]
    if not cells:
        return ""
    width = max(len(r) for r in cells)
    cells = [r + [""] * (width - len(r)) for r in cells]
    cells = [[c if len(c) <= max_width else c[: max_width - 1] + "…" for c in r] for r in cells]
    widths = [max(len(r[col]) for r in cells) for col in range(width)]
    lines = ["  ".join(c.ljust(widths[k]) for k, c in enumerate(r)).rstrip() for r in cells]
    if len(lines) > 1:
        lines.insert(1, "  ".join("-" * w for w in widths))
    return "```\n" + escape("\n".join(lines)) + "\n```"


def from_slack(text: str, *, bot_user_id: str | None = None) -> str:
    """A user's Slack message as plain text for the core: the bot mention removed, links
    unwrapped (``<https://x|x>`` -> ``https://x``), entities unescaped."""
    if bot_user_id:
        text = re.sub(rf"<@{re.escape(bot_user_id)}(?:\|[^>]*)?>", " ", text)
    text = _SLACK_LINK.sub(
        lambda m: m.group(1) if m.group(1).startswith("http") else m.group(2) or m.group(1), text
    )
    text = _SLACK_USER.sub(r"@\1", text)
    text = _SLACK_CHANNEL.sub(lambda m: f"#{m.group(2) or m.group(1)}", text)
    text = _SLACK_SPECIAL.sub(r"@\1", text)
    return re.sub(r"[ \t]{2,}", " ", unescape(text)).strip()


def mentions(text: str, user_id: str | None) -> bool:
    return bool(user_id) and re.search(rf"<@{re.escape(user_id or '')}(?:\|[^>]*)?>", text) is not None


def addressed_to_someone_else(text: str, user_id: str | None) -> bool:
    """A message that opens with a mention of another person ("@alice what do you think?")."""
    opening = _SLACK_USER.match(text.lstrip())
    return opening is not None and opening.group(1) != user_id


def split_text(text: str, limit: int) -> list[str]:
    """Split mrkdwn into chunks of at most ``limit`` characters: at paragraphs, then lines, then
    words; a code block cut in two is closed and reopened; links are never cut."""
    if limit < 40:
        raise ValueError("limit too small")
    chunks: list[str] = []
    rest = text.strip("\n")
    while len(rest) > limit:
        budget = limit - 4  # room to close a fence
        cut = _cut_point(rest, budget)
        head, rest = rest[:cut].rstrip(), rest[cut:].lstrip("\n ")
        if head.count("```") % 2 == 1:  # cut inside a code block: close it here, reopen next
            head += "\n```"
            rest = "```\n" + rest
        chunks.append(head)
    if rest.strip():
        chunks.append(rest)
    return chunks


def _cut_point(text: str, budget: int) -> int:
    window = text[:budget]
    for separator in ("\n\n", "\n", " "):
        at = window.rfind(separator)
        if at > budget // 3:
            at = _outside_link(window, at)
            if at > budget // 3:
                return at
    return _outside_link(window, budget) or budget


def _outside_link(text: str, at: int) -> int:
    opened = text.rfind("<", 0, at)
    if opened > text.rfind(">", 0, at):
        return opened
    return at
