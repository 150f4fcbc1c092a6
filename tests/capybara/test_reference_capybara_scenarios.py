"""Every scenario file of tests/scenarios/capybara/ (the rulebook's worked examples, each
card note, each strike symbol, the token limit, the tie-breaks) on the reference engine:
the expected state and outcome exactly, and every scripted choice used."""
import json

import pytest

from .capybara_reference_kit import SCENARIO_DIR, run_doc

SCENARIOS = sorted(SCENARIO_DIR.glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_on_the_reference_engine(path):
    doc = json.loads(path.read_text())
    log = []
    result, mismatches, left = run_doc(doc, log)
    assert mismatches == [], f"{doc['title']}: {mismatches}\n" + "\n".join(log)
    assert left == {}, f"scripted choices not asked: {left}"


def test_the_rulebook_examples_are_there():
    names = {p.stem for p in SCENARIOS}
    assert {"capybara_and_capybarabanshchik_turn", "five_strike_revolution"} <= names
