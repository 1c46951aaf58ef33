"""What the Slack and Discord renderers decide the same way, whatever each platform draws.

Which actions get buttons and in which rows, plan decisions and their outcome, whether an answer
gets feedback buttons, star counts in card-sized form, clipping, and splitting Markdown into
parts that fit a platform's limit.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Sequence

from core.models import Action, ActionKind, RepoCard, Reply

DECISIONS = (ActionKind.APPROVE, ActionKind.REVISE, ActionKind.CANCEL)
DECIDED = {ActionKind.APPROVE: "Approved", ActionKind.REVISE: "Revision requested", ActionKind.CANCEL: "Cancelled"}
MAX_CARDS = 10  # repository cards drawn per list; the rest are counted
PER_ROW, SUGGESTION_ROWS = 5, 3


def is_plan(reply: Reply) -> bool:
    """A research plan awaiting its requester's decision (no feedback buttons on it)."""
    return any(a.kind in DECISIONS for a in reply.actions)


def wants_feedback(reply: Reply) -> bool:
    """Thumbs up / down go under answers the classifier chose, not under failures or plans."""
    return reply.error is None and reply.intent is not None and not is_plan(reply)


def button_rows(actions: Sequence[Action]) -> list[list[Action]]:
    """Rows of buttons: the plan decisions first, then suggestions and options (each once), at
    most ``SUGGESTION_ROWS`` rows of ``PER_ROW``. Feedback buttons are the platform's own."""
    decisions = [a for a in actions if a.kind in DECISIONS][:PER_ROW]
    others: list[Action] = []
    for action in actions:
        if action.kind not in (*DECISIONS, ActionKind.FEEDBACK) and all(
                (a.kind, a.value) != (action.kind, action.value) for a in others):
            others.append(action)
    others = others[: SUGGESTION_ROWS * PER_ROW]
    return ([decisions] if decisions else []) + [others[i : i + PER_ROW] for i in range(0, len(others), PER_ROW)]


def card_facts(card: RepoCard, *, star: str, bold: str, archived: str, text: Callable[[str], str]) -> list[str]:
    """A repository card's facts in a platform's marks: stars, language, score, archived."""
    facts = [f"{star} {compact(card.stars)}" if card.stars is not None else "no star figures offline"]
    facts += [text(card.language)] if card.language else ["language not known offline"] if card.language_unconfirmed else []
    facts += [f"score {bold}{card.overall:.1f}{bold}/10"] if card.overall is not None else []
    return facts + ([archived] if card.archived else [])


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def compact(n: int) -> str:
    """45_300 -> '45.3k', 1_200_000 -> '1.2M', 842 -> '842'."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 1_000:
        return f"{n / 1_000:.1f}k"
    return str(n)


FENCE = re.compile(r"^\s*(```+|~~~+)(.*)$")


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


_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
_EMPHASIS = re.compile(r"(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1|(?<![*\w])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![*\w])")


def plain(markdown: str) -> str:
    """Markdown as plain text (notification fallbacks, table cells): links keep their label."""
    text = _LINK.sub(r"\1", _IMAGE.sub(r"\1", markdown))
    text = _EMPHASIS.sub(lambda m: m.group(2) or m.group(3), text).replace("`", "")
    return re.sub(r"^\s{0,3}#{1,6}\s+", "", text, flags=re.MULTILINE)
