"""Abbreviations the sentence model barely reads, spelled out in the need it embeds.

all-MiniLM-L6-v2 learned its words from general text: it puts "a11y" 0.17 from "accessibility",
"tui" 0.19 from "terminal user interface" and "sbom" 0.12 from "software bill of materials", so
"a11y linter" was nearer three thousand catalog repositories than to axe-core. Descriptions use
the short forms too ("an LLM gateway", "a Rust ORM"), so the need keeps the abbreviation and adds
its meaning beside it: "a11y (accessibility) linter". Only abbreviations with one reading in a
software request are here, and only those the model reads poorly (cosine to the spelled-out form
under 0.5; "db", "gui", "vm" and "nlp" it reads well).
"""

from __future__ import annotations

import re

ABBREVIATIONS: dict[str, str] = {
    "a11y": "accessibility", "i18n": "internationalization", "l10n": "localization", "o11y": "observability",
    "k8s": "Kubernetes", "k3s": "lightweight Kubernetes", "tui": "terminal user interface",
    "tuis": "terminal user interfaces", "iac": "infrastructure as code", "e2e": "end-to-end",
    "llm": "large language model", "llms": "large language models",
    "rag": "retrieval-augmented generation", "tts": "text-to-speech", "stt": "speech-to-text",
    "asr": "speech recognition", "dsl": "domain-specific language", "hpc": "high-performance computing",
    "orm": "object-relational mapper", "orms": "object-relational mappers", "otp": "one-time password",
    "waf": "web application firewall", "sbom": "software bill of materials", "lsp": "language server protocol",
    "siem": "security information and event management", "sast": "static application security testing",
    "rbac": "role-based access control", "sso": "single sign-on", "mfa": "multi-factor authentication",
    "cdc": "change data capture", "crdt": "conflict-free replicated data type",
    "crdts": "conflict-free replicated data types", "tsdb": "time series database",
    "pwa": "progressive web app", "ssr": "server-side rendering", "ssg": "static site generator",
}
_ABBREVIATION = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ABBREVIATIONS)) + r")(?![\w-])", re.IGNORECASE)


def spelled_out(text: str) -> str:
    """``text`` with the meaning of each abbreviation in ``ABBREVIATIONS`` beside its first use:
    "k8s tui" -> "k8s (Kubernetes) tui (terminal user interface)"."""
    seen: set[str] = set()

    def gloss(match: re.Match[str]) -> str:
        short = match.group(1).lower()
        if short in seen:
            return match.group(1)
        seen.add(short)
        return f"{match.group(1)} ({ABBREVIATIONS[short]})"

    return _ABBREVIATION.sub(gloss, text)
