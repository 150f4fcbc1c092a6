"""Setup and game states on the Evo reference engine (contract sections 2, 3 and 15): the
chance draws recomputed from simcore.rng, a state's JSON round trip at every phase, forced
draws, and a UserError naming the key for every kind of bad state."""
import json

import pytest

from simcore import rng
from simcore.errors import UserError
from simcore.games.evo import reference, state_io
from simcore.games.evo.schema import uid_order

from .reference_kit import policies, ruleset


def _names(rows, order):
    uids = uid_order(rows)
    return [uids[u][0] for u in order]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_follows_the_contract_draws(players):
    rs = ruleset()
    seed, game = 4, 9
    st = reference.new_state(rs, players, policies(rs, players), seed, game)
    shuffle = lambda uids, *a: rng.shuffle_order(seed, game, rng.CHANCE, list(uids), *a)  # noqa: E731
    assert st["order"] == shuffle(range(players), 1)
    events = rs.tables["events"]
    assert st["event_deck"] == _names(events, shuffle(range(len(uid_order(events))), 3))
    genes = uid_order(rs.tables["genes"])
    kind = {r["name"]: r["kind"] for r in rs.tables["genes"]}
    unique = [u for u, (n, _) in enumerate(genes) if kind[n] == "unique"]
    chosen = shuffle(unique, 2)[:rs["unique_in_bag"]]
    expect_bag = sorted([n for n, _ in genes if kind[n] == "normal"] + [genes[u][0] for u in chosen])
    assert st["bag"] == expect_bag and len(st["bag"]) == 36 + 8
    tokens = uid_order(rs.tables["climate"])
    tkind = {r["name"]: r["kind"] for r in rs.tables["climate"]}
    shifts = shuffle([u for u, (n, _) in enumerate(tokens) if tkind[n] == "shift"], 4)
    meteor = [u for u, (n, _) in enumerate(tokens) if tkind[n] == "meteorite"]
    assert st["climate_out"] == [tokens[shifts[0]][0]]
    bottom = shuffle(sorted(meteor + shifts[1:3]), 5)
    assert st["climate_pile"] == [tokens[u][0] for u in shifts[3:] + bottom]
    assert len(st["climate_pile"]) == 12 and "Meteorite" in st["climate_pile"][-3:]
    assert st["sector"] == rs["wheel_start"] and st["round"] == 1 and st["phase"] == "climate"
    assert all(len(s["dinosaurs"]) == rs["start_dinosaurs"] and s["mp"] == rs["start_mp"] for s in st["seats"])


def test_the_draw_walks_canonical_uids_and_skips_identical_genes():
    rs = ruleset()
    st = reference.new_state(rs, 5, policies(rs, 5), 2, 3)
    st["bag"] = ["Egg"] * 3 + ["Horn"] * 2 + ["Wings"]
    st["phase"], st["round"] = "mutation", 4
    genes = uid_order(rs.tables["genes"])
    canon = [u for u, (n, k) in enumerate(genes) if (n == "Egg" and k < 3) or (n == "Horn" and k < 2)
             or (n == "Wings" and k < 1)]
    walk = [genes[u][0] for u in rng.shuffle_order(2, 3, rng.CHANCE, canon, 6, 4)]
    distinct = list(dict.fromkeys(walk))
    log = []
    reference.run_state(rs, st, policies(rs, 5, "greedy"), 2, 3, "phase", log=log)
    lab = next(line for line in log if line.strip().startswith("lab:"))
    assert lab.strip() == "lab: event column, " + ", ".join(f"{c + 1}: {n}" for c, n in enumerate(distinct))


def test_forced_draws_come_first():
    rs = ruleset()
    st = reference.new_state(rs, 3, policies(rs, 3), 1, 1)
    st["phase"], st["draws"] = "mutation", ["Egg", "Horn"]
    log = []
    after, _ = reference.run_state(rs, st, policies(rs, 3, "greedy"), 1, 1, "phase", log=log)
    assert "  lab: event column, 1: Egg, 2: Horn" in log and after["draws"] == []
    assert sorted(after["bag"] + [g for s in after["seats"] for g in s["genes"]]) == sorted(st["bag"])


def test_a_state_dumped_at_every_phase_loads_back_unchanged():
    rs = ruleset()
    pols = policies(rs, 4, "random")
    state = reference.new_state(rs, 4, pols, 6, 6)
    seen = set()
    outcome = None
    while outcome is None:
        again, _ = reference.run_state(rs, json.loads(json.dumps(state)), pols, 6, 6, "phase")
        state, outcome = reference.run_state(rs, state, pols, 6, 6, "phase")
        assert again == state
        g = reference.Game(rs, 4, pols, 6, 6)
        g.load(state_io.load(g, state))
        assert g.to_state() == state
        seen.add(state["phase"])
    assert seen == {"climate", "mutation", "initiative", "movement", "birth", "survival"}
    assert state["ended"] and state["end_reason"] == "meteorite" and state["winners"]


BAD = [
    ({"phase": "lunch"}, "state.phase"),
    ({"round": 0}, "state.round"),
    ({"order": [0, 0]}, "state.order"),
    ({"bag": ["Dragon"]}, "state.bag[0]"),
    ({"draws": ["Wings"], "bag": ["Egg"]}, "state.draws"),
    ({"draws": ["Egg", "Egg"], "bag": ["Egg", "Egg"]}, "state.draws"),
    ({"lab": [0, 1]}, "state.lab"),
    ({"dice": ["claw", "six"]}, "state.dice[1]"),
    ({"climate_pile": ["Comet"]}, "state.climate_pile[0]"),
    ({"sector": 9}, "state.sector"),
    ({"decisions": [0]}, "state.decisions"),
    ({"end_reason": "flood"}, "state.end_reason"),
]


@pytest.mark.parametrize("change,key", BAD, ids=[k for _, k in BAD])
def test_a_bad_state_is_a_user_error_naming_the_key(change, key):
    rs = ruleset()
    st = {"round": 1, "phase": "climate", "sector": 1, "climate_pile": ["Meteorite"],
          "seats": [{"mp": 3, "dinosaurs": ["Z01"]}, {"mp": 3, "dinosaurs": ["Z30"]}]}
    st.update(change)
    with pytest.raises(UserError) as e:
        reference.run_state(rs, st, policies(rs, 2), 0, 0, "phase")
    assert e.value.key == key


@pytest.mark.parametrize("seat,key", [({"mp": 3, "dinosaurs": ["Z01", "Z30"]}, "state.seats[1].dinosaurs"),
                                      ({"mp": 3, "dinosaurs": ["Q99"]}, "state.seats[1].dinosaurs[0]"),
                                      ({"mp": -1}, "state.seats[1].mp"),
                                      ({"genes": ["Tail"]}, "state.seats[1].genes[0]"),
                                      ({"dinosaurs": [f"Z{z:02d}" for z in range(2, 11)]}, "state.seats[1].dinosaurs")])
def test_a_bad_seat_is_a_user_error_naming_the_key(seat, key):
    rs = ruleset()
    st = {"round": 1, "phase": "climate", "sector": 1, "climate_pile": ["Meteorite"],
          "seats": [{"mp": 3, "dinosaurs": ["Z01"]}, seat]}
    with pytest.raises(UserError) as e:
        reference.run_state(rs, st, policies(rs, 2), 0, 0, "phase")
    assert e.value.key == key


def test_until_must_be_known():
    rs = ruleset()
    with pytest.raises(UserError) as e:
        reference.run_state(rs, reference.new_state(rs, 2, policies(rs, 2), 0, 0), policies(rs, 2), 0, 0, "moment")
    assert e.value.key == "until"
