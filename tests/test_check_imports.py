"""A cold ``referee check`` imports only what checking needs: not rich (tables are drawn
only for ``--knowledge``), click or Lark (a rule file compiled before comes from the
disk cache)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GAME = Path(__file__).parent / "transcripts" / "go-fish" / "whole-game.txt"


def test_a_check_imports_neither_rich_nor_click_nor_lark(tmp_path: Path) -> None:
    script = ("import sys\n"
              f"sys.argv = ['referee', 'check', {str(GAME)!r}]\n"
              "from referee.cli.entry import main\n"
              "try:\n    main()\nexcept SystemExit as done:\n    status = done.code\n"
              "print(status, sorted({m.split('.')[0] for m in sys.modules}\n"
              "                     & {'rich', 'click', 'lark'}), file=sys.stderr)\n")
    env = {"REFEREE_CACHE_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"}
    for _ in range(2):  # the first compiles the rule file (with Lark) into the cache
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                              check=False, timeout=60, env=env)
    assert done.stderr.strip().endswith("0 []"), done.stderr
