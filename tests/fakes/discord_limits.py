"""Discord's message limits, written out independently of the adapter (the fake's test oracle)."""

from __future__ import annotations

from typing import Any


def embed_chars(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        total += len(f.get("name") or "") + len(f.get("value") or "")
    return total


def message_violations(body: dict[str, Any]) -> list[str]:
    problems: list[str] = []
    content = body.get("content") or ""
    embeds = body.get("embeds") or []
    components = body.get("components") or []
    if len(content) > 2000:
        problems.append(f"content of {len(content)} characters (max 2000)")
    if not content and not embeds and not components and "content" in body:
        problems.append("empty message")
    if len(embeds) > 10:
        problems.append(f"{len(embeds)} embeds (max 10)")
    total = 0
    for e in embeds:
        total += embed_chars(e)
        for key, cap in (("title", 256), ("description", 4096)):
            if len(e.get(key) or "") > cap:
                problems.append(f"embed {key} of {len(e[key])} characters (max {cap})")
        if len((e.get("footer") or {}).get("text") or "") > 2048:
            problems.append("embed footer over 2048 characters")
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append(f"{len(fields)} embed fields (max 25)")
        for f in fields:
            if not f.get("name") or len(f["name"]) > 256:
                problems.append(f"field name of {len(f.get('name') or '')} characters (1-256)")
            if not f.get("value") or len(f["value"]) > 1024:
                problems.append(f"field value of {len(f.get('value') or '')} characters (1-1024)")
    if total > 6000:
        problems.append(f"{total} characters across embeds (max 6000)")
    if len(components) > 5:
        problems.append(f"{len(components)} action rows (max 5)")
    seen: set[str] = set()
    for row in components:
        items = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(items) <= 5:
            problems.append(f"action row with {len(items)} components (1-5)")
        for c in items:
            label, custom_id = c.get("label") or "", c.get("custom_id")
            if len(label) > 80:
                problems.append(f"button label of {len(label)} characters (max 80)")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    problems.append(f"custom_id of {len(custom_id)} characters (1-100)")
                if custom_id in seen:
                    problems.append(f"duplicate custom_id {custom_id!r}")
                seen.add(custom_id)
    return problems
