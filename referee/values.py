"""Small value types built for every event: slotted dataclasses compared and hashed by
their fields, and never changed after they are built.

They are not ``frozen``: a frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``, which makes building one about four times slower, and the
referee builds several of these for every event it checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(eq_default=True)
def value(cls: type[T]) -> type[T]:
    """Make ``cls`` a slotted dataclass with equality and hashing by its fields."""
    return dataclass(slots=True, unsafe_hash=True)(cls)
