"""core/ is platform-free: it never imports a chat platform SDK."""

from __future__ import annotations

import ast
from pathlib import Path

FORBIDDEN = ("slack_bolt", "slack_sdk", "discord")
CORE = Path(__file__).resolve().parents[1] / "core"


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_core_imports_no_chat_platform_sdk() -> None:
    offenders = []
    files = sorted(CORE.rglob("*.py"))
    assert files, "core/ has no Python files?"
    for path in files:
        for module in imported_modules(path):
            if module.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(CORE.parent)} imports {module}")
    assert offenders == []
