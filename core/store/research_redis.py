"""Research sessions in Redis: the ``ResearchStore`` contract shared by every bot instance.

    omg:research:s:<uuid>      hash: v (version), st (status), d (the session JSON)
    omg:research:active        set of the sessions not finished yet (what resumption scans)
    omg:research:all           sorted set of every session id, by creation time
    omg:research:wait:<conv>   the session waiting for feedback in a conversation

``save(session, expected_version=n)`` is one Lua script: it compares the stored version with
``n`` and writes (session, status, indexes) only if they match, so a decision or a checkpoint
made on any instance is a compare-and-swap, and two racing approvals -> exactly one wins
(VersionConflict for the other, which re-reads and finds the plan already approved).
Finished sessions expire after ``retention_seconds``; unfinished ones never expire.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from pydantic import ValidationError
from redis.asyncio import Redis

from core.errors import InvalidId, SessionNotFound, VersionConflict
from core.models import utcnow
from core.models.research import TERMINAL, ResearchSession, ResearchStatus
from core.store.research import check_session_id
from core.store.ids import check_id

log = logging.getLogger("omg.research.redis")

# KEYS: session hash, active set, all zset. ARGV: expected, new version, status, json, id,
# finished (0/1), retention seconds, creation score.
_SAVE = """
local stored = redis.call('HGET', KEYS[1], 'v')
local current = 0
if stored then current = tonumber(stored) end
if current ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'st', ARGV[3], 'd', ARGV[4])
if ARGV[6] == '1' then
  redis.call('SREM', KEYS[2], ARGV[5])
  redis.call('EXPIRE', KEYS[1], ARGV[7])
else
  redis.call('SADD', KEYS[2], ARGV[5])
  redis.call('PERSIST', KEYS[1])
end
redis.call('ZADD', KEYS[3], 'NX', ARGV[8], ARGV[5])
return 1
"""
_BATCH = 200


class RedisResearchStore:
    def __init__(
        self,
        client: Redis,
        *,
        prefix: str = "omg:",
        retention_seconds: float = 30 * 86400.0,
        wait_ttl_seconds: float = 7 * 86400.0,
    ) -> None:
        self._redis = client
        self._p = f"{prefix}research:"
        self._retention = max(1, int(retention_seconds))
        self._wait_ttl = max(1, int(wait_ttl_seconds))
        self._save = client.register_script(_SAVE)

    def _key(self, session_id: str) -> str:
        return f"{self._p}s:{check_session_id(session_id)}"

    async def get(self, session_id: str) -> ResearchSession:
        raw = await self._redis.hget(self._key(session_id), "d")
        session = _parse(raw, session_id)
        if session is None:
            raise SessionNotFound()
        return session

    async def save(self, session: ResearchSession, *, expected_version: int) -> ResearchSession:
        key = self._key(session.id)
        previous = (session.version, session.updated_at)
        session.version = expected_version + 1
        session.updated_at = utcnow()
        data = session.model_dump_json(by_alias=True, exclude_none=True)
        finished = "1" if session.status in TERMINAL else "0"
        try:
            written = await self._save(
                keys=[key, f"{self._p}active", f"{self._p}all"],
                args=[expected_version, session.version, session.status.value, data, session.id,
                      finished, self._retention, session.created_at.timestamp()],
            )
        except BaseException:
            session.version, session.updated_at = previous
            raise
        if not written:
            session.version, session.updated_at = previous
            raise VersionConflict()
        return session

    async def list_sessions(
        self, statuses: Collection[ResearchStatus] | None = None
    ) -> list[ResearchSession]:
        wanted = set(statuses) if statuses is not None else None
        if wanted is not None and not wanted & TERMINAL:
            ids = sorted(_text(i) for i in await self._redis.smembers(f"{self._p}active"))
        else:
            ids = [_text(i) for i in await self._redis.zrange(f"{self._p}all", 0, -1)]
        sessions: list[ResearchSession] = []
        gone: list[str] = []
        for start in range(0, len(ids), _BATCH):
            chunk = ids[start:start + _BATCH]
            async with self._redis.pipeline(transaction=False) as pipe:
                for session_id in chunk:
                    pipe.hmget(self._key(session_id), "st", "d")
                rows = await pipe.execute()
            for session_id, (status, raw) in zip(chunk, rows):
                if raw is None:
                    gone.append(session_id)  # expired: drop it from the indexes
                    continue
                if wanted is not None and _text(status) not in {s.value for s in wanted}:
                    continue
                session = _parse(raw, session_id)
                if session is not None:
                    sessions.append(session)
        if gone:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.zrem(f"{self._p}all", *gone)
                pipe.srem(f"{self._p}active", *gone)
                await pipe.execute()
        return sessions

    def _wait_key(self, conversation_id: str) -> str:
        return f"{self._p}wait:{check_id(conversation_id)}"

    async def set_feedback_wait(self, conversation_id: str, session_id: str | None) -> None:
        key = self._wait_key(conversation_id)
        if session_id is None:
            await self._redis.delete(key)
        else:
            await self._redis.set(key, check_session_id(session_id), ex=self._wait_ttl)

    async def feedback_wait(self, conversation_id: str) -> str | None:
        raw = await self._redis.get(self._wait_key(conversation_id))
        if raw is None:
            return None
        try:
            return check_session_id(_text(raw))
        except InvalidId:
            return None

    async def close(self) -> None:
        """The client is shared and closed by its owner (the app)."""


def _text(value: bytes | str | None) -> str:
    return value.decode() if isinstance(value, bytes) else (value or "")


def _parse(raw: bytes | str | None, session_id: str) -> ResearchSession | None:
    if raw is None:
        return None
    try:
        return ResearchSession.model_validate_json(raw)
    except ValidationError:
        log.warning("research session in redis unreadable", extra={"session_id": session_id})
        return None
