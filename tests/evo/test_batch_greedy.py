"""The greedy bot's compiled form on constructed states (contract section 13): bids by
worth minus price with ties drawn from the decision's bot-stream key, attacks only at even odds or better,
removes its least valuable dinosaur."""
from simcore.games.evo import rules
from simcore.games.evo.maps import load_map
from simcore.games.evo.schema import GAME_DATA
from strategies.evo.registered import batch_policy

RS = GAME_DATA.load()
Z = load_map(RS, 2).names


def seat(*dinos, mp=6, genes=()):
    return {"mp": mp, "genes": list(genes), "events": [], "dinosaurs": [Z[z] for z in dinos]}


def greedy(st, players=2):
    return rules.run_state(RS, st, [batch_policy("greedy", RS) for _ in range(players)], 1, 0, "phase")[0]


def test_greedy_bids_worth_minus_price():
    """Seat 0 takes Egg at 0 (worth 3); seat 1 outbids it at 1 (3 - 1 = 2 > the event
    column's 1); seat 0, barred from Egg, takes the event column at 0. No two options tie."""
    st = rules.initial_state(RS, 2, 1, 0)
    st.update(phase="mutation", order=[0, 1], draws=["Egg"], seats=[seat(0, 1), seat(29, 30)])
    out = greedy(st)
    assert out["lab"] == [0, 1] and [x["mp"] for x in out["seats"]] == [6, 5]
    assert out["decisions"] == [2, 1]


def _auction_with_ties(game):
    """Horn and Egg drawn, 3 players: seat 1's Horn at 0 ties Egg at 1 (both 2), and later
    bids tie too; every game index gives other bot-stream keys."""
    m3 = load_map(RS, 3)
    st = rules.initial_state(RS, 3, 1, game)
    st.update(phase="mutation", order=[0, 1, 2], draws=["Horn", "Egg"],
              seats=[{"mp": 6, "genes": [], "events": [], "dinosaurs": [m3.names[z] for z in m3.starts(s)]}
                     for s in range(3)])
    out = rules.run_state(RS, st, [batch_policy("greedy", RS) for _ in range(3)], 1, game, "phase")[0]
    return tuple(out["lab"]), tuple(x["mp"] for x in out["seats"])


def test_greedy_breaks_ties_by_the_decisions_bot_stream_key():
    """The same auction in 40 games: with ties to a fixed option (the old lowest index) every
    game would end alike; with ties drawn from h (contract 13) they differ."""
    outcomes = {_auction_with_ties(k) for k in range(40)}
    assert len(outcomes) >= 2
    assert all(sorted(lab) == [0, 1, 2] for lab, _ in outcomes)     # one column per seat


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


def test_greedy_memo_keeps_a_zone_value_until_an_input_of_value_changes():
    """The zone-value memo (batch_greedy.memo) is refilled when the sector, the sector ahead,
    or the seat's thermo or fur changes, and only then (a stale value would change games)."""
    from simcore.games.evo.codes import N_TRAITS, T_FUR, T_THERMO
    from simcore.games.evo.state import G_SECTOR, O_TRAIT
    from strategies.evo.batch_greedy import memo, value

    pk, _ = rules.pack(RS, 2, [batch_policy("greedy", RS)] * 2, 1)
    g, rk = pk.g, pk.rk
    trait = int(rk[O_TRAIT]) + 1 * N_TRAITS

    def kept(change, ahead=-1):
        vals = memo(g, rk, 1, -1)
        g[vals + 3] = 7
        change()
        return g[memo(g, rk, 1, ahead) + 3] == 7

    assert kept(lambda: None)
    own = g[memo(g, rk, 0, -1) + 3]                     # another seat's memo is its own
    assert own == value(g, rk, 0, -1, 3) and own != 7
    assert not kept(lambda: g.__setitem__(G_SECTOR, (g[G_SECTOR] + 1) % 2))
    assert not kept(lambda: None, ahead=1)
    assert not kept(lambda: g.__setitem__(trait + T_THERMO, g[trait + T_THERMO] + 1))
    assert not kept(lambda: g.__setitem__(trait + T_FUR, g[trait + T_FUR] + 1))
