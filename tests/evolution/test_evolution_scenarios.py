"""Scenario files (tests/scenarios/evolution/*.json): a trait or rule worked out by hand
(the same positions as test_evolution_traits.py), each played on both engines."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from experiments.scenario import _matches
from simcore.errors import UserError
from simcore.games.evolution.adapter import GAME
from simcore.games.evolution.traits import TRAITS
from strategies.registry import Bot, make_bot

SCENARIOS = sorted((Path(__file__).resolve().parents[1] / "scenarios" / "evolution").glob("*.json"))


def run(doc: dict, engine: str):
    """What `balancelab scenario` does: a `script` seat carries its choices in its bot."""
    rs = GAME.data.load(doc.get("variant", "default"), overrides=doc.get("set"))
    names = doc.get("bots", "script")
    seats = len(doc["state"]["seats"])
    names = [names] * seats if isinstance(names, str) else names
    choices = doc.get("choices", {})
    bots = [Bot("evolution", "script", (("choices", tuple(choices.get(str(s), ()))),))
            if n == "script" else make_bot("evolution", n) for s, n in enumerate(names)]
    state, outcome = GAME.run_state(engine, rs, doc["state"], bots, doc.get("seed", 0),
                                    doc.get("game", 0), doc.get("until", "phase"))
    return {"state": state, "outcome": outcome}


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path, engine):
    doc = json.loads(path.read_text())
    result = run(doc, engine)
    assert _matches(doc["expect"], result, "") == [], doc["title"]


def test_the_scenarios_cover_every_trait():
    used = set()
    for path in SCENARIOS:
        text = path.read_text()
        used |= {t for t in TRAITS if f'"{t}"' in text}
    assert used == set(TRAITS)
    assert len(SCENARIOS) >= 10


def test_both_engines_give_the_same_whole_state():
    for path in SCENARIOS:
        doc = json.loads(path.read_text())
        assert run(doc, "batch") == run(doc, "reference"), path.stem


def _doc(**state):
    return {"ruleset": "evolution", "until": "round", "bots": "greedy",
            "state": dict({"seats": [{"species": [{"population": 2}]}, {}]}, **state)}


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_round_from_a_state_deals_plays_feeds_and_passes_the_first_player(engine):
    result = run(_doc(watering_hole=3), engine)
    state = result["state"]
    assert state["round"] == 1 and state["first"] == 1 and state["phase"] == "deal"
    assert all(len(s["species"]) >= 1 for s in state["seats"])
    assert result["outcome"] is None


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_state_played_to_the_end_has_an_outcome(engine):
    doc = _doc()
    doc["until"] = "end"
    out = run(doc, engine)["outcome"]
    assert out["end_reason"] in GAME.end_reasons and len(out["score"]) == 2


@pytest.mark.parametrize("bad,key", [
    ({"seats": [{"species": [{"traits": ["wings"]}]}, {}]}, "state.seats[0].species[0].traits[0]"),
    ({"seats": [{"species": [{"body": 9}]}, {}]}, "state.seats[0].species[0].body"),
    ({"seats": [{}]}, "state.seats"),
    ({"seats": [{}, {}], "colour": 1}, "state.colour"),
    ({"seats": [{"hand": [[9, "horns"]]}, {}]}, "state.seats[0].hand[0]"),
])
def test_a_bad_state_is_a_user_error_naming_the_field(bad, key):
    rs = GAME.data.load("default")
    with pytest.raises(UserError) as e:
        GAME.run_state("reference", rs, bad, [make_bot("evolution", "greedy")] * len(bad["seats"]),
                       0, 0, "phase")
    assert e.value.key == key
