"""docs/api.md: every example in it runs, as a doctest, from the repository's top."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_example_of_the_api_page_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the page reads a transcript of the repository
    failed, tried = doctest.testfile(str(ROOT / "docs" / "api.md"), module_relative=False,
                                     report=True)
    assert tried > 30 and failed == 0
