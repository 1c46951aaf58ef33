"""Hosts and their rivals: what an add-on, component or app is made for.

"an ESLint plugin with lint rules for Svelte components" is not answered by eslint-plugin-react,
nor "a Blazor wrapper around Konva" by vue-konva, nor "an admin dashboard for Sinatra" by Rails'
ActiveAdmin: each names a host of the same kind as the one asked for (a UI framework, an editor,
a web framework, a mobile platform) and not that one. A candidate that names the asked host too
("works with React and Vue") or none of its kind (a framework-free widget) stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from core.search.language import left_behind

# each family: one host per name, its spellings after it
_FAMILIES: tuple[dict[str, tuple[str, ...]], ...] = (
    {  # UI frameworks
        "react": ("react", "reactjs", "react.js"), "vue": ("vue", "vuejs", "vue.js", "nuxt"),
        "angular": ("angular", "angularjs"), "svelte": ("svelte", "sveltekit"), "preact": ("preact",),
        "solid": ("solidjs", "solid.js"), "blazor": ("blazor",), "yew": ("yew",), "leptos": ("leptos",),
        "qwik": ("qwik",),
    },
    {  # code editors (Vim and Neovim share their plugins)
        "vscode": ("vscode", "vs code", "visual studio code"), "vim": ("vim", "neovim", "nvim"),
        "emacs": ("emacs",), "zed": ("zed",), "kakoune": ("kakoune",), "sublime": ("sublime text", "sublime"),
        "eclipse": ("eclipse",), "intellij": ("intellij", "jetbrains"),
    },
    {  # web frameworks
        "django": ("django",), "flask": ("flask",), "fastapi": ("fastapi",), "rails": ("rails",),
        "sinatra": ("sinatra",), "laravel": ("laravel",), "symfony": ("symfony",),
    },
    {"android": ("android",), "ios": ("ios",)},  # mobile platforms
)
# "react native" is a mobile framework, not React for the web
_NOT_THE_HOST = re.compile(r"\breact[\s-]+native\b", re.IGNORECASE)


def _pattern(spellings: Iterable[str]) -> re.Pattern[str]:
    words = "|".join(re.escape(s).replace(r"\ ", r"[\s-]?") for s in sorted(spellings, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{words})(?!\w)", re.IGNORECASE)


_HOSTS = [{host: _pattern(spellings) for host, spellings in family.items()} for family in _FAMILIES]
_ANY_HOST = _pattern(spelling for family in _FAMILIES for spellings in family.values() for spelling in spellings)
_NONE: tuple[frozenset[str], ...] = tuple(frozenset() for _ in _FAMILIES)


@lru_cache(maxsize=1024)
def hosts_named(text: str) -> tuple[frozenset[str], ...]:
    """Per family, the hosts ``text`` names."""
    if not _ANY_HOST.search(text):  # most texts name none: one search instead of one per host
        return _NONE
    text = _NOT_THE_HOST.sub(" ", text)
    return tuple(frozenset(host for host, pattern in family.items() if pattern.search(text)) for family in _HOSTS)


@lru_cache(maxsize=256)  # read at every fit of a search, with the same request
def hosts_asked(request: str, compared: tuple[str, ...] = ()) -> tuple[frozenset[str], ...]:
    """Per family, the hosts ``request`` asks for: those it names other than where it leaves or
    imitates them ("moving off Angular", "an alternative to VS Code", "like the Rails ones, but for
    Sinatra": ``core.search.language.left_behind``), less those it compares with (``compared``,
    ``core.search.need.Need.compared``: "something like Vim but easier")."""
    if not _ANY_HOST.search(request):
        return _NONE
    text = _NOT_THE_HOST.sub(lambda m: " " * len(m.group()), request.lower())
    gone = hosts_named(" \n ".join(compared))
    return tuple(frozenset(host for host, pattern in family.items() if host not in left
                           and any(not left_behind(text[: m.start()]) for m in pattern.finditer(text)))
                 for family, left in zip(_HOSTS, gone, strict=True))


def made_for_a_rival(asked: tuple[frozenset[str], ...], texts: Iterable[str]) -> bool:
    """Whether a candidate's ``texts`` name a host of a family the request asks for one of
    (``hosts_asked``), and none of those it asks for."""
    named = hosts_named(" \n ".join(texts))
    return any(wanted and found and not (wanted & found) for wanted, found in zip(asked, named, strict=True))
