"""Combat on the reference engine (contract 4.4.1 and the table of section 11): every die
face against every horn difference, with Horn, Large horn, Bony plates and Frenzied
attack; the die stream; Chameleon skin."""
import pytest

from simcore import rng
from simcore.games.evo import reference
from simcore.games.evo.reference_comps import K_DIE

from .reference_kit import policies, ruleset

FACES = ["cross", "claw", "claw_equal", "claw_plus", "claw_plus_plus"]
# Section 11: the faces the attacker wins on, by horn difference A - D
WINS = {-1: {"claw"}, 0: {"claw", "claw_equal"}, 1: {"claw", "claw_equal", "claw_plus"},
        2: {"claw", "claw_equal", "claw_plus", "claw_plus_plus"}}


def attack_state(attacker_genes, defender_genes, dice, events=()):
    """Seat 0 on Z01 Z02 attacks seat 1's Z04 (seat 1: Z04 Z05 Z06, not protected)."""
    return {"round": 2, "phase": "movement", "sector": 1, "climate_pile": ["Clockwise 1", "Meteorite"],
            "order": [0, 1], "dice": list(dice),
            "seats": [{"mp": 5, "genes": list(attacker_genes), "events": list(events), "dinosaurs": ["Z01", "Z02"]},
                      {"mp": 5, "genes": list(defender_genes), "dinosaurs": ["Z04", "Z05", "Z06"]}]}


def fight(state, first=()):
    """Seat 0: [first...] then MOVE option 1 (attack Z01 -> Z04), then stop; seat 1 stops."""
    rs = ruleset()
    choices = {0: list(first) + [{"kind": "move", "option": 1}, {"kind": "move", "option": 0}],
               1: [{"kind": "move", "option": 0}]}
    pols = policies(rs, 2, "script", choices)
    after, _ = reference.run_state(rs, state, pols, 0, 0, "phase")
    assert all(not p.items for p in pols)
    return after


def won(after) -> bool:
    return "Z04" in after["seats"][0]["dinosaurs"]


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("horns,diff", [((1, 2), -1), ((1, 1), 0), ((2, 1), 1), ((3, 1), 2), ((4, 0), 4)])
def test_each_face_at_each_horn_difference(face, horns, diff):
    a, d = horns
    after = fight(attack_state(["Horn"] * a, ["Horn"] * d, [face]))
    expect = face in WINS[min(diff, 2)]
    assert won(after) == expect
    if expect:      # the defender's dinosaur is removed, the attacker moves in
        assert after["seats"][0]["dinosaurs"] == ["Z02", "Z04"]
        assert after["seats"][1]["dinosaurs"] == ["Z05", "Z06"]
    else:           # a lost attack moves nothing; the point is spent all the same
        assert after["seats"][0]["dinosaurs"] == ["Z01", "Z02"]
        assert after["seats"][1]["dinosaurs"] == ["Z04", "Z05", "Z06"]
    assert after["rolls"] == 1 and after["dice"] == []


@pytest.mark.parametrize("face", FACES)
def test_large_horn_adds_two_attacking_horns(face):
    assert won(fight(attack_state(["Large horn"], [], [face]))) == (face in WINS[2])
    assert won(fight(attack_state(["Large horn"], ["Horn"] * 2, [face]))) == (face in WINS[0])


@pytest.mark.parametrize("face", FACES)
def test_bony_plates_add_two_defending_horns(face):
    assert won(fight(attack_state(["Horn"], ["Bony plates"], [face]))) == (face in WINS[-1])
    assert won(fight(attack_state(["Horn"] * 3, ["Bony plates"], [face]))) == (face in WINS[1])


@pytest.mark.parametrize("face", FACES)
def test_frenzied_attack_adds_two_attacking_horns(face):
    play = [{"kind": "event", "option": 1}]
    after = fight(attack_state([], [], [face], events=["Frenzied attack"]), first=play)
    assert won(after) == (face in WINS[2])
    assert after["event_discard"] == ["Frenzied attack"] and after["seats"][0]["events"] == []


@pytest.mark.parametrize("face", FACES)
def test_horn_genes_count_as_at_least_two_in_the_other_reading(face):
    rs = ruleset("horn-genes-at-least")
    state = attack_state(["Large horn", "Horn"], [], [face])      # max(1, 2) = 2, not 3
    pols = policies(rs, 2, "script", {0: [{"kind": "move", "option": 1}, {"kind": "move", "option": 0}],
                                      1: [{"kind": "move", "option": 0}]})
    after, _ = reference.run_state(rs, state, pols, 0, 0, "phase")
    assert won(after) == (face in WINS[2])


def test_an_unforced_roll_is_the_contract_die_stream():
    rs = ruleset()
    state = attack_state([], [], [])
    state["rolls"] = 3
    after = fight(state)
    F = sum(r["copies"] for r in rs.tables["die"])
    faces = sorted((r["name"], k) for r in rs.tables["die"] for k in range(r["copies"]))
    face = faces[int(rng.below(rng.key(0, 0, rng.CHANCE, K_DIE, 2, 3), F))][0]
    assert won(after) == (face in WINS[0]) and after["rolls"] == 4


def test_a_clan_at_its_floor_cannot_be_attacked():
    rs = ruleset()
    state = attack_state([], [], ["claw"])
    state["seats"][1]["dinosaurs"] = ["Z04", "Z05"]
    pols = policies(rs, 2, "script", {0: [{"kind": "move", "option": 0}], 1: [{"kind": "move", "option": 0}]})
    seen = []

    class Spy:
        def __init__(self, p):
            self.p = p

        def choose(self, d, view):
            seen.append((d.seat, d.kind, list(d.options)))
            return self.p.choose(d, view)
    reference.run_state(rs, state, [Spy(p) for p in pols], 0, 0, "phase")
    assert all(o[0] != "attack" for _, _, opts in seen for o in opts)
