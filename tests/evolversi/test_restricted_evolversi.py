"""Evolversi's greedy+favor:CARD / greedy+avoid:CARD on constructed decisions:
BUY takes (favor) or never takes (avoid) the design; OPTIONAL / MORE activate it or not."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from simcore.games import get_game
from strategies.evolversi.restricted import RestrictedGreedyBatch, RestrictedGreedyBot
from strategies.evolversi.reference_bots import GreedyBot
from strategies.weights import default

COST_WEIGHT = default("evolversi")["cost"]

RS = get_game("evolversi").data.load()
BUY = [10, 9, 1]                  # buy values of the designs in rows 0, 1, 2 (uid = row here)
VIEW = SimpleNamespace(row=lambda u: u, market=[0, 1, 2], purchase_cost=lambda slot: slot + 1)
DECISION = SimpleNamespace(kind="BUY", options=[None, 0, 1, 2], info={})


def _ref(cls, *args):
    bot = cls(RS, *args)
    bot.buy = BUY
    return bot


def test_favor_buys_the_design_even_at_a_loss_and_avoid_buys_the_next_best():
    plain = _ref(GreedyBot).choose(DECISION, VIEW)
    assert plain == 1                                            # slot 0: 10 - 2 x 1
    assert 1 - COST_WEIGHT * 3 < 0                               # row 2 in slot 2 is a loss for greedy
    assert _ref(RestrictedGreedyBot, "favor", [2]).choose(DECISION, VIEW) == 3
    assert _ref(RestrictedGreedyBot, "avoid", [0]).choose(DECISION, VIEW) == 2      # slot 1: 9 - 2 x 2
    assert _ref(RestrictedGreedyBot, "favor", [1]).choose(DECISION, VIEW) == 2
    only = SimpleNamespace(kind="BUY", options=[None, 0], info={})
    assert _ref(RestrictedGreedyBot, "avoid", [0]).choose(only, VIEW) == 0        # no purchase


def test_the_batch_form_makes_the_same_buy_choices():
    tb = SimpleNamespace(comps=SimpleNamespace(card_row=np.arange(3)))
    q = SimpleNamespace(info={"market": np.array([[0, 1, 2], [0, 1, -1]]), "cost": np.array([[1, 2, 3], [1, 2, 3]])},
                        valid=np.array([[True, True, True, True], [True, True, True, False]]),
                        view=SimpleNamespace(tb=tb))
    v = {"buy": np.array(BUY + [0], np.int32)}
    assert RestrictedGreedyBatch(RS, "favor", [2], default("evolversi"))._buy(q, v).tolist() == [3, 1]     # game 2: no row-2 card
    assert RestrictedGreedyBatch(RS, "avoid", [0], default("evolversi"))._buy(q, v).tolist() == [2, 2]


def test_optional_and_more_activate_a_favoured_design_and_never_an_avoided_one():
    effects = {0: 5, 1: -1}                                        # greedy activates row 0 only
    for kind in ("OPTIONAL", "MORE"):
        for card, plain in ((0, 1), (1, 0)):
            d = SimpleNamespace(kind=kind, options=[0, 1], info={"card": card, "target": 1})
            view = SimpleNamespace(row=lambda u: u)
            bots = {}
            for mode in ("favor", "avoid"):
                bot = RestrictedGreedyBot(RS, mode, [card])
                bot.effect = [effects[0], effects[1]]
                bot.cards = [{"effect": "gain_points"}, {"effect": "gain_points"}]
                bots[mode] = bot.choose(d, view)
            assert (bots["favor"], bots["avoid"]) == (1, 0), (kind, card, plain)
            other = RestrictedGreedyBot(RS, "favor", [2])
            other.effect, other.cards = [5, -1], [{"effect": "gain_points"}] * 2
            assert other.choose(d, view) == plain                  # another design: plain greedy
