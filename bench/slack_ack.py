"""Slack adapter: acknowledgement latency and sustained events/s through the real HTTP adapter,
and the pace of status edits.

Three processes on loopback, so the bot's event loop is measured alone: the fake Slack Web API
(``tests.fakes.slack_api``), a load generator sending signed Events API requests open-loop at a
fixed rate, and the bot (the real bolt app behind ``SlackBackend`` in HTTP mode, with the
scripted core of the Slack tests). Targets (issue 6): ack p99 <= 50 ms at 200 events/s; no
message updated faster than once per second.

    .venv/bin/python -m bench.slack_ack [--rate 200] [--seconds 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import sys
import time
from multiprocessing.connection import Connection
from typing import Any

import aiohttp

from bench._util import percentile, report
from bot.slack import SlackBackend
from bot.slack.settings import SlackSettings
from tests.fakes.slack_api import BOT_USER, TEAM, TOKEN, FakeSlackApi
from tests.slack.conftest import SECRET, sign
from tests.slack.scripted import build_bot_app

ACK_P99_TARGET_MS = 50.0
RATE_TARGET = 200.0


# -- the fake Web API, in its own process ------------------------------------------------------


def _fake_api_process(conn: Connection, refuse_streaming: bool = False) -> None:
    asyncio.run(_serve_fake(conn, refuse_streaming))


async def _serve_fake(conn: Connection, refuse_streaming: bool) -> None:
    async with FakeSlackApi() as fake:
        if refuse_streaming:  # answers take the post + update path (a comparison run)
            fake.fail("chat.startStream", "not_allowed_token_type", times=10**9)
        conn.send(fake.port)
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, conn.recv)
            if command == "stop":
                break
            conn.send(_stats(fake))
            fake.calls.clear()
            fake.messages.clear()
    conn.close()


def _stats(fake: FakeSlackApi) -> dict[str, Any]:
    return {
        "posts": len(fake.calls_to("chat.postMessage")),
        "updates": len(fake.calls_to("chat.update")),
        "streamed": len(fake.calls_to("chat.stopStream")),
        "failed": len([c for c in fake.calls if not c.ok]),
        "update_times": [times for times in fake.update_times().values()],
        "violations": len(fake.violations),
    }


# -- the load generator, in its own process ------------------------------------------------------


def _load_process(conn: Connection, url: str, rate: float, seconds: float, start_index: int) -> None:
    conn.send(asyncio.run(_generate(url, rate, seconds, start_index)))
    conn.close()


def _event_body(index: int) -> str:
    ts = f"{1_700_200_000 + index}.000100"
    return json.dumps({
        "token": "legacy", "team_id": TEAM, "api_app_id": "A1", "type": "event_callback",
        "event_id": f"EvBench{index:06d}", "event_time": int(time.time()),
        "event": {"type": "message", "user": f"U{index % 97:03d}", "text": f"hello number {index}",
                  "ts": ts, "channel": f"D{index % 50:03d}", "channel_type": "im", "team": TEAM,
                  "client_msg_id": f"bench-{index}"},
        "authorizations": [{"team_id": TEAM, "user_id": BOT_USER, "is_bot": True}],
    })


async def _generate(url: str, rate: float, seconds: float, start_index: int) -> dict[str, Any]:
    total = int(rate * seconds)
    stamp = str(int(time.time()))
    requests = []
    for n in range(total):
        body = _event_body(start_index + n)
        requests.append((body.encode(), {"Content-Type": "application/json",
                                         "X-Slack-Request-Timestamp": stamp,
                                         "X-Slack-Signature": sign(body, stamp, SECRET)}))
    latencies: list[float] = []
    errors: list[str] = []
    window = [float("inf"), 0.0]  # first send, last ack
    connector = aiohttp.TCPConnector(limit=512)
    async with aiohttp.ClientSession(connector=connector) as http:

        async def send(body: bytes, headers: dict[str, str]) -> None:
            began = time.perf_counter()
            try:
                async with http.post(url, data=body, headers=headers) as response:
                    await response.read()
                    if response.status != 200:
                        errors.append(str(response.status))
            except aiohttp.ClientError as exc:
                errors.append(type(exc).__name__)
            done = time.perf_counter()
            latencies.append((done - began) * 1000)
            window[0] = min(window[0], began)
            window[1] = max(window[1], done)

        await send(*requests[0])  # warm up the connection and bolt's auth.test
        latencies.clear()
        window[:] = [float("inf"), 0.0]
        tasks = []
        started = time.perf_counter()
        for n, (body, headers) in enumerate(requests[1:], 1):
            delay = started + n / rate - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            tasks.append(asyncio.create_task(send(body, headers)))
        await asyncio.gather(*tasks)
    return {"latencies": latencies, "errors": errors, "elapsed": window[1] - window[0],
            "sent": total - 1}


# -- the bot, here -------------------------------------------------------------------------------


async def _with_bot(api_url: str, run, **core: Any) -> Any:
    settings = SlackSettings(bot_token=TOKEN, signing_secret=SECRET, api_url=api_url,
                             host="127.0.0.1", port=0, edit_interval=1.0)
    backend = SlackBackend(build_bot_app(**core).ports, settings=settings)
    await backend.start()
    try:
        return await run(backend)
    finally:
        await backend.shutdown()


async def _ack_phase(api_url: str, rate: float, seconds: float) -> dict[str, Any]:
    async def run(backend: SlackBackend) -> dict[str, Any]:
        url = f"http://127.0.0.1:{backend.port}/slack/events"
        ctx = mp.get_context("spawn")
        parent, child = ctx.Pipe()
        loader = ctx.Process(target=_load_process, args=(child, url, rate, seconds, 0))
        loader.start()
        loop = asyncio.get_running_loop()
        result = await loop.run_in_executor(None, parent.recv)
        loader.join()
        drain_started = time.perf_counter()
        await asyncio.wait_for(backend.idle(), 60)
        result["drain_s"] = time.perf_counter() - drain_started
        return result

    return await _with_bot(api_url, run)


async def _pacing_phase(api_url: str, conversations: int) -> dict[str, Any]:
    async def run(backend: SlackBackend) -> dict[str, Any]:
        url = f"http://127.0.0.1:{backend.port}/slack/events"
        async with aiohttp.ClientSession() as http:
            for n in range(conversations):
                body = json.loads(_event_body(900_000 + n))
                body["event"]["text"] = f"find pacing test {n}"
                raw = json.dumps(body)
                stamp = str(int(time.time()))
                await http.post(url, data=raw.encode(), headers={
                    "Content-Type": "application/json", "X-Slack-Request-Timestamp": stamp,
                    "X-Slack-Signature": sign(raw, stamp, SECRET)})
        await asyncio.wait_for(backend.idle(), 60)
        return {}

    # 14 progress events, 0.2 s apart: ~3 s of work per answer
    return await _with_bot(api_url, run, step_delay=0.2, extra_steps=12)


def _peak_rate(times: list[float]) -> int:
    """The most updates of one message inside any 1-second window."""
    peak = 0
    for i, start in enumerate(times):
        peak = max(peak, sum(1 for t in times[i:] if t - start < 1.0))
    return peak


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="bench.slack_ack")
    parser.add_argument("--rate", type=float, default=RATE_TARGET)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--conversations", type=int, default=20)
    parser.add_argument("--no-stream", action="store_true", help="Slack refuses to stream: post + update")
    args = parser.parse_args(argv if argv is not None else [])
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    fake = ctx.Process(target=_fake_api_process, args=(child, args.no_stream), daemon=True)
    fake.start()
    api_url = f"http://127.0.0.1:{parent.recv()}/api/"
    try:
        ack = asyncio.run(_ack_phase(api_url, args.rate, args.seconds))
        parent.send("stats")
        ack_stats = parent.recv()
        pacing = asyncio.run(_pacing_phase(api_url, args.conversations))
        parent.send("stats")
        pace_stats = parent.recv()
    finally:
        parent.send("stop")
        fake.join(5)

    lat = ack["latencies"]
    print(f"  ack phase: {ack['sent']} DM events at {args.rate:g}/s for {args.seconds:g} s "
          f"(each answered: streamed to the asker, or status post + final chat.update)")
    report("ack latency p50", percentile(lat, 50), "ms")
    report("ack latency p99", percentile(lat, 99), "ms", ACK_P99_TARGET_MS)
    report("ack latency max", max(lat) if lat else float("nan"), "ms")
    report("sustained events/s (acked; >= 99% of offered)", len(lat) / ack["elapsed"], "ev/s",
           0.99 * args.rate, lower_is_better=False)
    report("non-200 acks / errors", float(len(ack["errors"])), "count", 0)
    report("answers streamed (chat.stopStream)", float(ack_stats["streamed"]), "count")
    report("messages posted (chat.postMessage)", float(ack_stats["posts"]), "count")
    report("backlog drained after the load in", ack["drain_s"], "s")

    times = pace_stats["update_times"]
    per_answer = [len(t) for t in times]
    gaps = [b - a for t in times for a, b in zip(t, t[1:])]
    print(f"  pacing phase: {args.conversations} concurrent answers, 14 progress events each over ~3 s, "
          f"edit interval 1 s")
    report("chat.update calls per answer (mean)", sum(per_answer) / max(1, len(per_answer)), "calls")
    report("chat.update calls per answer (max)", float(max(per_answer, default=0)), "calls")
    report("peak updates of one message in any 1 s", float(max(map(_peak_rate, times), default=0)),
           "updates", 1)
    report("smallest gap between updates of a message", min(gaps) if gaps else float("nan"), "s",
           1.0, lower_is_better=False)
    violations = ack_stats["violations"] + pace_stats["violations"]
    report("Block Kit payloads over Slack's limits", float(violations), "count", 0)


if __name__ == "__main__":
    main(sys.argv[1:])
