"""The rules as data: every tests/rules/*.json file, through `rallyforge test`'s
own code path. Each file is named after the rule it shows (docs/rules.md); its
description quotes the rule."""
from __future__ import annotations

from pathlib import Path

import pytest

from rallyforge.engine.analysis.scenario_checks import check_file

RULES = Path(__file__).parent / "rules"
FILES = sorted(RULES.glob("*.json"))


def test_every_numbered_rule_of_sections_2_to_8_has_a_file():
    numbered = {"2.1", "2.2", "2.3", "2.4", "2.5", "2.6", "3.1", "3.2", "3.3", "3.4", "3.5",
                "3.6", "3.7", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "5.1", "5.2", "5.3",
                "5.4", "6.1", "6.2", "6.3", "7.1", "7.2", "7.3", "7.4", "8"}
    covered = {f.name.split("-")[0].rstrip("ABCDE") for f in FILES}
    assert numbered <= covered, sorted(numbered - covered)
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_rule(path):
    ok, lines = check_file(str(path))
    assert ok, "\n".join(lines)
