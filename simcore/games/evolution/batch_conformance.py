"""The cs4500 harness operations on the batch engine (a batch of one game).

Each function takes the reference `Game` the harness parsed, runs the batch rules on
`state.from_games([game])` and converts the answer back, so the harness output code is
shared and only the rules code differs between engines.
"""
from __future__ import annotations

import numpy as np

from . import rules as R
from .reference import Game, Player
from .state import FOOD_CARD, from_games, to_game

_ONE = np.zeros(1, np.int64)


def _engine(g: Game) -> R.Engine:
    return R.Engine(g.rules, g.cards)


def attack(g: Game, dfd, att, left, right) -> bool:
    """xattack: seat 0 owns the attacker, seat 1 owns [left, defender, right]."""
    board = [s for s in (left, dfd, right) if s is not None]
    probe = Game(rules=g.rules, cards=g.cards,
                 players=[Player(pid=1, species=[att]), Player(pid=2, species=board)])
    st = from_games([probe])
    legal = R.can_attack_all(_engine(g), st, _ONE, _ONE, _ONE)
    return bool(legal[0, 1, 0 if left is None else 1])


def _choice_tuple(ch: R.Choice) -> tuple:
    kind = int(ch.kind[0])
    if kind == R.FORGO:
        return ("forgo",)
    if kind == R.ATTACK:
        return ("attack", int(ch.s[0]), int(ch.q[0]), int(ch.d[0]), int(ch.negate[0]))
    return ({R.VEG: "veg", R.STORE: "store", R.INTEL: "intel"}[kind], int(ch.s[0]))


def silly_feed(g: Game) -> tuple:
    """xfeed: the silly player's choice for seat 0."""
    from strategies.evolution import silly
    st = from_games([g])
    opts = R.feeding_options(_engine(g), st, _ONE, _ONE)
    return _choice_tuple(silly.batch_feed(_engine(g), st, _ONE, _ONE, opts))


def step(g: Game) -> Game:
    """xstep: one feeding turn of the first seat."""
    from strategies.evolution.silly import Silly
    st = from_games([g])
    R.feeding_turn(_engine(g), st, _ONE, _ONE, [Silly()] * st.P, _ONE)
    return to_game(st, 0, g)


_KIND = {"new": R.NEW, "trait": R.TRAIT, "pop": R.POP, "body": R.BODY}


def step4(g: Game, plans) -> Game:
    """xstep4: every seat's food card and card actions, the reveal, the whole feeding."""
    from strategies.evolution.silly import Silly
    E = _engine(g)
    grow = max(sum(1 for a in acts if a[0] == "new") for _, acts in plans)
    st = from_games([g], S=max(len(p.species) for p in g.players) + grow + 1)
    foods = np.zeros((1, st.P), np.int64)
    for p, (food, acts) in enumerate(plans):
        st.loc[0, food] = FOOD_CARD
        R.remove_from_hand(st, _ONE, np.full(1, p), np.full(1, food))
        foods[0, p] = g.cards.food[food]
        for act in acts:
            slot = act[2] if act[0] == "new" else (act[3] if act[0] == "trait" else 0)
            s = 0 if act[0] == "new" else act[2]
            R.play_action(E, st, _ONE, np.full(1, p), np.full(1, _KIND[act[0]]),
                          np.full(1, act[1]), np.full(1, s), np.full(1, slot))
    R.add_food(E, st, _ONE, foods)
    R.reveal_effects(E, st, _ONE)
    R.feeding(E, st, _ONE, [Silly()] * st.P)
    return to_game(st, 0, g)


def silly_choose(g: Game) -> tuple:
    """xsilly: (food card id, card actions) of the silly player in seat 0."""
    from strategies.evolution import silly
    st = from_games([g])
    R.sort_hands(st, _ONE)                  # in a game, bots see sorted hands
    food = int(silly.batch_food_card(st, _ONE, _ONE)[0])
    st.loc[0, food] = FOOD_CARD
    R.remove_from_hand(st, _ONE, _ONE * 0, np.full(1, food))
    names = {R.NEW: "new", R.TRAIT: "trait", R.POP: "pop", R.BODY: "body"}
    acts = []
    for kind, card, s, slot in silly.batch_card_actions(st, _ONE, _ONE):
        k = int(kind[0])
        if k == R.NONE:
            continue
        if k == R.NEW:
            acts.append(("new", int(card[0]), int(slot[0])))
        elif k == R.TRAIT:
            acts.append(("trait", int(card[0]), int(s[0]), int(slot[0])))
        else:
            acts.append((names[k], int(card[0]), int(s[0])))
    return food, acts
