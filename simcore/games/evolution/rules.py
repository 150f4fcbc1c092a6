"""Evolution's batch engine, the Python side: each rules step of kernels.py on the games g
of a `State` batch, with bot objects turned into the codes the compiled engine reads.

Bots: an object with `code` (strategies/evolution/compiled.py: GREEDY, SILLY, RANDOM) or
with `feed_code` / `card_code` (the scripted players kernels.SCRIPTED..: tests and the
conformance harness). A bot with a `script` (a list of option tuples, as the reference
engine's `feeding_options` gives them) plays those options first, in order; the options
it used are taken off its script, as the reference engine's script bots do. A bot with
`food_card` and `card_actions` (reference card action tuples) plays exactly those cards.

The engine lives in kernels.py; reference.py is its oracle.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import kernels as K
from .kernels import FED, OUT, PASSED
from .packed import (ATTACK, BODY, FORGO, INTEL, NEW, NONE, POP, RK, STORE, TRAIT, VEG, pack_rules,
                     pack_state)
from .ruleset import Cards, Rules
from .state import State

__all__ = ["Engine", "ATTACK", "BODY", "FED", "FORGO", "INTEL", "NEW", "NONE", "OUT", "PASSED",
           "POP", "STORE", "TRAIT", "VEG"]

_KIND_NAME = {VEG: "veg", STORE: "store", INTEL: "intel"}
_NAME_KIND = {"forgo": FORGO, "veg": VEG, "store": STORE, "intel": INTEL, "attack": ATTACK}


@dataclass(frozen=True)
class Engine:
    """Rules + card attributes, and their packed form for the compiled engine."""

    rules: Rules
    cards: Cards

    @cached_property
    def rk(self) -> RK:
        return pack_rules(self.rules, self.cards)

    @property
    def kind(self) -> np.ndarray:
        return self.cards.kind


# ---------------------------------------------------------------- bots and scripts

def feed_code(bot) -> int:
    return int(getattr(bot, "feed_code", getattr(bot, "code", K.EAGER_FEED)))


def card_code(bot) -> int:
    return int(getattr(bot, "card_code", getattr(bot, "code", K.PASS_CARDS)))


def option_row(opt: tuple) -> list:
    """A reference option tuple as an options-array row [kind, s, q, d, negate]."""
    kind = _NAME_KIND[opt[0]]
    if kind == FORGO:
        return [FORGO, 0, 0, 0, -1]
    if kind == ATTACK:
        return [ATTACK, opt[1], opt[2], opt[3], opt[4]]
    return [kind, opt[1], 0, 0, -1]


_ACTION_KIND = {"new": NEW, "trait": TRAIT, "pop": POP, "body": BODY}


def action_row(act: tuple) -> list:
    """A reference card action tuple as an actions-array row [kind, card, s, slot]."""
    kind = _ACTION_KIND[act[0]]
    if kind == NEW:
        return [NEW, act[1], 0, act[2]]
    if kind == TRAIT:
        return [TRAIT, act[1], act[2], act[3]]
    return [kind, act[1], act[2], 0]


def action_tuple(row) -> tuple:
    """An actions-array row as the reference engine's card action tuple."""
    kind, card, s, slot = (int(x) for x in row)
    if kind == NEW:
        return ("new", card, slot)
    if kind == TRAIT:
        return ("trait", card, s, slot)
    return ({POP: "pop", BODY: "body"}[kind], card, s)


def option_tuple(row) -> tuple:
    """An options-array row as the reference engine's option tuple."""
    kind = int(row[0])
    if kind == FORGO:
        return ("forgo",)
    if kind == ATTACK:
        return ("attack", int(row[1]), int(row[2]), int(row[3]), int(row[4]))
    return (_KIND_NAME[kind], int(row[1]))


