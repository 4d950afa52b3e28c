"""The referee's record types: slotted classes with an ``__init__``, equality, hashing
and ``repr`` made from their annotated fields, as a dataclass's are.

They are not dataclasses, for a cold ``referee check``'s sake: the ``dataclasses``
module imports ``inspect`` (a tenth of the start-up), and a dataclass compiles each
method it writes from source, about half a millisecond a class, a third of the
start-up for the forty classes a check imports. Here only ``__init__`` is compiled;
equality, hashing and ``repr`` are shared functions that read the fields with one
``attrgetter``. :func:`fields` and :func:`replace` stand in for the dataclass ones.

Nothing is frozen at run time: a frozen dataclass's ``__init__`` sets each field
through ``object.__setattr__``, which makes building one about four times slower.
mypy holds :func:`frozen` classes to it instead.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")
FIELDS = "_field_names"  # the class attribute naming a record type's fields, in order
FRESH = "_made_afresh_by"  # the class attribute of a factory default naming its maker


MYPYC = False  # true as mypyc analyses the modules it compiles (build_support/mypyc.ini)
if MYPYC:  # record types are dataclasses to mypyc, which makes them native classes; it
    # calls the decorator below on each, which gives it its methods (_native_record_type)
    from dataclasses import dataclass as frozen
    from dataclasses import dataclass as mutable
    from dataclasses import dataclass as value
else:
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


def factory(make: type[T]) -> T:
    """The default of a field that is made afresh for each record: ``factory(list)``.

    The default is an empty instance of a subclass of ``make`` (a list, set or dict
    type) that names ``make``: of the field's type, as compiled (mypyc) code checks."""
    fresh: Any = type(f"fresh_{make.__name__}", (make,), {FRESH: staticmethod(make)})
    made: T = fresh()
    return made


def fields(record: object) -> tuple[str, ...]:
    """The names of a record type's fields (of a record's type), in order."""
    names: tuple[str, ...] = getattr(record, FIELDS)
    return names


def field_values(record: object) -> tuple[object, ...]:
    """The values of a record's fields, in order: what it is compared and hashed by."""
    values: tuple[object, ...] = record._fields_of(record)  # type: ignore[attr-defined]
    return values


def is_record(thing: object) -> bool:
    """Whether ``thing`` is a record (not a record type)."""
    return hasattr(type(thing), FIELDS)


def replace(record: T, **changes: object) -> T:
    """A copy of ``record`` with some fields changed."""
    names = fields(record)
    unknown = set(changes) - set(names)
    if unknown:
        raise TypeError(f"{type(record).__name__} has no field {sorted(unknown)[0]!r}")
    values = {name: changes[name] if name in changes else getattr(record, name)
              for name in names}
    return type(record)(**values)


def _record_type(cls: type[T], hashed: bool) -> type[T]:
    """``cls`` made again with slots for its fields and the methods of a record."""
    names = tuple(cls.__dict__.get("__annotations__", {}))  # noqa: RUF063 (not inspect)
    if _compiled(cls):
        return _native_record_type(cls, names, hashed)
    if any(hasattr(base, FIELDS) for base in cls.__mro__[1:]):
        raise TypeError(f"{cls.__name__}: a record type cannot extend another")
    namespace = {key: item for key, item in cls.__dict__.items()
                 if key not in names and key not in ("__dict__", "__weakref__")}
    namespace.update({FIELDS: names}, __slots__=names, __match_args__=names,
                     _fields_of=staticmethod(_fields_getter(names)), __repr__=_repr)
    if "__init__" not in cls.__dict__:  # one written out is kept (compiled, it is native)
        namespace["__init__"] = _initialiser(cls.__qualname__, names, _defaults(cls, names))
    if getattr(cls, "__eq__", None) is object.__eq__:  # equality a base defines is kept
        namespace.update(__eq__=_equal, __hash__=_hash if hashed else None)
    maker: Any = type(cls)
    made: type[T] = maker(cls.__name__, cls.__bases__, namespace)
    made.__qualname__ = cls.__qualname__
    return made


def _defaults(cls: type, names: tuple[str, ...]) -> dict[str, object]:
    """The defaults the class body gives its fields."""
    return {name: cls.__dict__[name] for name in names if name in cls.__dict__}


def _initialiser(qualname: str, names: tuple[str, ...], defaults: dict[str, object]
                 ) -> Callable[..., None]:
    """``__init__``, compiled: it sets each field from its argument or its default."""
    scope: dict[str, object] = {"_FACTORY": object()}
    parameters, lines = ["self"], []
    for name in names:
        if name not in defaults:
            if len(parameters) > 1 and "=" in parameters[-1]:
                raise TypeError(f"{qualname}.{name}: a field without a default follows "
                                "one with a default")
            parameters.append(name)
            lines.append(f"self.{name} = {name}")
        elif hasattr(type(defaults[name]), FRESH):
            scope[f"_make_{name}"] = getattr(type(defaults[name]), FRESH)
            parameters.append(f"{name}=_FACTORY")
            lines.append(f"self.{name} = _make_{name}() if {name} is _FACTORY else {name}")
        else:
            scope[f"_default_{name}"] = defaults[name]
            parameters.append(f"{name}=_default_{name}")
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
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in fields(self))
    return f"{self.__class__.__qualname__}({shown})"


def _compiled(cls: type) -> bool:
    """Whether ``cls`` is a class mypyc compiled: its instances have no ``__dict__``,
    though it names no ``__slots__``, as a class written in Python would."""
    return cls.__dictoffset__ == 0 and "__slots__" not in cls.__dict__


def _native_record_type(cls: type[T], names: tuple[str, ...], hashed: bool) -> type[T]:
    """The methods of a record set on ``cls``, a class mypyc compiled (in place: mypyc
    keeps the class it made)."""
    methods: dict[str, object] = {
        FIELDS: names, "__match_args__": names,
        "_fields_of": staticmethod(_fields_getter(names)), "__repr__": _repr}
    if "__init__" not in cls.__dict__:  # one written out is compiled: kept, and native
        methods["__init__"] = _initialiser(cls.__qualname__, names, _defaults(cls, names))
    for key, item in methods.items():
        setattr(cls, key, item)
    if cls.__dict__.get("__eq__") is None:
        cls.__eq__ = _equal  # type: ignore[assignment,method-assign]
        cls.__hash__ = _hash if hashed else None  # type: ignore[assignment,method-assign]
    return cls
