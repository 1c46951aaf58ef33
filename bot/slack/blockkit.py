"""Block Kit vocabulary: block builders that respect Slack's limits, and message packing.

``render.py`` decides *what* to show; this module guarantees every payload is valid: at most 50
blocks per message, 3,000 characters per section text, 75 per button
label, 2,000 per button value, 10 context elements, 12,000 characters of ``markdown`` blocks per
message (Slack's cumulative limit), one ``table`` block per message (100 rows, 20 cells), and a
bounded total of other block text per message so neither ``chat.postMessage`` nor
``chat.update`` fails with ``msg_too_long``.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot.rendering import clip, split_markdown

MAX_BLOCKS = 50
MAX_SECTION_TEXT = 3000
MAX_BUTTON_TEXT = 75
MAX_BUTTON_VALUE = 2000
MAX_ACTION_ID = 255
MAX_CONTEXT_ELEMENTS = 10
MAX_HEADER_TEXT = 150
MAX_FALLBACK_TEXT = 600
MAX_MARKDOWN_TEXT = 12000  # per markdown block and per message, all markdown blocks together
MAX_TABLE_ROWS = 100
MAX_TABLE_CELLS = 20
MESSAGE_BUDGET = 3800  # characters of block text per message (chat.update rejects ~4,000)
MIN_BUDGET = 400

Block = dict[str, Any]


class SlackMessage(BaseModel):
    """One Slack message: the notification text and its blocks."""

    text: str
    blocks: list[Block] = Field(default_factory=list)

    def args(self) -> dict[str, Any]:
        return {"text": self.text, "blocks": self.blocks}


def section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": clip(text, MAX_SECTION_TEXT)}}


def markdown(text: str) -> Block:
    """Standard Markdown that Slack renders itself (headings, lists, links, code)."""
    return {"type": "markdown", "text": clip(text, MAX_MARKDOWN_TEXT)}


def table(rows: list[list[Block]], column_settings: list[Block | None] | None = None) -> Block:
    """A table block: ``rows`` of cells (``raw_text`` / ``rich_text``), the first the header."""
    block: Block = {"type": "table", "rows": [row[:MAX_TABLE_CELLS] for row in rows[:MAX_TABLE_ROWS]]}
    if column_settings:
        block["column_settings"] = column_settings[:MAX_TABLE_CELLS]
    return block


def raw_cell(text: str) -> Block:
    return {"type": "raw_text", "text": text or "-"}


def link_cell(url: str, text: str) -> Block:
    return {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
        {"type": "link", "url": url, "text": text},
    ]}]}


def feedback_buttons(block_id: str, action_id: str, positive: str, negative: str) -> Block:
    """The AI-app thumbs up / down (a ``feedback_buttons`` element in ``context_actions``)."""
    return {"type": "context_actions", "block_id": block_id, "elements": [{
        "type": "feedback_buttons",
        "action_id": action_id[:MAX_ACTION_ID],
        "positive_button": {"text": {"type": "plain_text", "text": "Good answer"},
                            "accessibility_label": "This answer was helpful",
                            "value": positive[:MAX_BUTTON_VALUE]},
        "negative_button": {"text": {"type": "plain_text", "text": "Wrong answer"},
                            "accessibility_label": "This answer misunderstood me",
                            "value": negative[:MAX_BUTTON_VALUE]},
    }]}


def context(*texts: str) -> Block:
    elements = [{"type": "mrkdwn", "text": clip(t, MAX_SECTION_TEXT)} for t in texts if t]
    return {"type": "context", "elements": elements[:MAX_CONTEXT_ELEMENTS]}


def header(text: str) -> Block:
    return {"type": "header", "text": {"type": "plain_text", "text": clip(text, MAX_HEADER_TEXT)}}


def divider() -> Block:
    return {"type": "divider"}


def button(label: str, action_id: str, value: str, style: str | None = None) -> Block:
    element: Block = {
        "type": "button",
        "text": {"type": "plain_text", "text": clip(label, MAX_BUTTON_TEXT), "emoji": True},
        "action_id": action_id[:MAX_ACTION_ID],
        "value": value[:MAX_BUTTON_VALUE],
    }
    if style in ("primary", "danger"):
        element["style"] = style
    return element


def actions(block_id: str, buttons: list[Block]) -> Block:
    return {"type": "actions", "block_id": block_id, "elements": buttons[:25]}


def block_chars(block: Block) -> int:
    """The visible text a block carries outside ``markdown`` blocks (what counts towards a
    message's length; markdown blocks have their own budget, ``markdown_chars``)."""
    if block.get("type") == "markdown":
        return 0
    total = 0
    text = block.get("text")
    if isinstance(text, dict):
        total += len(text.get("text", ""))
    for item in block.get("fields", []) + block.get("elements", []):
        inner = item.get("text")
        total += len(inner.get("text", "")) if isinstance(inner, dict) else len(inner or "")
    for row in block.get("rows", []):
        total += sum(len(str(cell.get("text", ""))) or 20 for cell in row)
    return total


def markdown_chars(block: Block) -> int:
    return len(block.get("text", "")) if block.get("type") == "markdown" else 0


def explode(block: Block, budget: int, prose_budget: int = MAX_MARKDOWN_TEXT) -> list[Block]:
    """A mrkdwn section longer than ``budget`` (or 3,000) as several sections; a markdown block
    longer than 12,000 characters as several markdown blocks."""
    if block.get("type") == "markdown":
        text = block.get("text", "")
        limit = min(prose_budget, MAX_MARKDOWN_TEXT)
        if len(text) <= limit:
            return [block]
        return [markdown(part) for part in split_markdown(text, limit)]
    text = block.get("text", {}).get("text") if block.get("type") == "section" else None
    limit = min(budget, MAX_SECTION_TEXT)
    if not text or len(text) <= limit or block.get("fields") or block.get("accessory"):
        return [block]
    return [section(part) for part in split_markdown(text, limit)]


def pack(
    body: list[Block], trailing: list[Block], fallback: str, budget: int = MESSAGE_BUDGET,
    prose_budget: int = MAX_MARKDOWN_TEXT,
) -> list[SlackMessage]:
    """Pack blocks into as few messages as the limits allow; ``trailing`` (buttons, footer)
    goes on the last message. Each message gets a plain ``text`` fallback. ``budget`` bounds the
    text of other blocks per message, ``prose_budget`` that of markdown blocks."""
    budget = max(MIN_BUDGET, budget)
    prose_budget = max(MIN_BUDGET, min(prose_budget, MAX_MARKDOWN_TEXT))
    blocks = [part for block in body for part in explode(block, budget, prose_budget)]
    pages: list[list[Block]] = [[]]
    used = prose = 0
    for block in blocks:
        size, words = block_chars(block), markdown_chars(block)
        second_table = block.get("type") == "table" and any(b.get("type") == "table" for b in pages[-1])
        if pages[-1] and (used + size > budget or prose + words > prose_budget
                          or len(pages[-1]) >= MAX_BLOCKS or second_table):
            pages.append([])
            used = prose = 0
        pages[-1].append(block)
        used += size
        prose += words
    trailing = trailing[: MAX_BLOCKS]
    tail_size = sum(block_chars(b) for b in trailing)
    if pages[-1] and (len(pages[-1]) + len(trailing) > MAX_BLOCKS or used + tail_size > budget):
        pages.append([])
    pages[-1].extend(trailing)
    pages = [p for p in pages if p]
    total = len(pages)
    messages = []
    for index, page in enumerate(pages, 1):
        note = fallback if index == 1 else f"(continued {index}/{total}) {fallback}"
        messages.append(SlackMessage(text=clip(note, MAX_FALLBACK_TEXT), blocks=page))
    return messages or [SlackMessage(text=clip(fallback, MAX_FALLBACK_TEXT) or " ")]


_TRAILING = ("actions", "context", "context_actions")


def halve(message: SlackMessage) -> list[SlackMessage]:
    """Split a message Slack refused as too long into smaller ones (buttons stay last)."""
    body = [b for b in message.blocks if b.get("type") not in _TRAILING]
    trailing = [b for b in message.blocks if b.get("type") in _TRAILING]
    size = sum(block_chars(b) + markdown_chars(b) for b in message.blocks) or len(message.text)
    if not message.blocks:
        parts = split_markdown(message.text, max(MIN_BUDGET, len(message.text) // 2 + 1))
        return [SlackMessage(text=p) for p in parts]
    half = max(MIN_BUDGET, size // 2)
    parts = pack(body, trailing, message.text, budget=half, prose_budget=half)
    return [p.model_copy(update={"text": message.text}) for p in parts[:1]] + [
        p.model_copy(update={"text": _continued(message.text)}) for p in parts[1:]
    ]


def _continued(text: str) -> str:
    return text if text.startswith("(continued") else clip(f"(continued) {text}", MAX_FALLBACK_TEXT)
