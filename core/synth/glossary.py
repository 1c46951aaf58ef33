"""Plain-language explanations of the jargon we use, each explained once per reply."""

from __future__ import annotations

from core.models import DIMENSIONS

LABELS: dict[str, str] = {
    "maturity": "maturity",
    "activity": "activity",
    "documentation": "documentation",
    "community": "community",
    "ease_of_use": "ease of use",
    "maintenance": "maintenance",
    "relevance": "relevance",
    "overall": "overall score",
    "query_score": "score for your query",
    "quality": "quality score",
    "responsiveness": "maintainer responsiveness",
    "archived": "archived",
    "forks": "forks",
    "pull_requests": "pull requests",
    "star_growth": "star growth",
    "license": "license",
}

EXPLANATIONS: dict[str, str] = {
    "maturity": "how established and stable it is",
    "activity": "how recently and how often new code lands",
    "documentation": "how well the README and guides explain it",
    "community": "how many people use it and help out",
    "ease_of_use": "how quickly you can get started",
    "maintenance": "how quickly issues and pull requests get handled",
    "relevance": "how closely it matches what you asked for",
    "overall": "weighted, out of 10",
    "query_score": "weighted, out of 10, including how well it matches",
    "quality": "weighted, out of 10; unlike a search's score it leaves out query relevance",
    "responsiveness": "how quickly maintainers reply to issues",
    "archived": "read-only: the owners no longer accept changes",
    "forks": "copies people made to work on it",
    "pull_requests": "proposed code changes",
    "star_growth": "stars gained recently, a sign of rising interest",
    "license": "the terms under which you may use the code",
}

assert set(DIMENSIONS) <= set(LABELS), "every scoring dimension needs a label"

# What a dimension rests on when the parts that give it its usual meaning were not measured (the
# score's reason says "not measured: ..."): then the explanation says what it *was* judged from, so
# "maintenance" never claims to describe issue handling that nobody looked at.
_NARROW_EXPLANATIONS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "maintenance": ((("response time", "issue closure", "PR flow"),
                     "judged only from how many issues and pull requests are open for its size; "
                     "how quickly they get handled wasn't measured"),),
    "activity": ((("commits 90d", "commits 30d"),
                  "judged only from the date of the last push; commits weren't counted"),),
    "community": ((("contributors",), "judged from forks and star growth; contributors weren't counted"),),
    "maturity": ((("age", "releases"), "judged only from its stars; age and releases weren't available"),
                 (("releases",), "judged from popularity and age; releases weren't counted")),
}


def explanation(term: str, reason: str | None = None) -> str | None:
    """The plain-language meaning of ``term``, narrowed to what ``reason`` says was measured."""
    if reason and "not measured" in reason:
        missing = reason.split("not measured", 1)[1]
        for parts, text in _NARROW_EXPLANATIONS.get(term, ()):
            if all(part in missing for part in parts):
                return text
    return EXPLANATIONS.get(term)


class Explainer:
    """Returns 'maintainer responsiveness (how quickly maintainers reply to issues)' the first
    time a term appears in a reply and just the label afterwards, so answers stay concise."""

    def __init__(self) -> None:
        self._explained: set[str] = set()

    def __call__(self, term: str, *, capitalize: bool = False, reason: str | None = None) -> str:
        label = LABELS.get(term, term.replace("_", " "))
        if capitalize:
            label = label[0].upper() + label[1:]
        return label + self.note(term, reason=reason)

    def note(self, term: str, *, reason: str | None = None) -> str:
        """Just the ' (explanation)' part, the first time; '' afterwards. ``reason`` (the score's
        reason) narrows it to what was measured."""
        text = explanation(term, reason)
        if term in self._explained or text is None:
            return ""
        self._explained.add(term)
        return f" ({text})"


def label(term: str, *, capitalize: bool = False) -> str:
    text = LABELS.get(term, term.replace("_", " "))
    return text[0].upper() + text[1:] if capitalize else text
