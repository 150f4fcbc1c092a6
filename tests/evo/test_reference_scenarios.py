"""Every scenario file of tests/scenarios/evo/ (the contract's worked examples and rule
checks: initiative, the auction, combat, each unique gene, each event, survival, the
replace rule, the meteorite) on the reference engine: the expected state and outcome
exactly, and every scripted choice used."""
import json

import pytest

from .reference_kit import SCENARIO_DIR, run_doc

SCENARIOS = sorted(SCENARIO_DIR.glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario_on_the_reference_engine(path):
    doc = json.loads(path.read_text())
    log = []
    result, mismatches, left = run_doc(doc, log)
    assert mismatches == [], f"{doc['title']}: {mismatches}\n" + "\n".join(log)
    assert left == {}, f"scripted choices not asked: {left}"


def test_the_contract_examples_are_there():
    names = {p.stem for p in SCENARIOS}
    assert {"initiative_fewest_dinosaurs_first_ties_by_lab_column",
            "auction_outbid_seat_rebids_at_once_barred_from_the_lost_column",
            "survival_each_class_removes_the_excess_down_to_the_floor",
            "replace_rule_at_eight_removes_one_then_places_elsewhere"} <= names


@pytest.mark.parametrize("engine", ["reference", "batch"])
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_the_scenario_runner_plays_them_on_both_engines(path, engine):
    """experiments.scenario (registry bots, adapter) gives every expected result on the
    reference engine and on the compiled batch engine alike (`balancelab scenario`)."""
    from experiments.scenario import run_scenario
    doc = json.loads(path.read_text())
    result, mismatches = run_scenario(doc, engine, file=str(path))
    assert mismatches == []
