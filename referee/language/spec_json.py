"""A compiled GameSpec as JSON (``referee show --json``), and its published schema.

Every field of the spec is a key of the object, except ``set_of_card``, which
only indexes ``sets``. Enums are their rule-file phrases, sets of values are
sorted lists, cards are in deck order, and mappings keyed by numbers or ranks
are objects keyed by those words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from enum import Enum
from pathlib import Path
from typing import Any

from referee.language.spec import GameSpec
from referee.sanitize import json_escaped
from referee.values import fields, is_record

DERIVED = ("set_of_card",)  # fields left out: they only index other fields
SCHEMA_FILE = Path(__file__).resolve().parents[1] / "spec.schema.json"


def spec_to_json(spec: GameSpec) -> dict[str, Any]:
    """Every field of ``spec`` as plain JSON values."""
    order: dict[str, int] = {card: i for i, card in enumerate(spec.cards)}
    return {name: _plain(getattr(spec, name), order)
            for name in fields(GameSpec) if name not in DERIVED}


def _plain(value: object, order: Mapping[str, int]) -> Any:
    if isinstance(value, Enum):
        return value.value
    if is_record(value):
        return {name: _plain(getattr(value, name), order) for name in fields(value)}
    if isinstance(value, Mapping):
        return {str(key): _plain(item, order) for key, item in value.items()}
    if isinstance(value, frozenset | set):
        items = [_plain(item, order) for item in value]
        if all(isinstance(item, int) for item in items):
            return sorted(items)
        return sorted(items, key=lambda item: (order.get(item, -1), str(item)))
    if isinstance(value, tuple | list):
        return [_plain(item, order) for item in value]
    return value


def spec_schema() -> dict[str, Any]:
    """The published JSON Schema of :func:`spec_to_json`'s output."""
    schema: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))
    return schema


def spec_text(spec: GameSpec) -> str:
    """The spec as ``field: value`` lines, for people (``referee show`` without --json)."""
    data = spec_to_json(spec)
    return "\n".join(f"{key}: {json_escaped(json.dumps(value, ensure_ascii=False))}"
                     for key, value in data.items())
