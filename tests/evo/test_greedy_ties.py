"""Contract 13's choice rule in the reference greedy (`pick`): the best score, ties drawn
from the decision's bot-stream key, option 0 unless something beats it for MOVE / BIRTH."""
from simcore import rng
from strategies.evo.reference_bots import pick


def test_pick_takes_the_single_best_option_whatever_the_key():
    assert {pick([1, 5, 3, None], rng.key(1, g, rng.BOT, 1, 0, 0)) for g in range(50)} == {1}


def test_pick_draws_a_tie_from_the_key_among_the_tied_options_only():
    scores = [2, 7, 0, 7, None, 7]
    tied = [1, 3, 5]
    seen = set()
    for g in range(200):
        h = rng.key(1, g, rng.BOT, 1, 0, 0)
        got = pick(scores, h)
        assert got == tied[int(rng.below(h, 3))]
        seen.add(got)
    assert seen == set(tied)


def test_pick_floor_keeps_option_0_unless_an_option_scores_above_0():
    for g in range(50):
        h = rng.key(1, g, rng.BOT, 1, 0, 0)
        assert pick([0, 0, -3, None], h, floor=True) == 0
        assert pick([0, 0, 0], h, floor=True) == 0
        assert pick([0, 0, 0], h, floor=False) == int(rng.below(h, 3))
        assert pick([0, 4, 1], h, floor=True) == 1
