"""Build: the package, its grammar and rule files, and (where a C compiler and Python's
headers are found) the per-event modules compiled with mypyc (referee/compiled.py).

``REFEREE_NO_COMPILE=1`` builds pure Python; an editable install is never compiled
(build_support/referee_build.py), so that edits to the source take effect.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "referee"))
from compiled import COMPILED  # noqa: E402 (the list lives beside the modules)

sys.path.pop(0)


def _can_compile() -> bool:
    if os.environ.get("REFEREE_NO_COMPILE"):
        return False
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    compiler = sysconfig.get_config_var("CC") or "cc"
    if not headers.is_file() or shutil.which(compiler.split()[0]) is None:
        return False
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return False
    return True


def _extensions() -> list[object]:
    if not _can_compile():
        return []
    from mypyc.build import mypycify

    paths = [f"referee/{module}" for module in COMPILED]
    try:
        return list(mypycify(["--config-file", "build_support/mypyc.ini", *paths],
                             opt_level="3", group_name="referee"))
    except (Exception, SystemExit) as error:  # mypyc refused a module: pure Python
        print(f"referee: mypyc failed ({error}); installing pure Python", file=sys.stderr)
        return []


class _BuildPy(build_py):
    """Also copy the grammar and rule files into the package, where a wheel has them."""

    def run(self) -> None:
        super().run()
        for folder in ("grammar", "rules"):
            target = Path(self.build_lib) / "referee" / folder
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(HERE / folder, target)


class _OptionalBuildExt(build_ext):
    """Compile if the compiler works; otherwise build pure Python."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # any compiler failure: fall back
            print(f"referee: compiling failed ({error}); installing pure Python",
                  file=sys.stderr)
            self.extensions = []


setup(ext_modules=_extensions(), cmdclass={"build_py": _BuildPy,
                                            "build_ext": _OptionalBuildExt})
