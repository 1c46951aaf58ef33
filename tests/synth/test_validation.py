"""Structured data is validated against the union; bad data is logged and answered kindly."""

from __future__ import annotations

import json
import logging

from core.models import Intent, RepoList, ScoredRepository
from tests.synth.factories import repo_list

INVALID_SNIPPET = "format I didn't expect"


def test_valid_model_is_accepted_and_returned(run) -> None:
    out = run(repo_list(3))
    assert out.error_code is None and isinstance(out.data, RepoList)
    assert [r.full_name for r in out.data.items] == ["pmndrs/zustand", "reduxjs/redux", "pmndrs/jotai"]


def test_plain_dict_in_camel_case_is_accepted(run) -> None:
    data = json.loads(repo_list(2).dump_json())  # what an agent reading JSON would hand over
    assert "fullName" in data["items"][0]
    out = run(data)
    assert out.error_code is None and isinstance(out.data, RepoList)
    assert "pmndrs/zustand" in out.markdown


def test_snake_case_dict_is_accepted(run) -> None:
    out = run({"type": "clarification", "question": "Which one?", "options": ["a/b"]})
    assert out.error_code is None and "Which one?" in out.markdown


def test_invalid_dict_is_logged_with_the_data_and_answered_kindly(run, caplog) -> None:
    bad = {"type": "repo_list", "items": [{"stars": "lots", "description": "marker-123"}]}
    with caplog.at_level(logging.WARNING, logger="omg.synth"):
        out = run(bad)
    assert out.error_code == "invalid_data" and out.data is None
    assert INVALID_SNIPPET in out.markdown and "Traceback" not in out.markdown
    record = next(r for r in caplog.records if r.getMessage() == "invalid structured data from agent")
    assert "marker-123" in record.offending_data
    assert "fullName" in record.validation_errors and "stars" in record.validation_errors
    assert out.suggestions  # the user still gets something to do next


def test_unknown_type_and_junk_are_rejected(run) -> None:
    for junk in [{"type": "poem", "text": "roses"}, ["a", "list"], "a string", 42, {"items": []}]:
        out = run(junk)
        assert out.error_code == "invalid_data", junk


def test_model_built_without_validation_is_revalidated(run) -> None:
    broken = RepoList.model_construct(items=[ScoredRepository.model_construct(full_name=None, stars=-3)])
    out = run(broken)
    assert out.error_code == "invalid_data"


def test_huge_invalid_payload_is_truncated_in_the_log(run, caplog) -> None:
    bad = {"type": "repo_list", "items": [{"fullName": None, "description": "y" * 50_000}]}
    with caplog.at_level(logging.WARNING, logger="omg.synth"):
        out = run(bad)
    assert out.error_code == "invalid_data"
    record = next(r for r in caplog.records if hasattr(r, "offending_data"))
    assert len(record.offending_data) < 2_100 and "chars)" in record.offending_data


def test_no_data_skips_validation(run) -> None:
    out = run(None, intent=Intent.CHAT, text="Hello!")
    assert out.markdown == "Hello!" and out.error_code is None and out.data is None
