"""The rulebook's worked examples (and other scenario files), exact, on both engines."""
import json
from pathlib import Path

import pytest

from experiments.scenario import run_scenario

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "evolversi").glob("*.json"))


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path, engine):
    doc = json.loads(path.read_text())
    result, mismatches = run_scenario(doc, engine, str(path))
    assert mismatches == [], f"{doc.get('title')}: {mismatches}"


def test_the_rulebook_examples_are_all_there():
    names = {p.stem for p in SCENARIOS}
    assert {"turn_order_example", "fury_example", "panda_turn_example", "tardigrade_power_example",
            "fourth_card_flip_example"} <= names
