"""Expected conditions are one WARNING line without a traceback; a bug keeps its traceback."""

from __future__ import annotations

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from core.errors import RateLimited, log_failure

log = logging.getLogger("omg.test.log_failure")


@pytest.mark.parametrize("exc", [RateLimited(), TimeoutError(), OSError("down"), RedisConnectionError()])
def test_an_expected_condition_is_one_warning_line(caplog: pytest.LogCaptureFixture, exc: Exception) -> None:
    caplog.set_level(logging.DEBUG, logger=log.name)
    log_failure(log, "turn failed", exc, conversation_id="c1")
    [record] = caplog.records
    assert record.levelno == logging.WARNING and not record.exc_info
    assert record.conversation_id == "c1"  # type: ignore[attr-defined]


def test_a_bug_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=log.name)
    try:
        {}["missing"]
    except KeyError as exc:
        log_failure(log, "turn failed", exc)
    [record] = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info


def test_an_omg_error_is_logged_by_its_code_and_friendly_sentence(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=log.name)
    log_failure(log, "turn failed", RateLimited())
    [record] = caplog.records
    assert record.error == "rate_limited"  # type: ignore[attr-defined]
    assert record.detail == "GitHub rate limit reached."  # type: ignore[attr-defined]
