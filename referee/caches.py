"""Every memo the referee keeps for the life of a process, in one registry.

A module that remembers answers between games makes its memo here: a dict with
:func:`memo`, a function's answers with :func:`memoized` (``functools.lru_cache``,
registered), or anything else with :func:`register`. :func:`clear_caches` empties them
all, and :func:`cache_sizes` says what each holds. No memo changes a verdict (each is
keyed by all its answer depends on), so clearing them only costs time: a long-running
program may clear them to give the memory back, and a test to start cold.

The compiled rule files kept on disk (``referee/language/cache.py``) are not cleared here: the
folder is shared with other processes and keyed by content and code, so no entry can
change a verdict; :func:`referee.language.cache.clear_folder` removes its entries, and
``REFEREE_CACHE_DIR=off`` turns it off.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from functools import _lru_cache_wrapper

K = TypeVar("K")
V = TypeVar("V")
T = TypeVar("T")


_REGISTRY: dict[str, tuple[Callable[[], None], Callable[[], int]]] = {}  # by name: clear, size


def register(name: str, clear: Callable[[], None], size: Callable[[], int]) -> None:
    """Keep a memo under ``name``: ``clear`` empties it, ``size`` counts what it holds.
    A name registered again (a module imported again) stands for its latest memo."""
    _REGISTRY[name] = (clear, size)


def memo(name: str, table: dict[K, V] | None = None,
         size: Callable[[dict[K, V]], int] = len) -> dict[K, V]:
    """A dict kept as the memo ``name`` (its module and variable, by custom), a new one
    unless ``table`` is given; ``size`` counts what it holds (its length, unless it
    holds dicts: their lengths summed, say). Its owner bounds it: each memo forgets in
    its own way (all at once when full, or the least recently used first)."""
    kept: dict[K, V] = {} if table is None else table
    register(name, kept.clear, partial(size, kept))
    return kept


def memoized(maxsize: int | None = None
             ) -> Callable[[Callable[..., T]], _lru_cache_wrapper[T]]:
    """``functools.lru_cache(maxsize)`` (no bound with None), registered by the
    function's module and name."""
    def wrap(function: Callable[..., T]) -> _lru_cache_wrapper[T]:
        wrapped = lru_cache(maxsize=maxsize)(function)
        register(f"{function.__module__}.{function.__qualname__}", wrapped.cache_clear,
                 lambda: wrapped.cache_info().currsize)
        return wrapped
    return wrap


def clear_caches() -> None:
    """Empty every memo the referee keeps in this process (not the disk cache)."""
    for clear, _ in list(_REGISTRY.values()):
        clear()


def cache_sizes() -> dict[str, int]:
    """What each registered memo holds now, by its name."""
    return {name: size() for name, (_, size) in _REGISTRY.items()}


def registered_names() -> tuple[str, ...]:
    """The names of the memos registered so far (their modules imported)."""
    return tuple(_REGISTRY)

