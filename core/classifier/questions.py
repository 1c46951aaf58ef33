"""Friendly clarifying questions (and clickable options) for every reason we ask."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from core.classifier.context import EXAMPLES, ThreadContext
from core.classifier.references import Problem, Resolution
from core.models import Intent

MAX_OPTIONS = 5
_VERB = {Intent.ANALYZE: "analyze", Intent.COMPARE: "compare", Intent.SEARCH: "search for"}
_OFFER = {
    Intent.SEARCH: "search for repositories",
    Intent.ANALYZE: "analyze a repository",
    Intent.COMPARE: "compare repositories",
    Intent.CHAT: "just chat",
}


@dataclass
class Question:
    text: str
    options: list[str] = field(default_factory=list)


def _names(context: ThreadContext, exclude: list[str] | None = None) -> list[str]:
    skip = {e.lower() for e in exclude or []}
    return [r for r in context.referents if r.lower() not in skip][:MAX_OPTIONS]


def _options(intent: Intent, names: list[str], anchor: str | None = None) -> list[str]:
    """Complete messages the user can send back as they are ("Analyze pmndrs/zustand")."""
    if intent is Intent.COMPARE:
        if anchor:
            return [f"Compare {anchor} vs {n}" for n in names][:MAX_OPTIONS]
        pairs = [f"Compare {a} vs {b}" for i, a in enumerate(names) for b in names[i + 1 :]]
        return pairs[: MAX_OPTIONS - 1] + ([f"Compare all {len(names)}"] if len(names) > 2 else [])
    return [f"Analyze {n}" for n in names]


def for_problem(intent: Intent, resolution: Resolution, context: ThreadContext) -> Question:
    verb = _VERB.get(intent, "look at")
    n = context.n_referents
    problem = resolution.problem
    if problem is Problem.OUT_OF_RANGE:
        options = _options(intent, _names(context))
        if resolution.asks_for_zeroth:
            where = (f"the list has {n} ({_span(n)})" if n else
                     "and I can't see a list in our last few messages")
            return Question(f"There is no 0th one: positions start at 1, {where}. "
                            f"Which repository should I {verb}?" + ("" if n else " (owner/name)"),
                            options or list(EXAMPLES))
        return Question(f"There is no such item: the list has only {n} "
                        f"{'repository' if n == 1 else 'repositories'} ({_span(n)}). "
                        f"Which one should I {verb}?", options)
    if problem is Problem.NO_REFERENT:
        # We only ever see the last few messages: a list may exist further up the thread.
        if intent is Intent.COMPARE:
            return Question("I can't see a list in our last few messages -- which repositories do you mean? "
                            "(owner/name, for example reduxjs/redux vs pmndrs/zustand) Or start with a search.",
                            list(EXAMPLES))
        return Question("I can't see a list in our last few messages -- which repository do you mean? "
                        "(owner/name, for example pmndrs/zustand) Or start with a search.", list(EXAMPLES))
    if problem is Problem.AMBIGUOUS:
        if intent is Intent.COMPARE:
            return Question("Which of these should I compare? Pick two or more.",
                            _options(intent, _names(context)))
        return Question(f"Which of these should I {verb}?", _options(intent, _names(context)))
    if problem is Problem.TOO_FEW:
        if resolution.repos:
            only = resolution.repos[0]
            others = _names(context, exclude=[only])
            if not others:  # a search that found one fit, or a thread that named one repository
                return Question(f"There is nothing to compare {only} with yet: it is the only repository in "
                                "our last few messages. I can analyze it, or look for alternatives first.",
                                [f"Analyze {only}", f"Search for alternatives to {only}"])
            return Question(f"What should I compare {only} with?", _options(intent, others, anchor=only))
        return Question("Which repositories should I compare? Name at least two, for example "
                        "\"redux vs zustand\".", _options(intent, _names(context)) or list(EXAMPLES[2:]))
    # NO_TARGET
    return Question("Which repository should I analyze? Give me its name or owner/name, for example "
                    "pmndrs/zustand.", _options(intent, _names(context)))


def _span(n: int) -> str:
    return "only #1" if n == 1 else f"#1 to #{n}"


def for_foreign_host(links: list[str], context: ThreadContext) -> Question:
    where = f"{links[0]} is" if len(links) == 1 else f"{', '.join(links[:-1])} and {links[-1]} are"
    return Question(f"I can only work with GitHub repositories, and {where} not on GitHub. "
                    "Is there a GitHub mirror or a similar project on GitHub I should look at? (owner/name)",
                    _context_options(context))


def for_low_confidence(top: Intent, runner_up: Intent, context: ThreadContext, message: str = "",
                       named: Sequence[str] = (), *, describes_need: bool = False) -> Question:
    """Which of the two likeliest requests was meant, with options made from the message itself
    ("Search for: our docker image is 2GB...", "Analyze docker/compose"); a message that describes
    a need is offered as a search whichever two were likeliest."""
    first, second = _OFFER.get(top), _OFFER.get(runner_up)
    if first and second and first != second:
        text = f"I'm not sure what you'd like. Should I {first}, or {second}?"
    else:
        text = "I'm not sure what you'd like. Could you rephrase or add a detail or two?"
    asked = (top, runner_up, Intent.SEARCH) if describes_need else (top, runner_up)
    offered = [option for intent in asked for option in _offer(intent, message, named)]
    options = list(dict.fromkeys([*offered, *(_context_options(context) if context.referents else [])]))
    return Question(text, options[:MAX_OPTIONS] or list(EXAMPLES))


_SEARCH_OPTION_CHARS = 200  # buttons clip their label, not the message they send


def _offer(intent: Intent, message: str, named: Sequence[str]) -> list[str]:
    if intent is Intent.SEARCH:
        need = message.strip().rstrip("?.!").strip()
        return [f"Search for: {need}"] if 0 < len(need) <= _SEARCH_OPTION_CHARS else []
    if intent is Intent.ANALYZE:
        return [f"Analyze {name}" for name in named[:2]]
    if intent is Intent.COMPARE and len(named) >= 2:
        return [f"Compare {named[0]} vs {named[1]}"]
    return []


def for_vague(context: ThreadContext, need: str = "") -> Question:
    """A request too vague to act on; ``need``: the message, when it describes one, offered back as
    a search ("Search for: we keep committing keys to the repo, ...") before any canned example."""
    offered = _offer(Intent.SEARCH, need, ()) if need else []
    if context.referents:
        return Question("Could you tell me a bit more? I can dig into one of the repositories above, "
                        "compare them, or search for something else.",
                        [*offered, *_context_options(context)][:MAX_OPTIONS])
    return Question("Could you tell me a bit more about what you're looking for? For example a topic, "
                    "a language, or a repository name.", offered or list(EXAMPLES))


def _context_options(context: ThreadContext) -> list[str]:
    names = list(context.referents)
    if not names:
        return list(EXAMPLES)
    options = [f"Analyze {name}" for name in names[:3]]
    if len(names) >= 2:
        options.append(f"Compare {names[0]} vs {names[1]}")
    return options[:MAX_OPTIONS]
