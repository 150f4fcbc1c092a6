"""Evolversi's search protocol (docs/rollout.md): PLACE decision points where run_state
stops, the engines' PLACE options, a determinization that keeps what the deciding seat saw
and re-deals only the hidden cards within each seat's own piles, and branches that play
the option they test."""
from collections import Counter

import pytest

from simcore.errors import UserError
from simcore.games import get_game
from simcore.games.evolversi.search import round_key
from strategies.registry import Bot, make_bots

G = get_game("evolversi")
RS = G.data.load()
PUBLIC = ("round", "phase", "turn", "order", "fourth_card", "fourth_round", "totem", "supply", "market",
          "evolution_discard", "event_discard", "shuffles", "ended")
SEAT_PUBLIC = ("animal", "position", "fury", "tokens", "discard", "revealed", "shuffles", "bought")


def _forcing(choices=()):
    return Bot("evolversi", "script:then=greedy", (("choices", tuple(choices)), ("then", "greedy")), "script")


def _points(players=4, seed=4, game=2, until="place"):
    """The saved states of one greedy game at every `until` stop."""
    bots = make_bots("evolversi", "greedy", players)
    state = G.new_state(RS, players, bots, seed, game)
    while True:
        state, _ = G.run_state("batch", RS, state, bots, seed, game, until)
        if state["ended"]:
            return
        yield state


@pytest.mark.parametrize("players", [2, 4, 5])
def test_every_place_stop_is_a_decision_point_of_the_first_seat_still_to_place(players):
    bots = make_bots("evolversi", "greedy", players)
    assert G.decision_point(RS, G.new_state(RS, players, bots, 4, 2)) is None      # nothing drawn yet
    n = 0
    for state in _points(players):
        seat, kind = G.decision_point(RS, state)
        assert kind == "PLACE" and state["phase"] == "play"
        assert state["seats"][seat]["hand"] and not state["seats"][seat]["above"]
        assert all(s["above"] or s["below"] for s in state["seats"][:seat])
        assert all(s["hand"] and not s["above"] and not s["below"] for s in state["seats"][seat:])
        n += 1
    assert n >= 4 * players
    for state in _points(players, until="turn"):
        assert G.decision_point(RS, state) is None                 # mid-round states are not


@pytest.mark.parametrize("players,bot", [(2, "random"), (5, "greedy")])
def test_both_engines_stop_at_the_same_place_states(players, bot):
    """until="place" (rules.to_place, reference Game.play_to_place) on either engine gives
    the same state at every stop, and the same end."""
    bots = make_bots("evolversi", bot, players)
    batch = ref = G.new_state(RS, players, bots, 6, 1)
    n = 0
    while not batch["ended"]:
        batch, b_out = G.run_state("batch", RS, batch, bots, 6, 1, "place")
        ref, r_out = G.run_state("reference", RS, ref, bots, 6, 1, "place")
        assert batch == ref, n
        n += 1
    assert b_out == r_out and n > players * 3


def _pools(state, seat, piles):
    return Counter(c for p in piles for c in state["seats"][seat][p])


@pytest.mark.parametrize("players", [2, 4])
def test_determinize_keeps_the_seats_view_and_redeals_only_hidden_cards(players):
    changed = 0
    for state in _points(players):
        seat, _ = G.decision_point(RS, state)
        w = G.determinize(RS, state, seat, 77)
        for key in PUBLIC:
            assert w[key] == state[key], key
        mine, theirs = w["seats"][seat], state["seats"][seat]
        assert {k: v for k, v in mine.items() if k != "deck"} == {k: v for k, v in theirs.items() if k != "deck"}
        assert sorted(mine["deck"]) == sorted(theirs["deck"])
        for x, (a, b) in enumerate(zip(w["seats"], state["seats"])):
            assert all(a[k] == b[k] for k in SEAT_PUBLIC)
            assert all(len(a[p]) == len(b[p]) for p in ("deck", "hand", "above", "below"))
            piles = ("deck", "hand", "above", "below")
            assert _pools(w, x, piles) == _pools(state, x, piles)      # a seat's cards stay its own
        assert sorted(w["evolution_deck"]) == sorted(state["evolution_deck"])
        assert sorted(w["event_deck"]) == sorted(state["event_deck"])
        assert [(t["space"], t["revealed"]) for t in w["pressure"]] == \
            [(t["space"], t["revealed"]) for t in state["pressure"]]
        assert [t["token"] for t in w["pressure"] if t["revealed"]] == \
            [t["token"] for t in state["pressure"] if t["revealed"]]
        assert sorted(t["token"] for t in w["pressure"]) == sorted(t["token"] for t in state["pressure"])
        changed += [s["hand"] for s in w["seats"]] != [s["hand"] for s in state["seats"]]
    assert changed > 0


def test_determinize_keeps_cards_turned_face_up():
    """In phase 3 the cards above are face up (phase 2 revealed them), and so are the cards
    below of a seat whose turn has come: a determinization keeps them in place."""
    kept = 0
    for state in _points(4, until="turn"):
        if state["phase"] != "actions":
            continue
        w = G.determinize(RS, state, 0, 5)
        for a, b in zip(w["seats"], state["seats"]):
            assert a["above"] == b["above"]
            if b["revealed"]:
                assert a["below"] == b["below"]
                kept += 1
    assert kept > 0


def test_determinize_depends_on_the_round_not_only_the_key():
    states = list(_points())
    a, b = states[0], states[4 * 3]
    assert a["round"] != b["round"]
    assert round_key(9, a) != round_key(9, b)


