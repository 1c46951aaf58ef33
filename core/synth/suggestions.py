"""Follow-up suggestions: short messages a user can send next (buttons, or numbers in the shell).

Each one is phrased so the classifier understands it when sent back as typed text, and names
real repositories from the data ("Analyze pmndrs/zustand", "Compare pmndrs/zustand vs reduxjs/redux").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from core.models import (
    Clarification,
    Comparison,
    RepoDetailData,
    RepoList,
    SearchParams,
    StructuredData,
    structured_repo_names,
)
from core.search.modifiers import POPULAR_MIN_STARS
from core.search.requests import CLOSEST_ANYWAY
from core.synth.base import SynthesisContext
from core.synth.comparison import pick_winner

MAX_SUGGESTIONS = 6
SHORT_TOPIC_WORDS = 5  # keywords of a request short enough to offer back as a broader query
START_OVER = "Start a new search"
SHOW_MORE = "Show me more results"
EXAMPLE_SEARCH = "Find React state management libraries"
WHAT_CAN_YOU_DO = "What can you do?"
POPULAR = "Refine search: only popular ones"
MAINTAINED = "Refine search: actively maintained"
POPULAR_STARS = POPULAR_MIN_STARS  # what "popular" means to the translator

RELATED_LANGUAGES = {
    "typescript": "JavaScript", "javascript": "TypeScript", "python": "Go", "go": "Rust",
    "rust": "Go", "java": "Kotlin", "kotlin": "Java", "c++": "Rust", "c": "C++", "ruby": "Python",
    "php": "JavaScript", "swift": "Kotlin", "c#": "Java", "scala": "Kotlin", "elixir": "Go",
}


def _unique(items: Iterable[str | None], limit: int = MAX_SUGGESTIONS) -> list[str]:
    seen: set[str] = set()
    out: list[str] = []
    for item in items:
        if item and item.lower() not in seen:
            seen.add(item.lower())
            out.append(item)
    return out[:limit]


def _params(data: RepoList | None) -> SearchParams | None:
    return data.meta.search_params if data is not None and data.meta is not None else None


def _other_known_repo(ctx: SynthesisContext, exclude: Iterable[str]) -> str | None:
    excluded = {name.lower() for name in exclude}
    return next((n for n in structured_repo_names(ctx.previous) if n.lower() not in excluded), None)


def after_repo_list(data: RepoList, ctx: SynthesisContext) -> list[str]:
    top = [r.full_name for r in data.items[:3]]
    params = _params(data)
    filtered = {language.lower() for language in params.languages} if params else set()
    asked = [*params.keywords, *params.phrases, params.text] if params else [ctx.message]
    query_words = " ".join(asked).lower()
    languages = Counter(r.language for r in data.items if r.language and r.language.lower() not in filtered)
    topics = Counter(
        topic for r in data.items for t in r.topics
        if (topic := t.replace("-", " ")).lower() not in query_words and len(t) > 2
    )
    suggestions: list[str | None] = [f"Analyze {name}" for name in top[:2]]
    if len(top) >= 2:
        suggestions.append(f"Compare {top[0]} vs {top[1]}")
    else:
        suggestions.append(f"Search for alternatives to {top[0]}")
    if params is not None and params.language:
        suggestions.append(_narrower(params, data))  # the user chose the language: not another one
    elif languages:
        suggestions.append(f"Refine search: {languages.most_common(1)[0][0]}")
    if topics:
        suggestions.append(f"Refine search: {topics.most_common(1)[0][0]}")
    suggestions.append(SHOW_MORE)
    return _unique(suggestions)


def _narrower(params: SearchParams, data: RepoList) -> str | None:
    """A refinement that keeps the user's language: popular ones when some results are small,
    else actively maintained ones (unless already asked for)."""
    small = any(r.figures_known and r.stars < POPULAR_STARS for r in data.items)
    if small and params.min_stars is None and params.max_stars is None:
        return POPULAR
    if params.pushed_after is None:
        return MAINTAINED
    return POPULAR if params.min_stars is None and params.max_stars is None else None


def after_repo_detail(data: RepoDetailData, ctx: SynthesisContext) -> list[str]:
    name = data.repo.full_name
    similar = _other_known_repo(ctx, [name])
    return _unique([
        f"Compare {name} vs {similar}" if similar else None,
        f"Show contribution guide for {name}",
        "Analyze another repository",
        f"Search for alternatives to {name}",
    ])


def after_comparison(data: Comparison, ctx: SynthesisContext) -> list[str]:
    names = [row.repo.full_name for row in data.items]
    winner, _ = pick_winner(data)
    another = _other_known_repo(ctx, names)
    topics = Counter(t for row in data.items for t in row.repo.topics)
    common = [t for t, count in topics.most_common(3) if count > 1]
    criteria = (
        f"Search for {common[0]} repositories" if common
        else f"Search for alternatives to {winner.full_name}"
    )
    return _unique([
        f"Analyze {winner.full_name}",
        f"Compare {winner.full_name} vs {another}" if another else None,
        "Show me more options",
        criteria,
    ])


def after_clarification(data: Clarification) -> list[str]:
    return _unique([*data.options, START_OVER], limit=MAX_SUGGESTIONS + 2)


def for_data(data: StructuredData, ctx: SynthesisContext) -> list[str]:
    if isinstance(data, RepoList):
        return after_repo_list(data, ctx) if data.items else empty_alternatives(data, ctx)
    if isinstance(data, RepoDetailData):
        return after_repo_detail(data, ctx)
    if isinstance(data, Comparison):
        return after_comparison(data, ctx) if data.items else generic(ctx)
    return after_clarification(data)


def generic(ctx: SynthesisContext) -> list[str]:
    """For conversational replies: something to do with the last results, then examples."""
    names = structured_repo_names(ctx.previous)
    asked_for_help = any(w in ctx.message.lower() for w in ("what can you do", "help"))
    return _unique([
        f"Analyze {names[0]}" if names else None,
        f"Compare {names[0]} vs {names[1]}" if len(names) > 1 else None,
        EXAMPLE_SEARCH if not names else None,
        "Compare zustand vs redux" if not names else None,
        None if asked_for_help else WHAT_CAN_YOU_DO,
    ])


def labelled_alternatives(data: RepoList | None, ctx: SynthesisContext) -> list[tuple[str, str]]:
    """(what changes, query to try) after an empty search: the closest matches anyway, broader,
    another language, fewer filters. A long request's keywords make no query worth offering (they
    are its situation's words: "run lots small services nobody notices"), so it gets none."""
    params = _params(data)
    if params is None:
        return [("An example", EXAMPLE_SEARCH), ("Something popular", "Find popular Python libraries")]
    words = [*params.phrases, *params.keywords] or params.text.split()
    topic = " ".join(words) or "popular"
    out: list[tuple[str, str]] = []
    if data is not None and data.meta is not None and data.meta.total_candidates:  # some were left out
        out.append(("The closest matches, though none fits well", CLOSEST_ANYWAY))
    short = len(words) <= SHORT_TOPIC_WORDS
    if 1 < len(words) and short:
        out.append(("Broader keywords", f"Find {' '.join(words[:-1])}"))
    if params.language:
        related = RELATED_LANGUAGES.get(params.language.lower(), "Python")
        if short:
            out.append(("Another language", f"Find {topic} in {related}"))
        out.append(("Any language", f"Find {topic} in any language" if short else f"What about {related}?"))
    elif short:
        out.append(("A specific language", f"Find {topic} in Python"))
    if params.min_stars or params.max_stars is not None or params.pushed_after or params.created_after:
        out.append(("Fewer filters", f"Find {topic} without filters"))
    return out


def empty_alternatives(data: RepoList | None, ctx: SynthesisContext) -> list[str]:
    return _unique([query for _, query in labelled_alternatives(data, ctx)] + [WHAT_CAN_YOU_DO])


def after_error(ctx: SynthesisContext) -> list[str]:
    retry = ctx.message if 0 < len(ctx.message) <= 80 else None
    return _unique([retry, WHAT_CAN_YOU_DO])
