"""Base class for models that cross a boundary (store, CLI JSON, adapters, LLM payloads)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    """snake_case in Python, camelCase on the wire (``fullName`` as in the specs).

    Both spellings are accepted on input; ``dump()`` writes the camelCase form.
    """

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="ignore",
        frozen=False,
    )

    def dump(self) -> dict:
        return self.model_dump(mode="json", by_alias=True, exclude_none=True)

    def dump_json(self) -> str:
        return self.model_dump_json(by_alias=True, exclude_none=True)
