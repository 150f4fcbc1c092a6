"""Rulebook set-up: with 2 animals the Sea Cucumber and the '3+' cards and Events are out of
the game. A 2-player game state that holds one is rejected by the state loader (both
engines load states through it), as a fresh 2-player set-up never deals one."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from evolversi_kit import batch_run_state, ref_run_state
from simcore.errors import UserError
from simcore.games.evolversi.schema import GAME_DATA

RS = GAME_DATA.load()
REJECTED = Path(__file__).resolve().parents[1] / "scenarios" / "evolversi" / "rejected" / "two_players_sea_cucumber.json"
RUN = {"batch": batch_run_state, "reference": ref_run_state}


def _two_seats(**second):
    return {"round": 1, "phase": "order", "totem": 0,
            "seats": [{"animal": "Panda", "above": ["Falso Pollice"], "below": ["Occhiaie"]},
                      {"animal": "Mantis", "above": ["Artigli"], "below": ["Preghiera"], **second}]}


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_the_scenario_seating_the_sea_cucumber_with_two_players_exits_2_naming_it(engine):
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "scenario", str(REJECTED), "--engine", engine],
                          capture_output=True, text=True)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    err = proc.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert "state.seats[1].animal" in err and "'Sea Cucumber' is not in play with 2 animals" in err


@pytest.mark.parametrize("engine", ["batch", "reference"])
@pytest.mark.parametrize("where,name", [
    (("seats", 1, "below"), "Zampe"),             # a Sea Cucumber starting card in another seat's hand
    (("market",), "Invidia"),                     # a '3+' Evolution card
    (("event_deck",), "Predazione"),              # a '3+' Event
])
def test_a_three_plus_card_or_event_in_a_two_player_state_is_a_user_error(engine, where, name):
    state = _two_seats()
    if where[0] == "seats":
        state["seats"][where[1]][where[2]] = state["seats"][where[1]][where[2]] + [name]
    else:
        state[where[0]] = [name]
    with pytest.raises(UserError, match=f"{name!r} is not in play with 2 animals .*min_players 3"):
        RUN[engine](RS, state, "greedy", 1, 0, "phase")


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_the_same_state_loads_with_three_players(engine):
    doc = json.loads(REJECTED.read_text())
    state = copy.deepcopy(doc["state"])
    state["seats"].append({"animal": "Mantis", "above": ["Artigli"], "below": ["Preghiera"]})
    after, _ = RUN[engine](RS, state, "greedy", 1, 0, "phase")
    assert after["seats"][1]["animal"] == "Sea Cucumber"
