"""What the classifier may know about the thread: at most the last 3 messages, never more."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from core.models import Clarification, Message, RepoDetailData, structured_repo_names

CONTEXT_MESSAGES = 3
# Sample requests offered when there is nothing to pick from: they name no result of the thread.
EXAMPLES = (
    "Find React state management libraries",
    "Analyze pmndrs/zustand",
    "Compare redux vs zustand",
)
_NAME_IN_OPTION = re.compile(r"(?<![\w/.:-])([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9_.-]*[A-Za-z0-9_-])(?![\w/])")
_ASKED = (
    ("analyze", re.compile(r"analy[sz]|look at|dig into|details", re.I)),
    ("compare", re.compile(r"compar|side by side| vs ", re.I)),
    ("search", re.compile(r"search|looking for|find|language|topic|kind of", re.I)),
)


@dataclass(frozen=True)
class ThreadContext:
    """The slice of history the classifier uses.

    ``data_type``: type of the latest structured data in the window ("none" if there is none).
    ``referents``: full names of the latest results that list repositories (what "the second one"
    counts over). ``focus``: the single repository the thread is about (a repo_detail, or the
    only item of a list), which "it" and "tell me more" refer to. ``asked``: what the bot's
    last clarification was about ("analyze", "compare", "search") when it was asking.
    """

    messages: tuple[Message, ...] = ()
    data_type: str = "none"
    referents: tuple[str, ...] = ()
    focus: str | None = None
    asked: str | None = None
    previous_user: str | None = None
    has_history: bool = False
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def n_referents(self) -> int:
        return len(self.referents)

    @property
    def known_names(self) -> tuple[str, ...]:
        """Repositories a bare name may point at in this thread (the focus, then the listing)."""
        if self.focus and self.focus not in self.referents:
            return (self.focus, *self.referents)
        return self.referents


def build_context(history: Sequence[Message]) -> ThreadContext:
    """Read the window newest first: the latest data sets ``data_type``; a repo_detail sets the
    ``focus``; ordinals count over the latest *listing* (a search, a comparison, or a question's
    repository options), even when an analysis of one of its items came after it, so
    "analyze the second one" then "compare the first two" both count over the search results."""
    window = tuple(history[-CONTEXT_MESSAGES:]) if history else ()
    data_type = "none"
    referents: tuple[str, ...] = ()
    focus: str | None = None
    asked: str | None = None
    for message in reversed(window):
        data = message.structured_data
        if data is None:
            continue
        first = data_type == "none"
        if first:
            data_type = data.type
        if isinstance(data, Clarification):
            if first:
                asked = _asked_about(f"{data.question} {message.content}")
            options = _option_names(data.options)
            if options:
                referents = options
                break
            continue  # "which one?" refers to the results before the question
        names = tuple(n for n in structured_repo_names(data) if n)
        if not names:
            continue
        if isinstance(data, RepoDetailData):
            if focus is None:
                focus = names[0]
            continue  # keep looking for the listing the analysed repository came from
        referents = names
        if len(names) == 1 and focus is None:
            focus = names[0]
        break
    if not referents and focus:
        referents = (focus,)
    previous_user = next((m.content for m in reversed(window) if m.role == "user"), None)
    return ThreadContext(
        messages=window,
        data_type=data_type,
        referents=referents,
        focus=focus,
        asked=asked,
        previous_user=previous_user,
        has_history=bool(window),
    )


def _option_names(options: Sequence[str]) -> tuple[str, ...]:
    """Repositories a question offered, in order: "pmndrs/zustand", "Analyze pmndrs/zustand",
    "Compare a/b vs c/d" (the sample requests offered when nothing was listed do not count)."""
    if all(option.strip() in EXAMPLES for option in options):
        return ()
    seen: dict[str, str] = {}
    for option in options:
        for name in _NAME_IN_OPTION.findall(option):
            seen.setdefault(name.lower(), name)
    return tuple(seen.values())


def _asked_about(text: str) -> str | None:
    for intent, pattern in _ASKED:
        if pattern.search(text):
            return intent
    return None
