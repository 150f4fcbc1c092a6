"""Every scenario file of tests/scenarios/<game>/ and of its setup/ folder (states after
setup, "until": "setup") on both engines (`balancelab scenario`'s runner): the expected
state and outcome hold on the batch engine and on the reference one."""
import json
from pathlib import Path

import pytest

from experiments.scenario import run_scenario
from simcore.games import GAMES

ROOT = Path(__file__).parents[1] / "scenarios"
FILES = [p for game in GAMES for p in sorted((ROOT / game).glob("*.json")) + sorted((ROOT / game / "setup").glob("*.json"))]


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT).with_suffix("")) for p in FILES])
def test_scenario_file_holds_on_the_engine(path, engine):
    doc = json.loads(path.read_text())
    _, mismatches = run_scenario(doc, engine, str(path))
    assert mismatches == [], f"{path.name} on {engine}: {mismatches}"
