"""An offline turn end to end: classify + route + catalog search + synthesize (+ store).

Runs scripted conversations (search, a follow-up reference, analyze, compare, chat) through
the real app built on the offline catalog with the in-memory store. Target: turn p95 <= 30 ms.
"""

from __future__ import annotations

import asyncio
import time

from bench._util import latency_report, report
from bot.app import build_app
from core.models import ConversationKey, IncomingMessage

SCRIPTS = [
    ["find react state management libraries", "analyze the second one", "compare the first two", "thanks"],
    ["python web frameworks", "what about rust?", "analyze the first one", "hello"],
    ["popular machine learning libraries in python", "compare the first three", "tell me more"],
    ["new rust cli tools", "analyze it", "what can you do?"],
    ["compare facebook/react vs vuejs/vue", "analyze vuejs/vue", "find go http routers"],
]
ROUNDS = 12


async def run() -> None:
    started = time.perf_counter()
    app = await build_app(env={"OMG_GITHUB": "offline"}, memory=True)
    report("app start-up (catalog + classifier + agents)", (time.perf_counter() - started) * 1000, "ms")
    per_intent: dict[str, list[float]] = {}
    samples: list[float] = []
    # warm-up: first-use costs (imports, caches) are not per-turn costs
    await app.service.handle_message(IncomingMessage(
        key=ConversationKey(platform="bench", channel="warm", thread="0"), text="find react libraries"))
    for round_no in range(ROUNDS):
        for n, script in enumerate(SCRIPTS):
            key = ConversationKey(platform="bench", channel="C", thread=f"{round_no}-{n}")
            for text in script:
                t0 = time.perf_counter()
                reply = await app.service.handle_message(IncomingMessage(key=key, text=text))
                elapsed = (time.perf_counter() - t0) * 1000
                samples.append(elapsed)
                per_intent.setdefault(reply.intent.value if reply.intent else "none", []).append(elapsed)
    await app.aclose()
    print(f"  {len(samples)} turns over {ROUNDS * len(SCRIPTS)} conversations")
    latency_report("offline turn", samples, 30.0)
    for intent, values in sorted(per_intent.items()):
        latency_report(f"  {intent} turn ({len(values)})", values)


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
