"""Capybara's search protocol (docs/rollout.md): the determinization keeps what the deciding
seat saw and re-deals only the hidden cards, consistently with the cut's Revolutions."""
from collections import Counter

import pytest

from simcore.games import get_game
from simcore.games.capybara.search import _deck_segments
from strategies.registry import make_bots

G = get_game("capybara")
RS = G.data.load()


def _states(players=4, seed=4, game=2):
    bots = make_bots("capybara", "greedy", players)
    state = G.new_state(RS, players, bots, seed, game)
    while not state["ended"]:
        yield state
        state, _ = G.run_state("batch", RS, state, bots, seed, game, "turn")


def _unseen(state, seat):
    return Counter([c for x, s in enumerate(state["seats"]) if x != seat for c in s["hand"]]
                   + [c for c in state["deck"] if c != "Revolution"])


@pytest.mark.parametrize("players", [3, 4])
def test_determinize_keeps_the_seats_view_and_redeals_the_unseen_cards(players):
    changed = 0
    for state in _states(players):
        seat = state["current"]
        w = G.determinize(RS, state, seat, 77)
        assert w["seats"][seat] == state["seats"][seat]
        for key in ("discard", "slots", "turn", "current", "revolutions_played", "revolutions_boxed"):
            assert w[key] == state[key]
        assert [len(s["hand"]) for s in w["seats"]] == [len(s["hand"]) for s in state["seats"]]
        assert [s["taken"] for s in w["seats"]] == [s["taken"] for s in state["seats"]]
        assert len(w["deck"]) == len(state["deck"])
        assert w["deck"].count("Revolution") == state["deck"].count("Revolution")
        assert _unseen(w, seat) == _unseen(state, seat)
        assert sorted(w["strike_deck"]) == sorted(state["strike_deck"])
        changed += w != state
    assert changed > 0


def test_revolutions_stay_in_the_parts_of_the_cut_that_still_hold_one():
    for state in _states():
        segs = _deck_segments(RS, state, 4)
        assert segs is not None                   # every state of a dealt game fits the cut
        for key in range(20):
            deck = G.determinize(RS, state, state["current"], key)["deck"]
            for lo, length, has in segs:
                assert deck[lo:lo + length].count("Revolution") == int(has)


def test_legal_options_are_the_engines_action_options():
    state = next(_states())
    seat = state["current"]
    hand = state["seats"][seat]["hand"]
    labels = G.legal_options(RS, state, seat, "action")
    assert len(labels) == len(hand) + sum(1 for k in hand if k != "Capybaranka")
    assert labels[-len(hand):] == [("discard", k) for k in hand]
