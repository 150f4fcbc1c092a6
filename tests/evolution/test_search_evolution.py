"""Evolution's search protocol (docs/rollout.md): decision points are the feeding turns that
ask a bot (run_state until="feed", both engines, a resumed feeding goes on as a whole one),
the determinization keeps what the deciding seat saw and re-deals the others' hands and the
deck, and a branch plays the forced option then the engines' game."""
from collections import Counter

import pytest

from simcore.errors import UserError
from simcore.games import get_game
from simcore.games.evolution.branch import stream_of
from strategies.registry import Bot, make_bots
from tests.games.kit import outcome_row

G = get_game("evolution")
RS = G.data.load()
SEED, GAME = 4, 2


def _points(players=4, seed=SEED, game=GAME, spec="greedy", engine="batch"):
    """Every state a game stops at with until="feed", and its end outcome."""
    bots = make_bots("evolution", spec, players)
    state = G.new_state(RS, players, bots, seed, game)
    states = []
    while True:
        state, raw = G.run_state(engine, RS, state, bots, seed, game, "feed")
        if raw is not None:
            return states, raw
        states.append(state)


def _forcing(choices=(), base="greedy"):
    return Bot("evolution", f"script:then={base}", (("choices", tuple(choices)), ("then", base)), "script")


@pytest.mark.parametrize("spec", ["greedy", "random"])
def test_feed_stops_play_the_same_game_as_a_whole_game_on_both_engines(spec):
    """Stopping at every feeding decision and going on from the saved state changes
    nothing: the same game as play_batch's, and both engines stop at the same states."""
    whole = G.play_batch(RS, 4, make_bots("evolution", spec, 4), SEED, [GAME])
    batch, raw = _points(spec=spec)
    ref, raw_ref = _points(spec=spec, engine="reference")
    assert batch == ref and raw == raw_ref
    assert raw["score"] == whole["score"][0].tolist()
    assert raw["traits_played"] == whole["acquired"][0].tolist()
    assert len(batch) > 20
    assert all(s["phase"] == "feeding" and s["queue"][0] == s["turn"] for s in batch)
    # a saved feeding played on with until="end" is the same game too
    end, _ = G.run_state("batch", RS, batch[len(batch) // 2], make_bots("evolution", spec, 4), SEED, GAME, "end")
    assert G.run_state("reference", RS, batch[len(batch) // 2], make_bots("evolution", spec, 4), SEED, GAME,
                       "end")[0] == end


def test_every_feed_stop_is_a_decision_point_of_the_seat_to_play():
    states, _ = _points()
    for s in states:
        seat, kind = G.decision_point(RS, s)
        assert (seat, kind) == (s["queue"][0], "feed")
        labels = G.legal_options(RS, s, seat, kind)
        assert len([x for x in labels if x[0] != "forgo"]) >= 1 and len(labels) >= 2
    start = G.new_state(RS, 4, make_bots("evolution", "greedy", 4), SEED, GAME)
    assert G.decision_point(RS, start) is None                    # the deal phase: none


def test_legal_options_are_the_engines_feeding_options():
    from simcore.games.evolution import rules as R
    from simcore.games.evolution.schema import compile_rules
    from simcore.games.evolution.state import from_games
    from simcore.games.evolution import state_io
    rules, cards = compile_rules(RS)
    for s in _points()[0][::5]:
        seat = s["queue"][0]
        g, _ = state_io.load(rules, cards, s, SEED, GAME)
        st = from_games([g], S=rules.species_slots)
        assert G.legal_options(RS, s, seat, "feed") == R.feeding_options(R.Engine(rules, cards), st, 0, seat)


def _unseen(state, seat):
    return Counter([tuple(c) for x, s in enumerate(state["seats"]) if x != seat for c in s["hand"]]
                   + [tuple(c) for c in state["deck"]])


@pytest.mark.parametrize("players", [3, 4])
def test_determinize_keeps_the_seats_view_and_redeals_the_others_hands_and_the_deck(players):
    changed_hands = changed_deck = 0
    for state in _points(players)[0]:
        seat = state["queue"][0]
        w = G.determinize(RS, state, seat, 77)
        assert w["seats"][seat] == state["seats"][seat]
        for key in ("discard", "round", "turn", "turns", "queue", "passes", "watering_hole", "first",
                    "final_round", "shuffles", "bank_out", "phase"):
            assert w[key] == state[key], key
        for a, b in zip(w["seats"], state["seats"]):
            assert (a["bag"], a["species"], a["played"], len(a["hand"])) == \
                (b["bag"], b["species"], b["played"], len(b["hand"]))
        assert len(w["deck"]) == len(state["deck"])
        assert _unseen(w, seat) == _unseen(state, seat)
        changed_hands += any(w["seats"][x]["hand"] != state["seats"][x]["hand"] for x in range(players))
        changed_deck += w["deck"] != state["deck"]
        # a determinization is a state both engines play (the seat's options unchanged)
        assert G.legal_options(RS, w, seat, "feed") == G.legal_options(RS, state, seat, "feed")
    assert changed_hands > 0 and changed_deck > 0


def test_determinize_depends_on_the_decision_not_only_on_the_key():
    """Two decision points of one seat get different re-deals from the same key (the rollout
    bot's keys name the turn by the state's `turn`, the seat to play in Evolution)."""
    states = _points()[0]
    a, b = states[3], states[3 + len(states) // 2]
    assert stream_of(5, a) != stream_of(5, b)


@pytest.mark.parametrize("engine", ["batch", "reference"])
def test_a_continuation_is_the_engines_game_from_its_determinization(engine):
    """Row o * K + k of a branch = the game run_state plays from determinization k with
    option o scripted for the seat, on the streams of keys[k] (seed 0, game stream_of)."""
    states = _points()[0]
    state = states[len(states) // 3]
    seat = state["queue"][0]
    options = list(range(len(G.legal_options(RS, state, seat, "feed"))))
    keys = [21, 22, 23]
    worlds = [G.determinize(RS, state, seat, k) for k in keys]
    # greedy, the default bot: the build the shared script and branch checks compile already
    bots = [_forcing() if s == seat else make_bots("evolution", "greedy", 1)[0] for s in range(4)]
    out = G.branch(RS, worlds, seat, "feed", options, bots, SEED, GAME, keys)
    for o in options[:3]:
        for k, key in enumerate(keys):
            line = [_forcing([{"kind": "feed", "option": o}]) if s == seat else bots[s]
                    for s in range(4)]
            _, raw = G.run_state(engine, RS, worlds[k], line, 0, stream_of(key, state), "end")
            assert outcome_row(G.state_outcome(RS, 4, raw), 0) == outcome_row(out, o * len(keys) + k)


def test_branch_needs_a_forcing_bot_and_a_feeding_decision():
    states = _points()[0]
    state = states[0]
    seat = state["queue"][0]
    with pytest.raises(ValueError, match="script"):
        G.branch(RS, [state], seat, "feed", [0], make_bots("evolution", "greedy", 4), SEED, GAME, [1])
    with pytest.raises(UserError, match="unknown decision kind"):
        G.branch(RS, [state], seat, "plan", [0], make_bots("evolution", "greedy", 4), SEED, GAME, [1])


def test_a_saved_queue_is_checked():
    state = dict(_points()[0][0])
    bots = make_bots("evolution", "greedy", 4)
    for bad in ([0, 0], [7], "x", []):
        with pytest.raises(UserError, match="distinct seats"):
            G.run_state("batch", RS, dict(state, queue=bad), bots, SEED, GAME, "feed")
    with pytest.raises(UserError, match="phase feeding"):
        G.run_state("batch", RS, dict(state, phase="deal"), bots, SEED, GAME, "feed")
