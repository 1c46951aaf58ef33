"""Everything the Slack adapter shows, as Block Kit: answers, progress, notes, help.

An answer is drawn from its document, section by section, never from Markdown: prose in
``markdown`` blocks (Slack renders standard Markdown itself, 12,000 characters), repository cards
as mrkdwn sections (linked name, stars, language, score, a one-line why), a comparison in a
``table`` block, a repository's overview in a markdown block, choices as buttons. Buttons:
follow-up actions, plan decisions; feedback on answers is the AI-app ``feedback_buttons``
element. ``bot.slack.blockkit`` enforces the limits and packs the blocks into messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from bot.rendering import DECIDED, DECISIONS, MAX_CARDS, PER_ROW, button_rows, card_facts, plain, split_markdown, wants_feedback
from bot.slack import blockkit as bk
from bot.slack.blockkit import Block, SlackMessage
from bot.slack.mrkdwn import escape, link
from core.models import (
    Action,
    ActionKind,
    ChoicesSection,
    PlanSection,
    RepoCard,
    RepoCardsSection,
    RepoDetailSection,
    ReportSection,
    Reply,
    Section,
    TableSection,
    TextSection,
)
from core.models.document import (
    plan_heading,
    plan_step_lines,
    section_markdown,
    sources_markdown,
    steps_markdown,
    titled_markdown,
    web_markdown,
    weighed_line,
)

ACTION_PREFIX = "omg:"
DECISION_BLOCK = "omg-decision"
FEEDBACK_BLOCK = "omg-feedback"

HELP = (
    "*oh-my-github* finds, analyzes and compares GitHub repositories.\n"
    "• Mention me in a channel: `@oh-my-github find react state management libraries`; "
    "then keep talking in the thread, no mention needed.\n"
    "• DM me the same questions.\n"
    "• `/omg <question>`: ask from anywhere, e.g. `/omg compare zustand and jotai`.\n"
    "• `/research <goal> [--quick|--deep]`: plan a research; deep plans wait for your approval.\n"
    "• Buttons under an answer continue the thread as if you had typed them."
)


def action_id(kind: ActionKind, index: int) -> str:
    return f"{ACTION_PREFIX}{kind.value}:{index}"


def parse_action_id(value: str) -> ActionKind | None:
    if not value.startswith(ACTION_PREFIX):
        return None
    kind = value[len(ACTION_PREFIX) :].split(":", 1)[0]
    try:
        return ActionKind(kind)
    except ValueError:
        return None


# -- answers ------------------------------------------------------------------------------------


def render_reply(reply: Reply, *, feedback: bool = True) -> list[SlackMessage]:
    """A core ``Reply`` as one or more Slack messages (split, never ``msg_too_long``)."""
    return bk.pack(document_blocks(reply.document), trailing_blocks(reply, feedback=feedback),
                   fallback_text(reply))


def fallback_text(reply: Reply) -> str:
    """The notification text: the answer's opening words, plain."""
    return re.sub(r"\s+", " ", plain(reply.markdown)).strip() or "Here is my answer."


def trailing_blocks(reply: Reply, *, feedback: bool = True) -> list[Block]:
    """What follows the answer on its last message: buttons, feedback, the footer."""
    trailing = _buttons(reply.actions)
    if feedback and wants_feedback(reply):
        trailing.append(feedback_block(reply))
    if reply.footer:
        trailing.append(bk.context(escape(plain(reply.footer))))
    return trailing


def document_blocks(document: Sequence[Section]) -> list[Block]:
    blocks: list[Block] = []
    for section in document:
        if isinstance(section, TextSection):
            blocks += markdown_blocks(section.markdown)
        elif isinstance(section, RepoCardsSection):
            blocks += repo_cards(section)
        elif isinstance(section, TableSection):
            blocks += table_blocks(section)
        elif isinstance(section, RepoDetailSection):
            blocks += markdown_blocks(section_markdown(section))
        elif isinstance(section, PlanSection):
            blocks += plan_blocks(section)
        elif isinstance(section, ReportSection):
            blocks += report_blocks(section)
        elif isinstance(section, ChoicesSection) and section.options and section.hint:
            blocks.append(bk.context(escape(section.hint)))
    return blocks