class _Players:
    """The codes and scripts of one call's bots; `done()` takes the used options off the
    bots' scripts and reports an illegal scripted option."""

    def __init__(self, bots, P: int):
        bots = list(bots) if bots is not None else [None] * P
        self.bots = bots
        self.feed = np.array([feed_code(b) for b in bots], np.int64)
        self.cards = np.array([card_code(b) for b in bots], np.int64)
        scripts = [list(getattr(b, "script", None) or []) for b in bots]
        L = max([len(s) for s in scripts] + [1])
        self.script = np.full((P, L, 5), -1, np.int64)
        for p, s in enumerate(scripts):
            if s:
                self.feed[p] = K.SCRIPT_FEED
                self.script[p, :len(s)] = [option_row(o) for o in s]
        self.pos = np.zeros(P, np.int64)
        self.err = np.zeros(1, np.int64)
        # card scripts: `food_card` and `card_actions` (reference card action tuples)
        plays = [getattr(b, "card_actions", None) for b in bots]
        self.card_script = np.zeros((P, 1 + max([len(a or ()) for a in plays] + [0]), 4), np.int64)
        for p, (b, acts) in enumerate(zip(bots, plays)):
            if acts is not None:
                self.cards[p] = K.SCRIPT_CARDS
                self.card_script[p, 0, 0] = b.food_card
                self.card_script[p, 1:1 + len(acts)] = [action_row(x) for x in acts]

    def done(self) -> None:
        for p, b in enumerate(self.bots):
            if self.pos[p]:
                del b.script[:self.pos[p]]
        if self.err[0]:
            p = int(self.err[0]) - 1
            raise AssertionError(f"seat {p}: scripted option "
                                 f"{option_tuple(self.script[p, self.pos[p] - 1])} is not legal")


def _games(g) -> np.ndarray:
    return np.atleast_1d(np.asarray(g, np.int64))


def _rounds(E: Engine, st: State, g, phases: int, bots=None, single: int = -1,
            turn: int = 0) -> np.ndarray:
    """kernels.rounds: the `phases` of a round on each game of g."""
    g = _games(g)
    pl = _Players(bots, st.P)
    out = np.zeros(len(g), np.int64)
    K.rounds(pack_state(st), E.rk, g, phases, pl.cards, pl.feed,
             np.zeros((K.max_options(st.P, st.S), 5), np.int64),
             np.zeros((K.MAX_ACTS, 4), np.int64), np.zeros((len(g), st.P), np.int64),
             pl.script, pl.pos, pl.err, pl.card_script, single, turn, out)
    pl.done()
    return out


def _tool(E: Engine, st: State, g, mode: int, x=(), foods=None, opts=None,
          acts=None) -> np.ndarray:
    """kernels.tool on each game of g; returns its results (int64, one per game)."""
    g = _games(g)
    if opts is None:
        opts = np.zeros((K.max_options(st.P, st.S), 5), np.int64)
    if acts is None:
        acts = np.zeros((K.MAX_ACTS, 4), np.int64)
    if foods is None:
        foods = np.zeros((len(g), st.P), np.int64)
    out = np.zeros(len(g), np.int64)
    K.tools(pack_state(st), E.rk, g, mode, np.asarray(x, np.int64).reshape(-1), opts, acts,
            np.ascontiguousarray(foods, np.int64), out)
    return out


# ---------------------------------------------------------------- the public steps

def feeding_options(E: Engine, st: State, b: int, seat: int) -> list:
    """The legal feeding options of `seat` in game b, as reference option tuples, in the
    canonical order."""
    opts = np.zeros((K.max_options(st.P, st.S), 5), np.int64)
    n = int(_tool(E, st, b, K.OPTIONS, [seat], opts=opts)[0])
    return [option_tuple(r) for r in opts[:n]]


def can_attack(E: Engine, st: State, b: int, p: int, i: int, q: int, d: int,
               negate: int = -1) -> bool:
    """May species i of seat p attack species d of seat q (negating trait `negate`)?"""
    return bool(_tool(E, st, b, K.CAN_ATTACK, [p, i, q, d, negate])[0])


