"""Ids that are safe to turn into file names or Redis keys."""

from __future__ import annotations

import hashlib
import re

from core.errors import InvalidId

_SAFE = re.compile(r"^[A-Za-z0-9._:@-]{1,200}$")


def check_id(value: str) -> str:
    """Return ``value`` if it is a safe id, else raise InvalidId (no slashes, no '..', bounded)."""
    if not isinstance(value, str) or not _SAFE.fullmatch(value) or ".." in value:
        raise InvalidId()
    return value


def file_stem(value: str) -> str:
    """A fixed-length file name for an id: hashing means no id can name a path."""
    return hashlib.sha256(check_id(value).encode()).hexdigest()[:40]
