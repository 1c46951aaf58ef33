"""The refit command shared by the intent and research-mode models."""

from __future__ import annotations

import pytest

from core.textmodel.refit import refit_command


def run(argv: list[str], *, current: bool, refits: list[str]) -> int:
    def refit() -> str:
        refits.append("refit")
        return "wrote model.npz"

    return refit_command(argv, prog="python -m demo", description=None, model="demo model",
                         fingerprint=lambda: "abc123", is_current=lambda fp: current and fp == "abc123", refit=refit)


@pytest.mark.parametrize(("current", "code", "word"), [(True, 0, "is current"), (False, 1, "is STALE or missing")])
def test_check_reports_the_shipped_model_and_refits_nothing(capsys: pytest.CaptureFixture[str], current: bool,
                                                            code: int, word: str) -> None:
    refits: list[str] = []
    assert run(["--check"], current=current, refits=refits) == code
    assert capsys.readouterr().out.strip() == f"shipped demo model {word} (fingerprint abc123)"
    assert refits == []


def test_without_check_it_refits_and_prints_what_the_refit_reports(capsys: pytest.CaptureFixture[str]) -> None:
    refits: list[str] = []
    assert run([], current=False, refits=refits) == 0
    assert refits == ["refit"] and capsys.readouterr().out.strip() == "wrote model.npz"