def test_legal_options_are_the_engines_place_options():
    """Option i, forced on either engine, puts exactly label i's cards above and below."""
    state = next(_points(3))
    seat, kind = G.decision_point(RS, state)
    labels = G.legal_options(RS, state, seat, kind)
    hand = state["seats"][seat]["hand"]
    assert len(hand) == 3 and len(labels) == 6          # 1 or 2 of 3 cards above
    assert G.legal_options(RS, state, seat, "BUY") == []
    for i, (up, down) in enumerate(labels):
        for engine in ("batch", "reference"):
            bots = [_forcing([{"kind": "PLACE", "option": i}]) if s == seat else make_bots("evolversi", "greedy", 1)[0]
                    for s in range(3)]
            after, _ = G.run_state(engine, RS, state, bots, 4, 2, "place")
            placed = after["seats"][seat]
            assert (tuple(placed["above"]), tuple(placed["below"])) == (up, down), (engine, i)


def test_branch_rows_are_the_games_run_state_plays_from_each_state_with_its_option():
    state = next(_points(4))
    seat, kind = G.decision_point(RS, state)
    worlds = [G.determinize(RS, state, seat, key) for key in (21, 22)]
    bots = [_forcing() if s == seat else make_bots("evolversi", "greedy", 1)[0] for s in range(4)]
    options = [0, 3, 5]
    out = G.branch(RS, worlds, seat, kind, options, bots, 4, 2, [21, 22])
    for o, option in enumerate(options):
        for k, key in enumerate((21, 22)):
            forced = list(bots)
            forced[seat] = _forcing([{"kind": "PLACE", "option": option}])
            _, raw = G.run_state("batch", RS, worlds[k], forced, 4, round_key(key, state) >> 1, "end")
            assert list(out["score"][o * 2 + k]) == raw["position"]
            assert list(out["winner"][o * 2 + k]) == raw["winner"]


def test_branch_rejects_a_kind_it_cannot_search():
    state = next(_points())
    with pytest.raises(UserError, match="kinds it can search: PLACE"):
        G.branch(RS, [state], 0, "BUY", [0], make_bots("evolversi", "greedy", 4), 4, 2, [1])


def test_determinize_deals_face_down_pressure_from_every_unseen_token():
    """With fewer Pressure spaces than tokens, setup puts a shuffled part of the tokens on the
    spaces, face down, and leaves the rest out unseen (rulebook, setup step 2): the seat does
    not know which kinds are on the board. Two worlds that differ only in which tokens were
    left out must determinize alike, and a re-deal may bring a left-out kind onto the board."""
    rs = G.data.load(overrides={"pressure_spaces": [2, 4, 6]})          # 3 spaces, 6 tokens
    bots = make_bots("evolversi", "greedy", 4)
    state, _ = G.run_state("batch", rs, G.new_state(rs, 4, bots, 4, 2), bots, 4, 2, "place")
    seat, _ = G.decision_point(rs, state)
    assert len(state["pressure"]) == 3 and not any(t["revealed"] for t in state["pressure"])
    swap = ["meteor", "meteor", "totem_or_fury"]                      # another deal of 3 of the 6
    if Counter(swap) == Counter(t["token"] for t in state["pressure"]):
        swap = ["swap_above", "swap_above", "totem_or_fury"]
    other = dict(state, pressure=[dict(t, token=k) for t, k in zip(state["pressure"], swap)])
    kinds = set()
    for key in range(20):
        a, b = G.determinize(rs, state, seat, key), G.determinize(rs, other, seat, key)
        assert a["pressure"] == b["pressure"], key
        kinds |= {t["token"] for t in a["pressure"]}
    assert kinds == {"meteor", "totem_or_fury", "swap_above"}


def test_branch_plays_on_after_the_saved_phase_1_with_phase_3_compiled(monkeypatch):
    """After the saved phase 1 every continuation has made its forced choice, so the rest runs
    on the plain policies with phase 3 compiled (rules.compiled_turn): the same outcomes as
    the numpy path, and the compiled path did play."""
    import simcore.games.evolversi.branch as branch_mod
    real = branch_mod.compiled_turn
    for n, state in enumerate(_points()):
        if n == 3:
            break
        seat, kind = G.decision_point(RS, state)
        bots = [_forcing() if s == seat else make_bots("evolversi", "greedy", 1)[0] for s in range(4)]
        runs = {}
        for compiled in (True, False):
            used = []
            monkeypatch.setattr(branch_mod, "compiled_turn",
                                lambda run, pol: used.append(real(run, pol) if compiled else None) or used[-1])
            runs[compiled] = (G.branch(RS, [state, state], seat, kind, [0, 2], bots, 4, 2, [31, 32]), used)
        (fast, used_fast), (slow, used_slow) = runs[True], runs[False]
        assert used_fast and all(u is not None for u in used_fast), "phase 3 did not compile in the branch"
        assert used_slow == [None]
        for k in ("score", "winner", "rounds", "acquired"):
            assert (fast[k] == slow[k]).all(), (n, k)


def test_a_script_bot_compiles_as_its_base_only_when_it_has_no_choices_left_to_play():
    from simcore.games.evolversi.state import tables_for
    tb = tables_for(RS, 4)
    assert _forcing().batch_policy(RS).compiled_form(tb) is not None
    assert _forcing([{"kind": "PLACE", "option": 1}]).batch_policy(RS).compiled_form(tb) is None
