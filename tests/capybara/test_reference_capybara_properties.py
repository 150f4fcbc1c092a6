"""Properties of the reference engine over random games (hypothesis): tokens are always in
a supply or on a strike, cards and strikes are conserved, every game ends, the score is
the fatigue of the strikes taken, the winners follow the tie-breaks, and a game continued
from its JSON state after setup is the same game."""
from collections import Counter

from hypothesis import given, settings, strategies as st

from .capybara_reference_kit import policies, ruleset
from simcore.games.capybara import reference, state_io

RULESETS = {v: ruleset(v) for v in ("default", "additional-rules", "boxed-last-resolves", "revolution-bonus-card")}

games = st.tuples(st.sampled_from(sorted(RULESETS)), st.integers(2, 6), st.integers(0, 2**32 - 1),
                  st.integers(0, 10**6), st.sampled_from(["random", "greedy"]))


def check_conservation(g):
    p, comps = g.p, g.comps
    for s in range(g.P):
        on = sum(sl["tokens"][s] for sl in g.slots)
        assert g.supply[s] >= 0 and g.supply[s] + on == p["tokens_per_player"]
    cards = [u for h in g.hands for u in h] + g.deck + g.discard + g.removed + [u for sl in g.slots for u in sl["locks"]]
    capybaras = [u for u in cards if not comps.is_revolution(u)]
    assert sorted(capybaras) == list(range(comps.n_capybara))
    in_deck = sum(1 for u in g.deck if comps.is_revolution(u))
    assert in_deck + g.revolutions_played + g.revolutions_boxed == p["revolutions"]
    assert len(set(cards)) == len(cards)
    strikes = g.strike_deck + [u for t in g.taken for u in t] + \
        [u for sl in g.slots for u in ([sl["strike"]] if sl["strike"] is not None else []) + sl["under"]]
    assert sorted(strikes) == list(range(len(comps.strike_name)))
    for sl in g.slots:
        if sl["strike"] is None:
            assert not any(sl["tokens"]) and not sl["locks"] and not sl["under"]


@settings(max_examples=30, deadline=None)
@given(games)
def test_invariants_hold_after_every_turn_and_the_game_ends(case):
    variant, P, seed, game, bot = case
    rs = RULESETS[variant]
    g = reference._new(rs, P, policies(rs, P, bot), seed, game, None)
    check_conservation(g)
    bound = len(g.deck) + 1      # each turn draws at least one card (contract 4: a card leaves or the hand is empty)
    while not g.ended:
        g.play("turn")
        check_conservation(g)
        assert g.turn <= bound
    out = g.outcome()
    rows = {r["name"]: r["fatigue"] for r in rs.tables["strikes"]}
    state = g.to_state()
    taken = [sum(rows[n] for n in seat["taken"]) for seat in state["seats"]]
    assert out["fatigue"] == taken
    keys = [(out["fatigue"][s], out["tokens_left"][s], out["strikes"][s]) for s in range(P)]
    assert out["winner"] == [k == min(keys) for k in keys]
    assert out["rounds"] == -(-out["turns"] // P) and len(out["trajectory"]) == out["rounds"]
    assert out["trajectory"][-1] == [-f for f in out["fatigue"]]
    assert [len(r) for r in out["played"]] == [len(g.comps.names)] * P


@settings(max_examples=15, deadline=None)
@given(games)
def test_a_game_continued_from_its_state_after_setup_is_the_same_game(case):
    variant, P, seed, game, bot = case
    rs = RULESETS[variant]
    whole = reference.play_one(rs, P, policies(rs, P, bot), seed, game)
    start = reference.new_state(rs, P, policies(rs, P, bot), seed, game)
    _, out = reference.run_state(rs, start, policies(rs, P, bot), seed, game, "end")
    assert out == whole


@settings(max_examples=15, deadline=None)
@given(games, st.integers(0, 30))
def test_state_round_trip_is_exact(case, turns):
    variant, P, seed, game, bot = case
    rs = RULESETS[variant]
    g = reference._new(rs, P, policies(rs, P, bot), seed, game, None)
    for _ in range(turns):
        if not g.ended:
            g.play("turn")
    state = g.to_state()
    fields = state_io.resolve(rs, g.comps, state)
    loaded = reference.Game(rs, P, policies(rs, P, bot), seed, game)
    loaded.load(fields)
    assert loaded.to_state() == state
    assert Counter(k for seat in state["seats"] for k in seat["hand"]) == \
        Counter(g.comps.card_key[u] for h in g.hands for u in h)
