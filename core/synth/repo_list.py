"""repo_list -> intro with the count, the top 3 as full cards, the rest as compact ones, insights, a call to action."""

from __future__ import annotations

from core.models import RepoCard, RepoCardsSection, RepoList, ScoredRepository, Section, TextSection
from core.search.need import is_spoken
from core.synth.format import age, compact_number, score, sentence, truncate
from core.synth.phrases import join_words, plural
from core.synth.insights import is_scored, quality_measured, result_set_insights, strongest_dimensions
from core.synth.render_context import RenderContext

TOP_PICKS = 3
SPOKEN_SHOWN = 90  # characters of a spoken request quoted back
POOR_RELEVANCE = 3.0  # under this, a result's score for the query is mostly its quality, and the reply says so


def describe_query(data: RepoList, rc: RenderContext) -> str:
    """What was searched for: the search's own description ("react state management (TypeScript)"),
    or the user's words and the filters when they spoke a sentence, whose keywords would read as a
    jumble ("datadog invoice keeps run ourselves metrics")."""
    meta = data.meta
    if meta is not None and meta.search_params is not None:
        params = meta.search_params
        said = params.text.split(" -> ")[0].strip()
        if said and is_spoken(said):
            filters = params.describe_filters()
            quoted = truncate(said.rstrip("?.!"), SPOKEN_SHOWN)
            return f"{quoted} ({', '.join(filters)})" if filters else quoted
        described = params.describe()
        if described and described != "repositories":
            return described
    if meta is not None and meta.query:
        return meta.query
    return rc.ctx.message


def unmeasured_note(repo: ScoredRepository) -> str:
    """For a repository known only from curated lists: where it is listed, and that it has no figures."""
    where = f"listed in {repo.categories[0]}; " if repo.categories else ""
    return f"{where}no star or activity figures offline"


def unconfirmed_language(repo: ScoredRepository, language_named: str | None) -> str | None:
    """The language asked for, when ``repo`` is known only from curated lists that do not say its
    language (kept under the filter: ``core.search.relevance``)."""
    return language_named if language_named and not repo.language and not repo.figures_known else None


def facts(repo: ScoredRepository, rc: RenderContext, *, unconfirmed: str | None = None) -> str:
    parts = [f"{compact_number(repo.stars)} stars" if repo.figures_known else unmeasured_note(repo)]
    if repo.language:
        parts.append(repo.language)
    elif unconfirmed:
        parts.append(f"whether it is written in {unconfirmed} is not known offline")
    updated = age(repo.pushed_at, rc.today)
    if updated:
        parts.append(f"updated {updated}")
    if repo.archived:
        parts.append(f"**{rc.explain('archived')}**")
    return " · ".join(parts)


def why_line(repo: ScoredRepository, rc: RenderContext) -> str | None:
    parts: list[str] = []
    if repo.why.strip():
        parts.append(sentence(truncate(repo.why, rc.max_description_chars)))
    if is_scored(repo) and not quality_measured(repo) and repo.scores.relevance is not None:
        # its score would be how well it matches alone: shown as that, never as a verdict on it
        parts.append(f"Matches the request {score(repo.scores.relevance)}; nothing about the project itself is measured.")
    elif is_scored(repo):
        # the Search Team's "why" already names its strong points; otherwise we do
        strengths = [] if parts else [rc.explain(d) for d in strongest_dimensions(repo)]
        overall = f"{rc.explain('query_score')} {score(repo.scores.overall)}"  # relevance included
        if matches_poorly(repo):
            overall += f", though it matches the request poorly (relevance {score(repo.scores.relevance)})"
        if strengths:
            parts.append(f"Strongest on {join_words(strengths)}; {overall}.")
        else:
            parts.append(sentence(overall[0].upper() + overall[1:]))
    if not parts and repo.star_growth_12m:
        parts.append(f"Gained {compact_number(repo.star_growth_12m)} stars over the last 12 months.")
    return " ".join(parts) or None


def matches_poorly(repo: ScoredRepository) -> bool:
    relevance = repo.scores.relevance
    return relevance is not None and "relevance" not in repo.scores.unmeasured and relevance < POOR_RELEVANCE


def card(position: int, repo: ScoredRepository, rc: RenderContext, *, compact: bool,
         language_named: str | None = None) -> RepoCard:
    limit = rc.compact_description_chars if compact else rc.max_description_chars
    unconfirmed = unconfirmed_language(repo, language_named)
    return RepoCard(
        position=position,
        full_name=repo.full_name,
        html_url=repo.html_url,
        stars=repo.stars if repo.figures_known else None,
        language=repo.language,
        language_unconfirmed=unconfirmed is not None,
        overall=repo.scores.overall if is_scored(repo) and quality_measured(repo) else None,
        archived=repo.archived,
        facts=facts(repo, rc, unconfirmed=unconfirmed),
        description=truncate(repo.description, limit),
        why=None if compact else why_line(repo, rc),
    )


def repo_list_sections(data: RepoList, rc: RenderContext) -> list[Section]:
    """A non-empty list (empty lists are answered by ``outcomes.py``): intro, top picks as full
    cards, the rest as compact ones, insights, a call to action."""
    total = len(data.items)
    shown = data.items[: rc.max_items]
    count = plural(total, "repository", "repositories")
    poor = bool(data.meta and data.meta.closest_anyway) or all(matches_poorly(r) for r in shown)
    uncertain = bool(data.meta and data.meta.uncertain)
    if poor:
        intro = (f"None of these fits *{describe_query(data, rc)}* well: here are the closest "
                 f"**{plural(len(shown), 'repository', 'repositories')}** I found.")
    elif uncertain:
        closest = ("This **repository** is the closest I found; it is no sure match, so check it" if len(shown) == 1
                   else f"These **{plural(len(shown), 'repository', 'repositories')}** are the closest I found; "
                        f"none is a sure match, so check them")
        intro = f"Nothing fits *{describe_query(data, rc)}* clearly. {closest} against what you need."
    else:
        intro = f"Based on your query, I found **{count}** for *{describe_query(data, rc)}*."
        if total > len(shown):
            intro += f" Here are the top {len(shown)}."
    sections: list[Section] = [TextSection(markdown=intro)]
    named = data.meta.search_params.languages_said if data.meta and data.meta.search_params else None

    picks = shown[:TOP_PICKS]
    sections.append(RepoCardsSection(
        title=("Closest matches" if poor or uncertain
               else "Top pick" if len(picks) == 1 else f"Top {len(picks)} picks"),
        cards=[card(i, r, rc, compact=False, language_named=named) for i, r in enumerate(picks, 1)],
    ))
    rest = shown[TOP_PICKS:]
    if rest:
        sections.append(RepoCardsSection(
            title="More results", compact=True,
            cards=[card(i, r, rc, compact=True, language_named=named) for i, r in enumerate(rest, TOP_PICKS + 1)],
        ))

    insights = result_set_insights(data.items, rc.today, rc.explain)
    if insights and total > 1:
        scope = f"Across all {total} results" if total > len(shown) else "Across these results"
        listed = "\n".join(f"- {i}" for i in insights)
        sections.append(TextSection(markdown=f"### Insights\n_{scope}:_\n{listed}"))

    if total == 1:
        cta = f"Would you like me to analyze **{shown[0].full_name}** in depth, or search for alternatives?"
    else:
        cta = (
            "Would you like me to analyze any of these? You can say *analyze the first one* "
            "or *compare the first two*."
        )
    sections.append(TextSection(markdown=cta))
    return sections
