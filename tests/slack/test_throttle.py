"""core.pacing: at most one edit per message per interval, latest wins, in order, Retry-After."""

from __future__ import annotations

import asyncio

import pytest

from core.pacing.budget import EditBudget
from core.pacing.editor import CoalescingEditor, RetryAfter
from tests.slack.virtual_time import VirtualTime


class Recorder:
    def __init__(self, time: VirtualTime) -> None:
        self.time = time
        self.edits: list[tuple[str, str, float]] = []
        self.failures: list[Exception] = []  # raised once each, in order, before succeeding
        self.duration = 0.0

    async def __call__(self, ref: str, content: str) -> None:
        if self.duration:
            await self.time.sleep(self.duration)
        if self.failures:
            raise self.failures.pop(0)
        self.edits.append((ref, content, self.time.now))

    def contents(self, ref: str = "m") -> list[str]:
        return [c for r, c, _ in self.edits if r == ref]

    def gaps(self, ref: str = "m") -> list[float]:
        times = [t for r, _, t in self.edits if r == ref]
        return [b - a for a, b in zip(times, times[1:])]


@pytest.fixture
def time() -> VirtualTime:
    return VirtualTime()


@pytest.fixture
def recorder(time: VirtualTime) -> Recorder:
    return Recorder(time)


@pytest.fixture
def editor(time: VirtualTime, recorder: Recorder) -> CoalescingEditor[str, str]:
    return CoalescingEditor(recorder, min_interval=1.0, clock=time.clock, sleep=time.sleep)


async def test_a_burst_is_coalesced_into_one_edit_with_the_latest_content(editor, recorder, time):
    editor.open("m")
    for n in range(10):
        editor.submit("m", f"step {n}")
        await time.advance(0.05)
    assert recorder.edits == []  # the first progress edit waits a second after the post
    await time.advance(1.0)
    assert recorder.contents() == ["step 9"]


async def test_edits_are_at_least_an_interval_apart_and_in_order(editor, recorder, time):
    editor.open("m")
    for n in range(50):
        editor.submit("m", f"{n:02d}")
        await time.advance(0.13)
    await time.advance(2.0)
    contents = recorder.contents()
    assert contents == sorted(contents) and contents[-1] == "49"
    assert all(gap >= 1.0 for gap in recorder.gaps())
    assert 5 <= len(contents) <= 8  # ~6.5 s of updates -> about one edit per second


async def test_a_final_answer_goes_out_at_once_when_nothing_was_edited_yet(editor, recorder, time):
    editor.open("m")
    editor.submit("m", "progress")
    await time.advance(0.1)
    await editor.finish("m", "answer")
    assert recorder.contents() == ["answer"]
    assert recorder.edits[0][2] == pytest.approx(0.1)
    assert len(editor) == 0


async def test_a_final_answer_waits_for_the_interval_after_the_last_edit(editor, recorder, time):
    editor.open("m")
    editor.submit("m", "progress 1")
    await time.advance(1.0)
    assert recorder.contents() == ["progress 1"]
    editor.submit("m", "progress 2")
    finishing = asyncio.create_task(editor.finish("m", "answer"))
    await time.advance(0.5)
    assert not finishing.done()
    await time.advance(0.6)
    await finishing
    assert recorder.contents() == ["progress 1", "answer"]  # progress 2 was superseded
    assert recorder.gaps() == [pytest.approx(1.0)]


async def test_updates_during_a_slow_edit_are_sent_after_it_in_order(editor, recorder, time):
    recorder.duration = 0.8
    editor.open("m")
    editor.submit("m", "a")
    await time.advance(1.1)  # edit "a" started at 1.0 and is in flight
    editor.submit("m", "b")
    editor.submit("m", "c")
    finishing = asyncio.create_task(editor.finish("m", "final"))
    await time.advance(3.0)
    await finishing
    assert recorder.contents() == ["a", "final"]


async def test_retry_after_is_honoured_and_the_latest_content_is_retried(editor, recorder, time):
    recorder.failures = [RetryAfter(3)]
    editor.open("m")
    editor.submit("m", "one")
    await time.advance(1.0)  # the attempt at t=1 is rate limited until t=4
    editor.submit("m", "two")
    await time.advance(2.5)
    assert recorder.edits == []
    await time.advance(1.0)
    assert recorder.contents() == ["two"]
    assert recorder.edits[0][2] >= 4.0


async def test_a_final_answer_that_stays_rate_limited_raises(time, recorder):
    editor = CoalescingEditor(recorder, min_interval=1.0, max_retries=2, clock=time.clock,
                              sleep=time.sleep)
    recorder.failures = [RetryAfter(1)] * 3
    finishing = asyncio.create_task(editor.finish("m", "answer"))
    await time.advance(5)
    with pytest.raises(RetryAfter):
        await finishing


