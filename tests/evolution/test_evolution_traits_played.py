"""Trait cards played per seat and trait (`traits_played`): counted alike by both engines,
by hand on a scripted round, and tallied by the runner as per-trait rows."""
from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from experiments.cli import main
from simcore.games.evolution import reference as ref
from simcore.games.evolution import rules as R
from simcore.games.evolution.adapter import GAME
from simcore.games.evolution.schema import GAME_DATA, rules_for
from simcore.games.evolution.traits import TRAIT_ID, TRAITS
from strategies.evolution.greedy import Greedy

from evo_players.scripted import scripted
from evolution_kit import ENGINES, PassBot, Table, play_round, policy_of
from strategies.registry import make_bots

class CardBot(PassBot):
    """Round bot: plays food card `food`, then the card actions `acts` (reference tuples)."""

    def __init__(self, food, acts=()):
        self.food, self.acts = food, list(acts)

    def choose_food_card(self, g, seat):
        return self.food

    def play_cards(self, g, seat):
        return list(self.acts)

    def policy(self):                # the batch engine plays the same cards
        return scripted(None, self.food, [R.action_row(a) for a in self.acts])


def _counts(**named):
    out = [0] * len(TRAITS)
    for name, n in named.items():
        out[TRAIT_ID[name.replace("_", "-")]] = n
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_a_scripted_round_counts_added_and_replacing_traits_only(engine):
    t = Table("default")
    g = t.game([[t.sp("carnivore", body=2, pop=2)], [t.sp(pop=1)]],
               hands={0: ["foraging", "climbing", "carnivore", "fat-tissue"],
                      1: ["horns", "herding"]})
    hand0, hand1 = g.players[0].hand, g.players[1].hand
    kind = lambda c: TRAITS[g.kind(c)]                                   # noqa: E731
    card = lambda hand, name: next(c for c in hand if kind(c) == name)  # noqa: E731
    bots = [CardBot(card(hand0, "fat-tissue"),
                    [("trait", card(hand0, "foraging"), 0, -1),     # added: counts
                     ("trait", card(hand0, "carnivore"), 0, -1),    # a second carnivore: illegal
                     ("trait", card(hand0, "climbing"), 0, 0)]),    # replaces carnivore: counts
            CardBot(card(hand1, "herding"),
                    [("trait", card(hand1, "horns"), 1, -1),        # no species 1: illegal
                     ("trait", card(hand1, "horns"), 0, -1)])]      # added: counts
    after = play_round(engine, g, make_bot=lambda seat: bots[seat])
    assert after.players[0].played == _counts(foraging=1, climbing=1)
    assert after.players[1].played == _counts(horns=1)


def test_play_one_counts_every_trait_card_on_the_boards():
    """Every trait card still on a seat's boards was played by that seat, so each count is at
    least the cards of that trait on the boards; both engines and the adapter's `acquired`
    (reference and batch paths) give the same counts."""
    rules, cards = rules_for("default")
    r = ref.play_one(rules, cards, 3, [Greedy()] * 3, 4, 17)
    g = r["game"]
    for p, counts in zip(g.players, r["traits_played"]):
        on_board = [0] * len(TRAITS)
        for sp in p.species:
            for c in sp.traits:
                on_board[g.kind(c)] += 1
        assert len(counts) == len(TRAITS)
        assert all(n >= b for n, b in zip(counts, on_board))
    out = R.play_batch(rules, cards, 3, [policy_of(Greedy())] * 3, 4, np.array([17]))
    assert out["traits_played"].dtype == np.int16 and out["traits_played"].shape == (1, 3, 17)
    assert out["traits_played"][0].tolist() == r["traits_played"]
    rs = GAME_DATA.load()
    one = GAME.play_one(rs, 3, make_bots("evolution", "greedy", 3), 4, 17)
    assert one["acquired"].tolist() == r["traits_played"]
    batch = GAME.play_batch(rs, 3, make_bots("evolution", "greedy", 3), 4, [17])
    assert batch["acquired"].shape == (1, 3, 17) and batch["acquired"][0].tolist() == r["traits_played"]
    assert GAME.entities(rs) == list(TRAITS) and GAME.entity_kind == "trait"


def test_run_writes_trait_tallies(tmp_path):
    out = tmp_path / "x"
    assert main(["run", "evolution", "--games", "2000", "--out", str(out)]) == 0
    from experiments.store import open_run
    tallies = open_run(out).tallies()
    assert tallies.height > 0
    assert set(tallies["entity_kind"].to_list()) == {"trait"}
    assert set(tallies["entity"].to_list()) <= set(TRAITS)
    assert tallies["entity"].n_unique() > 10
    assert (tallies["count"] >= tallies["games"]).all() and (tallies["games"] <= 2000).all()
    assert (tallies["wins"] <= tallies["games"]).all()
