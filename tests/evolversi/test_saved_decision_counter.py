"""A seat's decision counter (d in the BOT-stream key of a decision, key(seed, game, BOT,
round, seat, d)) is part of a saved state (seat field `decisions`): a game played on from a
state saved inside a round goes on counting where it stopped, so a random bot never draws a
key twice in a round (restarting the counter at 0 on loading would re-use the keys of the
seat's decisions before the load)."""
from collections import Counter

import pytest

from simcore.games import get_game
from simcore.games.evolversi.reference import Game
from strategies.registry import make_bots

G = get_game("evolversi")
RS = G.data.load()


class _Recording:
    """A reference policy that notes the address (round, seat, d) of every decision's key."""

    def __init__(self, inner, seen):
        self.inner, self.seen = inner, seen

    def choose(self, decision, view):
        self.seen.append((decision.round, decision.seat, decision.index))
        return self.inner.choose(decision, view)


@pytest.mark.parametrize("until", ["turn", "place"])
def test_decisions_after_a_load_never_reuse_a_key_of_the_same_game(until):
    """Each `until` stop is a fresh Game loaded from the saved state (as run_state and the
    rollout driver play a game); the keys' addresses stay distinct across the loads."""
    seen = []

    def policies():
        return [_Recording(b.reference_policy(RS, s), seen) for s, b in enumerate(make_bots("evolversi", "random", 4))]

    state = Game.new(RS, 4, policies(), 3, 0).to_state()
    loads = 0
    while not state["ended"]:
        g = Game.from_state(RS, state, policies(), 3, 0)
        g.play(until)
        state = g.to_state()
        loads += 1
    twice = [a for a, n in Counter(seen).items() if n > 1]
    assert loads > 20 and len(seen) > 100
    assert not twice, twice[:5]


def test_both_engines_save_and_load_the_same_counter():
    """From every mid-round stop, both engines play on with the saved counter: equal states
    (the counter included) at every stop, with random bots that read the keys."""
    bots = make_bots("evolversi", "random", 3)
    batch = ref = G.new_state(RS, 3, bots, 5, 0)
    counted = 0
    while not batch["ended"]:
        batch, _ = G.run_state("batch", RS, batch, bots, 5, 0, "turn")
        ref, _ = G.run_state("reference", RS, ref, bots, 5, 0, "turn")
        assert batch == ref
        counted += any(s["decisions"] for s in ref["seats"])
        ref = dict(ref, seats=[dict(s) for s in ref["seats"]])
    assert counted > 10
