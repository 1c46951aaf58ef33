"""The circuit breaker: open after 3 consecutive failures, half-open after 30 s, one trial call."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import BaseModel

from core.errors import CircuitOpen, LLMRejected, LLMUnavailable
from core.llm import CircuitBreaker, Delay, FunctionModel, StructuredRequest, user
from core.llm.breaker import BreakerState
from core.usage import UsageMeter, current_meter
from tests.llm.conftest import ManualClock, Rig, Sleeps, make_client


class Answer(BaseModel):
    value: int


def ask() -> StructuredRequest[Answer]:
    return StructuredRequest(task="t", messages=[user("q")], schema=Answer, timeout=2.0)


def test_breaker_state_machine() -> None:
    clock = ManualClock()
    breaker = CircuitBreaker(clock=clock)
    for _ in range(2):
        breaker.before_call()
        breaker.record_failure()
    assert breaker.state is BreakerState.CLOSED
    breaker.before_call()
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN
    with pytest.raises(CircuitOpen):
        breaker.before_call()
    clock.advance(29.9)
    assert breaker.retry_in() == pytest.approx(0.1)
    with pytest.raises(CircuitOpen):
        breaker.before_call()
    clock.advance(0.1)
    assert breaker.state is BreakerState.HALF_OPEN
    breaker.before_call()  # the one trial
    with pytest.raises(CircuitOpen):
        breaker.before_call()  # nobody else while it runs
    breaker.record_failure()
    assert breaker.state is BreakerState.OPEN  # a failed trial re-opens at once
    clock.advance(30)
    breaker.before_call()
    breaker.record_success()
    assert breaker.state is BreakerState.CLOSED and breaker.consecutive_failures == 0


def test_success_resets_the_count() -> None:
    breaker = CircuitBreaker(clock=ManualClock())
    for _ in range(2):
        breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.state is BreakerState.CLOSED


async def test_open_half_open_closed_through_the_real_sdk(rig: Rig) -> None:
    clock = ManualClock()
    client = make_client(rig.client.model, sleeps=Sleeps(), clock=clock)
    rig.server.push(*[rig.error(500)] * 9)
    for _ in range(3):
        with pytest.raises(LLMUnavailable):
            await client.run(ask())
    assert rig.server.calls == 9
    assert client.breaker.state is BreakerState.OPEN

    meter = UsageMeter()
    token = current_meter.set(meter)
    try:
        with pytest.raises(CircuitOpen):
            await client.run(ask())  # local paths serve; the server is not called
    finally:
        current_meter.reset(token)
    assert rig.server.calls == 9
    assert meter.notes == ["The language model is unavailable; I answered with my local tools."]
    assert client.metrics.count("t", "circuit_open") == 1

    clock.advance(30)
    assert client.breaker.state is BreakerState.HALF_OPEN
    rig.server.push(*[rig.error(503)] * 3)
    with pytest.raises(LLMUnavailable):
        await client.run(ask())  # the trial fails: open again
    assert client.breaker.state is BreakerState.OPEN
    with pytest.raises(CircuitOpen):
        await client.run(ask())

    clock.advance(30)
    rig.server.push_json({"value": 7})
    assert (await client.run(ask())).output.value == 7  # the trial succeeds
    assert client.breaker.state is BreakerState.CLOSED
    rig.server.push_json({"value": 8})
    assert (await client.run(ask())).output.value == 8


async def test_half_open_admits_one_trial_at_a_time() -> None:
    clock = ManualClock()
    model = FunctionModel.script(*[LLMRejected(401)] * 3)
    client = make_client(model, sleeps=Sleeps(), clock=clock)
    for _ in range(3):
        with pytest.raises(LLMRejected):
            await client.run(ask())
    clock.advance(30)
    model.push(Delay(0.05), {"value": 1})
    trial = asyncio.create_task(client.run(ask()))
    await asyncio.sleep(0.01)
    with pytest.raises(CircuitOpen):
        await client.run(ask())
    assert (await trial).output.value == 1
    assert client.breaker.state is BreakerState.CLOSED


async def test_bad_output_does_not_open_the_breaker() -> None:
    model = FunctionModel.script(*["nope"] * 8)
    client = make_client(model, sleeps=Sleeps())
    for _ in range(4):
        with pytest.raises(Exception):
            await client.run(ask())
    assert client.breaker.state is BreakerState.CLOSED