async def test_a_failed_progress_edit_does_not_stop_later_ones(editor, recorder, time):
    recorder.failures = [RuntimeError("boom")]
    editor.open("m")
    editor.submit("m", "one")
    await time.advance(1.0)
    editor.submit("m", "two")
    await time.advance(1.0)
    assert recorder.contents() == ["two"]


async def test_a_failed_final_edit_raises_to_the_caller(editor, recorder, time):
    recorder.failures = [ValueError("msg_too_long")]
    with pytest.raises(ValueError):
        await editor.finish("m", "answer")


async def test_messages_are_paced_independently(editor, recorder, time):
    editor.open("m")
    editor.open("n")
    editor.submit("m", "m1")
    editor.submit("n", "n1")
    await time.advance(1.0)
    assert sorted(c for _, c, _ in recorder.edits) == ["m1", "n1"]


async def test_submit_after_finish_is_ignored_and_discard_drops_pending(editor, recorder, time):
    await editor.finish("m", "answer")
    editor.submit("m", "late")  # a new pacing state, never the finished message's content
    editor.discard("m")
    await time.advance(2.0)
    assert recorder.contents() == ["answer"]


async def test_aclose_cancels_pending_work(editor, recorder, time):
    editor.open("m")
    editor.submit("m", "pending")
    await editor.aclose()
    await time.advance(2.0)
    assert recorder.edits == [] and len(editor) == 0


async def test_a_finished_message_edited_again_is_still_paced(editor, recorder, time):
    await editor.finish("m", "plan")
    await time.advance(0.3)
    finishing = asyncio.create_task(editor.finish("m", "plan, approved"))
    await time.advance(0.5)
    assert not finishing.done()
    await time.advance(0.5)
    await finishing
    assert recorder.contents() == ["plan", "plan, approved"] and recorder.gaps() == [pytest.approx(1.0)]


async def test_two_finals_for_one_message_are_sent_in_turn(editor, recorder, time):
    first = asyncio.create_task(editor.finish("m", "one"))
    second = asyncio.create_task(editor.finish("m", "two"))
    await time.advance(2.0)
    await asyncio.gather(first, second)
    assert recorder.contents() == ["one", "two"] and recorder.gaps() == [pytest.approx(1.0)]


async def test_a_workspace_budget_holds_progress_across_messages_but_never_the_answer(recorder, time):
    budget = EditBudget(limit=3, window=10.0, clock=time.clock)
    editor = CoalescingEditor(recorder, min_interval=1.0, clock=time.clock, sleep=time.sleep,
                              budget=budget, group=lambda ref: "T1")
    for ref in ("a", "b", "c", "d"):
        editor.open(ref)
        editor.submit(ref, f"{ref} step 1")
    await time.advance(1.5)
    assert len(recorder.edits) == 3  # the fourth message's progress waits for a slot
    editor.submit("d", "d step 2")
    done = asyncio.ensure_future(editor.finish("a", "a answer"))
    await time.advance(1.5)
    assert done.done() and "a answer" in recorder.contents("a")  # answers never wait
    assert recorder.contents("d") == []
    await time.advance(9.0)  # the window moves on: d shows its latest step only
    assert recorder.contents("d") == ["d step 2"]
    assert budget.used("T1") <= 4


async def test_a_group_budget_limits_edits_across_the_messages_of_a_channel(time: VirtualTime):
    recorder = Recorder(time)
    editor: CoalescingEditor[tuple[str, str], str] = CoalescingEditor(
        lambda ref, content: recorder(f"{ref[0]}:{ref[1]}", content), min_interval=1.0,
        clock=time.clock, sleep=time.sleep, budget=EditBudget(limit=5, window=5.0, clock=time.clock),
        group=lambda ref: ref[0])
    messages = [("C1", f"m{n}") for n in range(4)] + [("C2", "m0")]
    for second in range(10):  # every message gets new progress every second, for 10 s
        for ref in messages:
            editor.submit(ref, f"step {second}")
        await time.advance(1.0)
    await time.advance(10.0)
    channel_one = sorted(t for ref, _, t in recorder.edits if ref.startswith("C1:"))
    assert all(b - a >= 5.0 for a, b in zip(channel_one, channel_one[5:]))  # <= 5 per 5 s
    assert len(channel_one) >= 9  # the budget is used, not starved
    for n in range(4):  # each message ends on its latest step (coalesced, nothing lost)
        assert recorder.contents(f"C1:m{n}")[-1] == "step 9"
    assert len(recorder.contents("C2:m0")) >= 9  # another channel is not held back
    await editor.aclose()
