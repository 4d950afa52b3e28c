"""The referee's record types: slotted dataclasses, made quickly.

A dataclass compiles each method it writes (``__init__``, ``__repr__``, ``__eq__``,
``__hash__``, and for a frozen one ``__setattr__`` and ``__delattr__``) from source,
about half a millisecond a class; the forty classes ``referee check`` imports cost a
third of its cold start that way. These decorators keep the dataclass (its fields,
``replace``, ``fields``) but compile only ``__init__``; equality, hashing and
``repr`` are shared functions that read the fields with one ``attrgetter``.

Nothing is frozen at run time: a frozen dataclass's ``__init__`` sets each field
through ``object.__setattr__``, which makes building one about four times slower.
mypy holds :func:`frozen` classes to it instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(eq_default=True)
def value(cls: type[T]) -> type[T]:
    """A value built afresh for every event (a move, a place): equal and hashed by its
    fields, and never changed once built (by convention: some get a last field set
    just after they are built)."""
    return _record_type(cls, hashed=True)


@dataclass_transform(eq_default=True, frozen_default=True)
def frozen(cls: type[T]) -> type[T]:
    """An immutable value (mypy refuses an assignment to a field): equal and hashed by
    its fields."""
    return _record_type(cls, hashed=True)


@dataclass_transform(eq_default=True)
def mutable(cls: type[T]) -> type[T]:
    """A record whose fields change (a game's state): equal by its fields, unhashable."""
    return _record_type(cls, hashed=False)


def _record_type(cls: type[T], hashed: bool) -> type[T]:
    if "__post_init__" in vars(cls):
        raise TypeError(f"{cls.__name__}: __post_init__ needs a plain dataclass")
    made: Any = dataclass(cls, init=False, repr=False, eq=False, slots=True)
    parts = fields(made)
    names = tuple(part.name for part in parts)
    made.__init__ = _initialiser(made.__qualname__, parts)
    made._fields_of = staticmethod(_fields_getter(names))
    made.__eq__ = _equal
    made.__hash__ = _hash if hashed else None
    made.__repr__ = _repr
    return made  # type: ignore[no-any-return]


def _initialiser(qualname: str, parts: tuple[Field[Any], ...]) -> Callable[..., None]:
    """``__init__``, compiled: it sets each field from its argument or its default."""
    scope: dict[str, object] = {"_MISSING": MISSING}
    parameters, lines = ["self"], []
    for part in parts:
        if not part.init or part.kw_only is True:
            raise TypeError(f"{qualname}.{part.name}: only plain fields are supported")
        name = part.name
        if part.default is not MISSING:
            scope[f"_default_{name}"] = part.default
            parameters.append(f"{name}=_default_{name}")
            lines.append(f"self.{name} = {name}")
        elif part.default_factory is not MISSING:
            scope[f"_factory_{name}"] = part.default_factory
            parameters.append(f"{name}=_MISSING")
            lines.append(f"self.{name} = _factory_{name}() if {name} is _MISSING else {name}")
        else:
            parameters.append(name)
            lines.append(f"self.{name} = {name}")
    body = "".join(f"    {line}\n" for line in lines) or "    pass\n"
    exec(f"def __init__({', '.join(parameters)}) -> None:\n{body}", scope)
    initialiser: Callable[..., None] = scope["__init__"]  # type: ignore[assignment]
    initialiser.__qualname__ = f"{qualname}.__init__"
    return initialiser


def _fields_getter(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """A function from a record to the tuple of its fields' values (as a dataclass
    compares and hashes them)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        get = attrgetter(names[0])
        return lambda record: (get(record),)
    return lambda record: ()


def _equal(self: Any, other: Any) -> object:
    if other.__class__ is not self.__class__:
        return NotImplemented
    return self._fields_of(self) == other._fields_of(other)


def _hash(self: Any) -> int:
    return hash(self._fields_of(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{part.name}={getattr(self, part.name)!r}" for part in fields(self))
    return f"{self.__class__.__qualname__}({shown})"
