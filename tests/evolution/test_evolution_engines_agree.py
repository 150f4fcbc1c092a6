"""The batch engine and the reference engine play identical games, game by game.

Each game is compared on its results (score, winner, rounds, end reason, trait cards played
per seat and trait) and on its whole final position (boards, hands, bags, Watering Hole, deck, bank ledger).
"""
from __future__ import annotations

import numpy as np
import pytest

from evolution_kit import policy_of
from simcore.games.evolution import reference as ref
from simcore.games.evolution import rules as R
from simcore.games.evolution.schema import rules_for
from simcore.games.evolution.state import to_game
from strategies.evolution.greedy import Greedy
from strategies.evolution.random_bot import RandomBot
from strategies.evolution.silly import Silly

BOTS = {"silly": Silly(), "random": RandomBot(), "greedy": Greedy()}


def _position(g):
    return ([(p.bag, sorted(p.hand), [(s.food, s.body, s.pop, s.fat, s.traits) for s in p.species])
             for p in g.players], g.wh, g.deck, g.bank_out, g.first)


def _check(variant, players, bot_names, seed, games):
    rules, cards = rules_for(variant)
    bots = [BOTS[bot_names[k % len(bot_names)]] for k in range(players)]
    out = R.play_batch(rules, cards, players, [policy_of(b) for b in bots], seed, games)
    st = out["state"]
    for b, gi in enumerate(games):
        r = ref.play_one(rules, cards, players, bots, seed, int(gi))
        assert r["score"] == out["score"][b].tolist(), (variant, players, gi)
        assert r["winner"] == out["winner"][b].tolist(), (variant, players, gi)
        assert (r["rounds"], r["end_reason"]) == (out["rounds"][b], out["end_reason"][b]), gi
        assert r["traits_played"] == out["traits_played"][b].tolist(), (variant, players, gi)
        assert _position(r["game"]) == _position(to_game(st, b, r["game"])), (variant, players, gi)


# The outcomes of 2,000 games per player count and variant (and 100,000 in the slow run)
# are compared for every game in tests/games; here the whole final position, on fewer games.
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_north_star_engines_agree_on_the_final_position(players):
    _check("default", players, ["random", "silly", "greedy"], 11, np.arange(0, 300))
    _check("second-printing", players, ["silly", "greedy", "random"], 11, np.arange(300, 600))


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_cs4500_engines_agree_on_the_final_position(players):
    # two seatings of the same three bots: one compiled engine build (a set of bots is a build)
    _check("cs4500", players, ["greedy", "silly", "random"], 5, np.arange(0, 300))
    _check("cs4500", players, ["random", "silly", "greedy"], 5, np.arange(300, 600))
