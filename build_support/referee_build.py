"""The build backend: setuptools', asking for mypy (mypyc) only for a wheel that will
be compiled (setup.py), so that an sdist, an editable install or a machine without a
C compiler never needs it."""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import build_meta
from setuptools.build_meta import (  # noqa: F401 (the hooks passed on unchanged)
    build_sdist,
    build_wheel,
    get_requires_for_build_sdist,
    prepare_metadata_for_build_wheel,
)

MYPY = "mypy==2.4.1"  # the mypyc the compiled modules are tested with


def _compiling() -> bool:
    if os.environ.get("REFEREE_NO_COMPILE"):
        return False
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    compiler = sysconfig.get_config_var("CC") or "cc"
    return headers.is_file() and shutil.which(compiler.split()[0]) is not None


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    """setuptools' needs, and mypy when the wheel will be compiled."""
    needs = list(build_meta.get_requires_for_build_wheel(config_settings))
    return [*needs, MYPY] if _compiling() else needs


def get_requires_for_build_editable(config_settings: Any = None) -> list[str]:
    """setuptools' needs: an editable install is pure Python."""
    return list(build_meta.get_requires_for_build_editable(config_settings))


def build_editable(wheel_directory: str, config_settings: Any = None,
                   metadata_directory: str | None = None) -> str:
    """An editable install, never compiled: the source is what runs."""
    os.environ["REFEREE_NO_COMPILE"] = "1"
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)


def prepare_metadata_for_build_editable(metadata_directory: str,
                                        config_settings: Any = None) -> str:
    """The metadata of an editable install."""
    os.environ["REFEREE_NO_COMPILE"] = "1"
    return build_meta.prepare_metadata_for_build_editable(metadata_directory,
                                                          config_settings)
