"""referee show --json: the compiled spec as JSON, valid against its published schema."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from referee.cli.commands import main
from referee.language import spec as spec_module
from referee.language.loader import load_spec
from referee.language.spec import GameSpec
from referee.language.spec_json import DERIVED, spec_schema, spec_to_json
from referee.values import fields

TESTS = Path(__file__).parent
RULE_FILES = sorted((TESTS.parent / "rules").glob("*.rules")) + sorted(
    (TESTS / "rules_support").glob("[st]*.rules"))
SCHEMA = spec_schema()


def test_the_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda p: p.stem)
def test_every_rule_file_matches_the_schema(path: Path) -> None:
    data = spec_to_json(load_spec(path))
    jsonschema.validate(data, SCHEMA)
    assert json.loads(json.dumps(data)) == data  # plain JSON values only


def test_every_spec_field_is_in_the_json_and_the_schema() -> None:
    names = set(fields(GameSpec)) - set(DERIVED)
    assert set(SCHEMA["required"]) == names == set(SCHEMA["properties"])


def test_the_schemas_enums_are_the_rule_phrases() -> None:
    text = json.dumps(SCHEMA)
    for value in vars(spec_module).values():
        if isinstance(value, type) and issubclass(value, spec_module.Enum) \
                and value is not spec_module.Enum:
            for member in value:
                assert json.dumps(member.value) in text, member


def test_cards_are_in_deck_order_and_counts_in_number_order() -> None:
    data = spec_to_json(load_spec(TESTS.parent / "rules" / "literature-jokers.rules"))
    assert data["player_counts"] == [4, 6, 8, 10, 12]
    jokers = next(s for s in data["sets"] if s["name"] == "jokers")
    assert jokers["cards"] == ["2S", "2H", "2D", "2C", "RJ", "BJ"]
    assert data["ask"]["target"] == "an opponent" and data["claims"]["misplaced"] == \
        "the set is void"


def test_show_prints_the_json_and_options_change_it() -> None:
    result = CliRunner().invoke(main, ["show", "literature", "--json", "-o", "high-double=yes"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["points_by_kind"] == {"high": 2} and data["options_set"] == {"high-double": "yes"}


def test_show_without_json_prints_a_line_per_field() -> None:
    result = CliRunner().invoke(main, ["show", "go-fish"])
    assert result.exit_code == 0
    assert 'title: "Go Fish"' in result.stdout and "deal_sizes: {" in result.stdout


def test_show_of_unknown_rules_or_options_is_bad_usage() -> None:
    missing = CliRunner().invoke(main, ["show", "old-maid", "--json"])
    assert missing.exit_code == 2 and "no rule file named 'old-maid'" in missing.stderr
    option = CliRunner().invoke(main, ["show", "go-fish", "-o", "fast=yes"])
    assert option.exit_code == 2 and "has no option 'fast'" in option.stderr