def plan_blocks(section: PlanSection) -> list[Block]:
    """A header, the goal and why this mode, the steps, then how to decide."""
    intro = [f"> {section.goal}", f"_Why {section.mode}:_ {section.rationale}", weighed_line(section) or ""]
    steps = [line for step in section.steps for line in plan_step_lines(step)]
    blocks = [bk.header(plan_heading(section)), *markdown_blocks("\n".join(intro)),
              *markdown_blocks("\n".join(steps))]
    if section.feedback:
        blocks.append(bk.context(f"Revised for the feedback: “{escape(section.feedback)}”"))
    return blocks + markdown_blocks(section.review or "")


def report_blocks(section: ReportSection) -> list[Block]:
    """The answer first (under a header), the confidence and run status as context, then the
    evidence, the steps and the sources (linked)."""
    facts = [f"*Confidence:* *{section.confidence}*" + (f": {escape(section.confidence_reason)}"
                                                        if section.confidence_reason else "")
             if section.confidence else "",
             "*Not checked:* " + escape("; ".join(section.not_checked)) if section.not_checked else "",
             escape(section.progress), *map(escape, section.notes)]
    blocks = [bk.header(f"Research report: {section.goal}"), *markdown_blocks(section.answer),
              *markdown_blocks(titled_markdown(section.findings)), bk.context(*facts)]
    for part in (titled_markdown(section.evidence), web_markdown(section), steps_markdown(section),
                 sources_markdown(section)):
        blocks += markdown_blocks(part)
    return blocks


def markdown_blocks(markdown: str) -> list[Block]:
    text = markdown.strip()
    return [bk.markdown(part) for part in split_markdown(text, bk.MAX_MARKDOWN_TEXT)] if text else []


def repo_cards(section: RepoCardsSection) -> list[Block]:
    shown = section.cards[:MAX_CARDS]
    blocks: list[Block] = [bk.section(f"*{escape(section.title)}*")] if section.title else []
    if section.compact:
        lines = "\n".join(repo_card(card, short=True) for card in shown)
        blocks += [bk.section(part) for part in split_markdown(lines, bk.MAX_SECTION_TEXT)]
    else:
        blocks += [bk.section(repo_card(card)) for card in shown]
    if len(section.cards) > MAX_CARDS:
        blocks.append(bk.context(f"…and {len(section.cards) - MAX_CARDS} more."))
    return blocks


def repo_card(card: RepoCard, *, short: bool = False) -> str:
    facts = card_facts(card, star=":star:", bold="*", archived=":file_cabinet: archived", text=escape)
    name = link(card.html_url, card.full_name)
    line = f"{card.position}. {name}" if short else f"{card.position}. *{name}*"
    line += "  " + " · ".join(facts)
    if short:
        return line
    why = escape(plain(card.why or card.description))
    return line + (f"\n{bk.clip(why, 400)}" if why.strip() else "")


def table_blocks(section: TableSection) -> list[Block]:
    """A table block: a header row, then a row per repository (its name links to it)."""
    header = [bk.raw_cell(title) for title in section.header]
    rows = [[bk.link_cell(cell.url, cell.text) if cell.url else bk.raw_cell(cell.text) for cell in row]
            for row in section.rows]
    settings: list[Block | None] = [{"is_wrapped": True}]
    settings += [{"align": "right"}] * (len(section.header) - 1)
    blocks: list[Block] = [bk.section(f"*{escape(section.title)}*")] if section.title else []
    return [*blocks, bk.table([header, *rows], settings)]


# -- buttons -------------------------------------------------------------------------------------


