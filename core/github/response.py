"""One GitHub response as the rest of the package sees it, plus ``Link`` header helpers."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlsplit

from pydantic import BaseModel, TypeAdapter

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

_LINK = re.compile(r'<([^>]*)>\s*;\s*rel="([^"]+)"')


def parse_link(header: str | None) -> dict[str, str]:
    """``Link: <url>; rel="next", <url>; rel="last"`` -> {"next": url, "last": url}."""
    return {rel: url for url, rel in _LINK.findall(header or "")}


def page_number(url: str | None) -> int | None:
    if not url:
        return None
    values = parse_qs(urlsplit(url).query).get("page")
    try:
        return int(values[0]) if values else None
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class GitHubResponse:
    status: int
    body: bytes
    headers: Mapping[str, str] = field(default_factory=dict)  # lower-case names
    cached: bool = False  # served from the cache (fresh, revalidated by a 304, or stale)

    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def model(self, model: type[M]) -> M:
        return model.model_validate_json(self.body)

    def items(self, adapter: TypeAdapter[T]) -> T:
        return adapter.validate_json(self.body or b"[]")

    @property
    def links(self) -> dict[str, str]:
        return parse_link(self.headers.get("link"))

    def count_with_per_page_one(self) -> int:
        """The number of items when the request asked for ``per_page=1``.

        With one item per page the ``last`` page number *is* the item count; without a ``Link``
        header everything fit on this page (zero or one item).
        """
        last = page_number(self.links.get("last"))
        if last is not None:
            return last
        body = self.json()
        return len(body) if isinstance(body, list) else 0
