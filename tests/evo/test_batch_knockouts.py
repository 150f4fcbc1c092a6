"""Knockouts (contract 10) and the named variants on the batch engine: an inactive gene is
held but its effect is off (no horn, no escape); `horn-genes-at-least` counts Large horn as
at least 2 horns; `killer-babies-ignore-floor` lets babies land on a protected clan."""
from simcore.games.evo import rules
from simcore.games.evo.maps import load_map
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.registered import batch_policy

DEFAULT = GAME_DATA.load()
Z = load_map(DEFAULT, 2).names
ATTACK = 6      # seat 0 on Z10: stop, 5 steps, then the attack on Z11 (test_batch_phases)


def knocked_out(name):
    return GAME_DATA.load(edits=[{"table": "genes", "where": {"name": name}, "set": {"active": 0}}])


def seat(*dinos, genes=()):
    return {"mp": 6, "genes": list(genes), "events": [], "dinosaurs": [Z[z] for z in dinos]}


def run(rs, phase, seats, choices, **over):
    st = rules.initial_state(rs, 2, 1, 0)
    st.update(phase=phase, seats=seats, order=[0, 1], **over)
    pols = [batch_policy("script", rs, choices=[{"kind": k, "option": o} for k, o in c]) for c in choices]
    return rules.run_state(rs, st, pols, 1, 0, "phase")[0]


def zones(st, s):
    return sorted(Z.index(n) for n in st["seats"][s]["dinosaurs"])


def test_a_knocked_out_horn_adds_nothing():
    seats = [seat(9, genes=["Horn"]), seat(10, 28, 30)]
    moves = [[("move", ATTACK), ("move", 0)], [("move", 0)]]
    assert zones(run(DEFAULT, "movement", seats, moves, dice=["claw_plus"]), 0) == [10]
    out = run(knocked_out("Horn"), "movement", seats, moves, dice=["claw_plus"])
    assert zones(out, 0) == [9] and out["seats"][0]["genes"] == ["Horn"]


def test_a_knocked_out_chameleon_skin_asks_no_escape():
    seats = [seat(9), seat(10, 28, 30, genes=["Chameleon skin"])]
    out = run(knocked_out("Chameleon skin"), "movement", seats,
              [[("move", ATTACK), ("move", 0)], [("move", 0)]], dice=["claw"])
    assert zones(out, 1) == [28, 30]


def test_horn_genes_at_least_counts_large_horn_as_two():
    """Large horn + Horn against 2 Horns: adding, A = 3 > D = 2 (claw+ wins); at least, A = 2."""
    seats = [seat(9, genes=["Large horn", "Horn"]), seat(10, 28, 30, genes=["Horn", "Horn"])]
    moves = [[("move", ATTACK), ("move", 0)], [("move", 0)]]
    assert zones(run(DEFAULT, "movement", seats, moves, dice=["claw_plus"]), 0) == [10]
    assert zones(run(GAME_DATA.load("horn-genes-at-least"), "movement", seats, moves, dice=["claw_plus"]), 0) == [9]


def test_killer_babies_ignore_floor_reaches_a_protected_clan():
    m = load_map(DEFAULT, 2)
    near = sorted(t for t in range(len(Z)) if t not in (8, 9, 10, 28) and min(m.dist[t, 8], m.dist[t, 9]) <= 1)
    seats = [seat(8, 9, genes=["Killer babies"]), seat(10, 28)]
    rs = GAME_DATA.load("killer-babies-ignore-floor")
    pick = 1 + sorted(near + [10]).index(10)
    out = run(rs, "birth", seats, [[("birth", pick)], [("birth", 0)]], dice=["claw"])
    assert zones(out, 0) == [8, 9, 10] and zones(out, 1) == [28]
    # the default respects the floor: the same option index is another, empty zone
    out = run(DEFAULT, "birth", seats, [[("birth", pick)], [("birth", 0)]], dice=["claw"])
    assert zones(out, 1) == [10, 28] and out["dice"] == ["claw"]
