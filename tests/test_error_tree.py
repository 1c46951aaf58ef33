"""The exception tree drawn in core/errors.py is the one in the code: every OmgError subclass
anywhere in core/ or bot/ appears in the drawing, under its real parent, with its own unique code."""

from __future__ import annotations

import importlib
import pkgutil
import re

import bot
import core
import core.errors
from core.errors import OmgError

DRAWN = re.compile(r"^\s*[│ ]*(?:[├└]── )?([A-Z]\w+)", re.MULTILINE)


def _import_everything() -> None:
    for package in (core, bot):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):  # running it would start the bot
                importlib.import_module(module.name)


def _subclasses(cls: type[OmgError]) -> list[type[OmgError]]:
    found = []
    for sub in cls.__subclasses__():
        found += [sub, *_subclasses(sub)]
    return found


def _drawing() -> list[tuple[int, str]]:
    """(depth, class name) for each line of the tree in core.errors' docstring."""
    doc = core.errors.__doc__ or ""
    lines = doc[doc.index("    OmgError"):].split("\n\n", 1)[0].splitlines()
    drawn = []
    for line in lines:
        name = DRAWN.match(line)
        assert name, line
        prefix = line[: name.start(1)]
        drawn.append(((len(prefix) - 4) // 5, name.group(1)))
    return drawn


def _parents(drawing: list[tuple[int, str]]) -> dict[str, str]:
    parents, stack = {}, []
    for depth, name in drawing:
        del stack[depth:]
        if stack:
            parents[name] = stack[-1]
        stack.append(name)
    return parents


def test_every_error_class_is_drawn_under_its_parent() -> None:
    _import_everything()
    parents = _parents(_drawing())
    classes = _subclasses(OmgError)
    assert classes
    for cls in classes:
        assert cls.__name__ in parents, f"{cls.__module__}.{cls.__name__} is missing from the tree"
        assert parents[cls.__name__] == cls.__bases__[0].__name__, cls.__name__
    assert set(parents) == {cls.__name__ for cls in classes}, "the drawing names a class that no longer exists"


def test_every_error_class_has_its_own_unique_code() -> None:
    _import_everything()
    codes: dict[str, str] = {"internal": "OmgError"}
    for cls in _subclasses(OmgError):
        code = cls.__dict__.get("code")
        assert isinstance(code, str) and re.fullmatch(r"[a-z]+(_[a-z]+)*", code), cls.__name__
        assert code not in codes, f"{cls.__name__} reuses {codes.get(code)}'s code {code!r}"
        codes[code] = cls.__name__
