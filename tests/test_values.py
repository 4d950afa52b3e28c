"""Record types (referee/values.py) behave as the dataclasses they stand in for."""

from __future__ import annotations

import ast
import dataclasses
import pickle
from pathlib import Path

import pytest

import referee
from referee.compiled import COMPILED
from referee.values import factory, fields, frozen, is_record, mutable, replace, value


@value
class Place:
    """A test value."""

    line: int
    column: int = 1
    text: str = ""


@dataclasses.dataclass(slots=True, unsafe_hash=True)
class PlaceDataclass:
    """The same, as a dataclass."""

    line: int
    column: int = 1
    text: str = ""


@mutable
class Pile:
    """A test record whose fields change."""

    owner: str
    cards: list[str] = factory(list)


@frozen
class One:
    """A value of one field."""

    only: int


@pytest.mark.parametrize("arguments", [(3,), (3, 4), (3, 4, "x"), (0, 0, "")])
def test_a_value_compares_hashes_and_prints_as_a_dataclass(arguments: tuple[object, ...]
                                                           ) -> None:
    ours, theirs = Place(*arguments), PlaceDataclass(*arguments)  # type: ignore[arg-type]
    assert hash(ours) == hash(theirs)
    assert repr(ours) == repr(theirs).replace("PlaceDataclass", "Place")
    assert ours == Place(*arguments) and ours != Place(99)  # type: ignore[arg-type]
    assert ours != theirs and ours != (3, 4, "x")  # another type is never equal
    assert Place(line=3, text="y") == Place(3, 1, "y")


def test_a_value_of_one_field_hashes_as_a_dataclass() -> None:
    assert hash(One(7)) == hash((7,))


def test_defaults_made_afresh_for_each_record() -> None:
    first, second = Pile("Ann"), Pile("Bob")
    first.cards.append("QS")
    assert second.cards == [] and Pile("Cy", ["JD"]).cards == ["JD"]


def test_a_mutable_record_is_equal_by_fields_and_unhashable() -> None:
    assert Pile("Ann", ["QS"]) == Pile("Ann", ["QS"]) != Pile("Ann")
    with pytest.raises(TypeError):
        hash(Pile("Ann"))


def test_records_have_slots_and_no_dict() -> None:
    place = Place(1)
    assert Place.__slots__ == ("line", "column", "text")
    with pytest.raises(AttributeError):
        place.colour = "red"  # type: ignore[attr-defined]


def test_fields_replace_and_is_record() -> None:
    place = Place(1, 2, "x")
    assert fields(place) == fields(Place) == ("line", "column", "text")
    assert replace(place, column=5) == Place(1, 5, "x") and place == Place(1, 2, "x")
    with pytest.raises(TypeError, match="no field 'colour'"):
        replace(place, colour="red")
    assert is_record(place) and not is_record(Place) and not is_record((1, 2))


def test_records_pickle() -> None:
    for record in (Place(1, 2, "x"), Pile("Ann", ["QS"]), One(3)):
        assert pickle.loads(pickle.dumps(record)) == record


def test_a_required_field_after_a_default_is_refused_as_a_dataclass_would() -> None:
    with pytest.raises(TypeError, match="follows one with a default"):
        @value
        class Wrong:
            first: int = 0
            second: int  # type: ignore[misc]


def test_a_record_type_cannot_extend_another() -> None:
    with pytest.raises(TypeError, match="cannot extend"):
        @value
        class More(Place):
            extra: int = 0


@value
class Written:
    """A value whose ``__init__`` is written out (as the hot records are, so that a
    compiled build makes them natively)."""

    line: int
    column: int = 1

    def __init__(self, line: int, column: int = 1) -> None:
        self.line = line
        self.column = column + 0  # its own, kept: not the decorator's


def test_a_written_out_init_is_kept_and_the_record_is_still_a_value() -> None:
    made = Written(3)
    assert made == Written(3, 1) and hash(made) == hash(Written(3)) and made != Written(3, 2)
    assert repr(made) == "Written(line=3, column=1)" and fields(made) == ("line", "column")
    assert replace(made, column=5) == Written(3, 5) and is_record(made)
    assert Written.__init__.__qualname__ == "Written.__init__"
    assert Written.__init__.__code__.co_filename == __file__  # not made by exec
    assert pickle.loads(pickle.dumps(made)) == made


def _value_types_of_compiled_modules() -> list[tuple[str, ast.ClassDef]]:
    """The classes decorated ``@value`` in the modules a build compiles, by module."""
    found = []
    for module in COMPILED:
        tree = ast.parse((Path(referee.__file__).parent / module).read_text(encoding="utf-8"))
        found += [(module, node) for node in ast.walk(tree) if isinstance(node, ast.ClassDef)
                  and any(ast.unparse(d) == "value" for d in node.decorator_list)]
    return found


@pytest.mark.parametrize(("module", "node"), _value_types_of_compiled_modules(),
                         ids=lambda item: getattr(item, "name", item))
def test_a_value_of_a_compiled_module_writes_out_its_init(module: str, node: ast.ClassDef
                                                           ) -> None:
    """A value is built afresh for every event (a move, a place). In a compiled module its
    ``__init__`` is written out, so that it is compiled and runs natively: the one the
    decorator makes is run by the interpreter (as ``LayDown``'s was, for every book the
    referee lays for a player). It takes the fields in order, with the defaults the
    class body gives them (and maybe more)."""
    fields_in_order = [(item.target.id, item.value) for item in node.body
                       if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)]
    inits = [item for item in node.body
             if isinstance(item, ast.FunctionDef) and item.name == "__init__"]
    assert inits, f"{module}: {node.name} has no __init__ written out"
    arguments = inits[0].args
    names = [a.arg for a in arguments.args[1:]]
    assert names == [name for name, _ in fields_in_order]
    defaults = dict(zip(names[len(names) - len(arguments.defaults):],
                        map(ast.unparse, arguments.defaults), strict=True))
    for name, default in fields_in_order:  # (it may give a default the body does not)
        assert default is None or defaults.get(name) == ast.unparse(default), name
    assigned = [statement.targets[0].attr for statement in inits[0].body
                if isinstance(statement, ast.Assign)
                and isinstance(statement.targets[0], ast.Attribute)]
    assert sorted(assigned) == sorted(name for name, _ in fields_in_order)
