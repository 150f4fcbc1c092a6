"""The greedy bot's compiled form on constructed states (contract section 13): bids by
worth minus price with ties to the lowest option, attacks only at even odds or better,
removes its least valuable dinosaur."""
from simcore.games.evo import rules
from simcore.games.evo.maps import load_map
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.batch_bots import batch_policy

RS = GAME_DATA.load()
Z = load_map(RS, 2).names


def seat(*dinos, mp=6, genes=()):
    return {"mp": mp, "genes": list(genes), "events": [], "dinosaurs": [Z[z] for z in dinos]}


def greedy(st, players=2):
    return rules.run_state(RS, st, [batch_policy("greedy", RS) for _ in range(players)], 1, 0, "phase")[0]


def test_greedy_bids_worth_minus_price_ties_to_the_lowest_option():
    """Seat 0 takes Egg at 0 (worth 3); seat 1 Horn at 0 (2, tied with Egg at 1: Horn's row
    comes first); seat 2 outbids Egg at 1 (2 > 1); seat 0, barred from Egg, ties the event
    column at 0 with Horn at 1 (both 1): the event column's row comes first."""
    m3 = load_map(RS, 3)
    st = rules.initial_state(RS, 3, 1, 0)
    st.update(phase="mutation", order=[0, 1, 2], draws=["Horn", "Egg"],
              seats=[{"mp": 6, "genes": [], "events": [], "dinosaurs": [m3.names[z] for z in m3.starts(s)]}
                     for s in range(3)])
    out = greedy(st, 3)
    assert out["lab"] == [0, 1, 2] and [x["mp"] for x in out["seats"]] == [6, 6, 5]
    assert out["decisions"] == [2, 1, 1]


def test_greedy_attacks_only_with_at_least_even_odds():
    for genes, attacks in (((), False), (("Horn",), True)):
        st = rules.initial_state(RS, 2, 1, 0)
        st.update(phase="movement", order=[0, 1], dice=["claw"],
                  seats=[seat(9, genes=genes), seat(10, 28, 30)])
        out = greedy(st)
        assert (out["rolls"] == 1) == attacks and (out["dice"] == []) == attacks


def test_greedy_removes_its_least_valuable_dinosaur():
    """Sector 1: mountains are deadly and 2 steps from plains, desert hot and 1 step: the
    mountain dinosaur goes (value -8 against -4)."""
    st = rules.initial_state(RS, 2, 1, 0)
    st.update(phase="survival", order=[0, 1], sector=1, seats=[seat(0, 5, 9), seat(29, 30)])
    out = greedy(st)
    assert out["seats"][0]["dinosaurs"] == [Z[0], Z[5]]
