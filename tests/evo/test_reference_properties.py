"""Invariants of the Evo reference engine over random seeds, games, player counts, bots and
variants (hypothesis): every game ends at the meteorite after as many rounds as the pile
put before it; at every decision no seat has more than the cap of dinosaurs, MP are never
negative, and the genes are conserved between the bag, the lab and the seats."""
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.games.evo import reference

from .reference_kit import policies, ruleset

VARIANTS = ["default", "flippers-once", "horn-genes-at-least", "killer-babies-ignore-floor"]


class Checked:
    """Wraps a policy; checks the invariants on the game it is asked about."""

    def __init__(self, policy, total_genes):
        self.policy, self.total = policy, total_genes
        self.asked = 0

    def choose(self, d, view):
        self.asked += 1
        self.view = view
        cap = view.p["dinosaurs_per_player"]
        assert all(view.count(s) <= cap for s in range(view.P))
        assert all(m >= 0 for m in view.mp)
        held = sum(sum(g.values()) for g in view.genes) + sum(view.bag.values()) + len(view.lab_genes)
        assert held == self.total
        assert len(d.options) >= 1
        return self.policy.choose(d, view)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**31), game=st.integers(0, 10**6),
       bot=st.sampled_from(["random", "greedy"]), variant=st.sampled_from(VARIANTS))
def test_invariants_hold_throughout_a_game(players, seed, game, bot, variant):
    rs = ruleset(variant)
    start = reference.new_state(rs, players, policies(rs, players), seed, game)
    total = len(start["bag"])
    pols = [Checked(p, total) for p in policies(rs, players, bot)]
    out = reference.play_one(rs, players, pols, seed, game, trajectories=True)
    assert out["end_reason"] == 0
    assert out["rounds"] == start["climate_pile"].index("Meteorite")
    assert all(m >= 0 for m in out["score"]) and all(d <= rs["dinosaurs_per_player"] for d in out["dinosaurs"])
    assert out["standing"][out["rounds"] - 1] == out["score"]
    assert any(out["winner"])
    # every gene taken is tallied once (the view is the game itself, now in its final state)
    view = pols[0].view
    assert [sum(w) for w in out["won"]] == [sum(g.values()) for g in view.genes]
    assert sum(p.asked for p in pols) > 0
