"""The cs4500 harness operations on the batch engine (a batch of one game).

Each function takes the reference `Game` the harness parsed, runs the compiled batch
rules on `state.from_games([game])` and converts the answer back, so the harness output
code is shared and only the rules code differs between engines. `silly` is the silly
player's batch face (a decisions.Policy), handed down from the command line.
"""
from __future__ import annotations

import numpy as np

from . import rules as R
from .reference_state import Game, Player
from .state import FOOD_CARD, from_games, to_game


def _engine(g: Game) -> R.Engine:
    return R.Engine(g.rules, g.cards)


def attack(g: Game, dfd, att, left, right) -> bool:
    """xattack: seat 0 owns the attacker, seat 1 owns [left, defender, right]."""
    board = [s for s in (left, dfd, right) if s is not None]
    probe = Game(rules=g.rules, cards=g.cards,
                 players=[Player(pid=1, species=[att]), Player(pid=2, species=board)])
    return R.can_attack(_engine(g), from_games([probe]), 0, 0, 0, 1, 0 if left is None else 1)


def silly_feed(g: Game, silly) -> tuple:
    """xfeed: the silly player's choice for seat 0."""
    E = _engine(g)
    st = from_games([g])
    return R.bot_feed(E, st, 0, 0, [silly] * st.P, R.feeding_options(E, st, 0, 0))


def step(g: Game, silly) -> Game:
    """xstep: one feeding turn of the first seat."""
    st = from_games([g])
    R.feeding_turn(_engine(g), st, 0, 0, [silly] * st.P, 0)
    return to_game(st, 0, g)


def step4(g: Game, plans, silly) -> Game:
    """xstep4: every seat's food card and card actions, the reveal, the whole feeding."""
    E = _engine(g)
    grow = max(sum(1 for a in acts if a[0] == "new") for _, acts in plans)
    st = from_games([g], S=max(len(p.species) for p in g.players) + grow + 1)
    foods = np.zeros((1, st.P), np.int64)
    for p, (food, acts) in enumerate(plans):
        R.remove_from_hand(E, st, 0, p, food)
        st.loc[0, food] = FOOD_CARD
        foods[0, p] = g.cards.food[food]
        for act in acts:
            R.play_action(E, st, 0, p, *R.action_row(act))
    R.add_food(E, st, 0, foods)
    R.reveal_effects(E, st, 0)
    R.feeding(E, st, 0, [silly] * st.P)
    return to_game(st, 0, g)


def silly_choose(g: Game, silly) -> tuple:
    """xsilly: (food card id, card actions) of the silly player in seat 0."""
    E = _engine(g)
    st = from_games([g])
    R.sort_hands(E, st, 0)                   # in a game, bots see sorted hands
    food = R.bot_food_card(E, st, 0, 0, [silly] * st.P)
    R.remove_from_hand(E, st, 0, 0, food)
    st.loc[0, food] = FOOD_CARD
    out = [R.action_tuple(row) for row in R.bot_plan(E, st, 0, 0, [silly] * st.P)]
    return food, out