def feeding_turn(E: Engine, st: State, g, c, bots, turn) -> np.ndarray:
    """One feeding turn of seat c in each game g (one seat and turn number for all):
    FED, PASSED or OUT."""
    return _rounds(E, st, g, K.FEEDING, bots, single=int(c), turn=int(turn)).astype(np.int8)


def feeding(E: Engine, st: State, g, bots) -> None:
    _rounds(E, st, g, K.FEEDING, bots)


def reveal_effects(E: Engine, st: State, g) -> None:
    _rounds(E, st, g, K.REVEAL)


def add_food(E: Engine, st: State, g, foods) -> None:
    """foods: (n, P) food card values in turn order from the first player."""
    foods = np.asarray(foods, np.int64)
    _tool(E, st, g, K.ADD_FOOD, [foods.shape[1]], foods=foods)


def end_feeding(E: Engine, st: State, g) -> None:
    _rounds(E, st, g, K.END_FEEDING)


def play_action(E: Engine, st: State, g, p: int, kind: int, card: int, s: int,
                slot: int) -> np.ndarray:
    """The same card action in each game g (an illegal one is skipped). NEW: slot 0 =
    right end, 1 = left end. TRAIT: slot -1 adds, else replaces. Returns which applied."""
    return _tool(E, st, g, K.PLAY_ACTION, [p, kind, card, s, slot]).astype(bool)


def remove_from_hand(E: Engine, st: State, g, p: int, card: int) -> None:
    _tool(E, st, g, K.REMOVE_CARD, [p, card])


def sort_hands(E: Engine, st: State, g) -> None:
    _tool(E, st, g, K.SORT_HANDS)


def deal(E: Engine, st: State, g) -> np.ndarray:
    """Free species + deal for games g; returns the games that go on."""
    g = _games(g)
    return g[_rounds(E, st, g, K.DEAL).astype(bool)]


def play_round(E: Engine, st: State, g, bots) -> np.ndarray:
    """One round for games g; returns the games that played it."""
    g = _games(g)
    return g[_rounds(E, st, g, K.WHOLE_ROUND, bots).astype(bool)]


def silly_food_card(E: Engine, st: State, b: int, seat: int) -> int:
    """The food card the silly player would give in game b (-1: empty hand)."""
    return int(_tool(E, st, b, K.SILLY_FOOD_CARD, [seat])[0])


def silly_plan(E: Engine, st: State, b: int, seat: int) -> np.ndarray:
    """The card actions (rows [kind, card, s, slot]) the silly player would play in game b."""
    acts = np.zeros((K.MAX_ACTS, 4), np.int64)
    n = int(_tool(E, st, b, K.SILLY_PLAN, [seat], acts=acts)[0])
    return acts[:n]


def silly_feed(E: Engine, st: State, b: int, seat: int, options: list) -> tuple:
    """The option the silly player would choose among `options` (reference tuples)."""
    opts = np.zeros((max(len(options), 1), 5), np.int64)
    opts[:len(options)] = [option_row(o) for o in options]
    return options[int(_tool(E, st, b, K.SILLY_FEED, [seat, len(options)], opts=opts)[0])]


@K.kernel
def _setups(a, rk, players):
    for b in range(a.n_species.shape[0]):
        K.setup(a, rk, b, players)


def setup(E: Engine, st: State, players: int) -> None:
    """Shuffle every game's deck and draw its first player (reference.new_game)."""
    _setups(pack_state(st), E.rk, int(players))


def play_games(E: Engine, st: State, bots, players: int) -> None:
    """Set up and play every game of the batch to its end (one compiled call)."""
    codes = np.array([feed_code(b) for b in bots], np.int64)
    assert (codes == [card_code(b) for b in bots]).all() and (codes < K.SCRIPTED).all(), \
        "whole games take compiled bots"
    K.play_games(pack_state(st), E.rk, codes, int(players))