def _buttons(actions: Sequence[Action]) -> list[Block]:
    blocks: list[Block] = []
    for row in button_rows(actions):
        if row[0].kind in DECISIONS:
            blocks.append(bk.actions(DECISION_BLOCK, [
                bk.button(a.label, action_id(a.kind, i), a.value, a.style or DECISION_STYLES.get(a.kind))
                for i, a in enumerate(row)]))
            continue
        n = sum(1 for b in blocks if b["block_id"] != DECISION_BLOCK)
        blocks.append(bk.actions(f"omg-suggest-{n}", [
            bk.button(a.label, action_id(a.kind, n * PER_ROW + i), a.value, a.style) for i, a in enumerate(row)]))
    return blocks


DECISION_STYLES = {ActionKind.APPROVE: "primary", ActionKind.CANCEL: "danger"}


def feedback_block(reply: Reply) -> Block:
    """Thumbs up / down; each value carries the classification the answer was built on."""
    meta = {"intent": reply.intent.value if reply.intent else None,
            "confidence": round(reply.confidence, 3) if reply.confidence is not None else None}
    if reply.classification is not None:
        original = reply.classification.original_intent
        meta["original_intent"] = original.value if original else None
        meta["source"] = reply.classification.source
    return bk.feedback_buttons(FEEDBACK_BLOCK, action_id(ActionKind.FEEDBACK, 0),
                               json.dumps({"v": "helpful", **meta}), json.dumps({"v": "wrong", **meta}))


def feedback_value(raw: str) -> tuple[str, dict]:
    """The feedback verdict and the classification the button carried."""
    try:
        data = json.loads(raw)
    except ValueError:
        return raw, {}
    if not isinstance(data, dict):
        return raw, {}
    return str(data.pop("v", "")), data


def decided(blocks: list[Block], kind: ActionKind, user: str) -> list[Block]:
    """The plan message after a decision: its buttons replaced by who decided what."""
    icon = {ActionKind.APPROVE: ":white_check_mark:", ActionKind.REVISE: ":pencil2:", ActionKind.CANCEL: ":no_entry_sign:"}
    verb = f"{icon.get(kind, '')} {DECIDED.get(kind, 'Decided')}".strip()
    kept = [b for b in blocks if b.get("block_id") != DECISION_BLOCK]
    return [*kept, bk.context(f"{verb} by <@{user}>")][: bk.MAX_BLOCKS]


# -- notes and progress ----------------------------------------------------------------------------


def note(text: str) -> SlackMessage:
    """A short mrkdwn message ("<@U> chose: ...")."""
    return SlackMessage(text=bk.clip(plain(text), bk.MAX_FALLBACK_TEXT), blocks=[bk.section(text)])


def markdown_note(markdown: str) -> SlackMessage:
    """A short note in the core's Markdown (refusals and thanks shown to one person)."""
    return SlackMessage(text=bk.clip(plain(markdown), bk.MAX_FALLBACK_TEXT) or "…", blocks=markdown_blocks(markdown))


def chose(user: str, text: str) -> SlackMessage:
    return note(f"<@{user}> chose: *{escape(bk.clip(text, 500))}*")


def status(current: str, done: Sequence[str] = (), draft: str = "") -> SlackMessage:
    """The in-progress status message: the current step, the finished ones, streamed text."""
    blocks: list[Block] = [bk.section(f":hourglass_flowing_sand: {escape(bk.clip(current, 500))}")]
    if done:
        steps = "\n".join(f":white_check_mark: {escape(bk.clip(s, 200))}" for s in done[-5:])
        blocks.append(bk.context(steps))
    if draft.strip():
        tail = draft[-2500:]
        blocks.append(bk.markdown(("…" if len(draft) > 2500 else "") + tail))
    return SlackMessage(text=bk.clip(current, bk.MAX_FALLBACK_TEXT), blocks=blocks)
