"""Evolution's batch engine: whole games (`play_batch`) and each rules step on the games g
of a `State` batch, for the scenario files, the conformance harness and the tests.

The rules are compiled (kernels.py and its kernels_*.py modules: no bot; engine.py: the
steps that ask bots, built once per set of bots by jit.engine_for). Bots arrive as
`decisions.Policy` objects, the batch face of a registered bot (strategies/evolution/),
one per seat; a policy's memory row is handed to the compiled code and written back
after each call.

The reference engine (reference.py) is the oracle: same phases, random addresses and
decisions.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ...errors import UserError
from .decisions import Policy, distinct
from .jit import engine_for, kernel
from . import kernels as K
from .kernels import ASK_FEED, ASK_FOOD_CARD, ASK_PLAN
from .kernels_feeding import FED, OUT, PASSED, max_options
from .packed import (ATTACK, BODY, FORGO, INTEL, NEW, NONE, POP, RK, STORE, TRAIT, VEG, pack_rules,
                     pack_state)
from .schema import Cards, Rules
from .state import State, empty

__all__ = ["Engine", "play_batch", "scores", "winners", "ATTACK", "BODY", "FED", "FORGO", "INTEL",
           "NEW", "NONE", "OUT", "PASSED", "POP", "STORE", "TRAIT", "VEG"]

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


# ---------------------------------------------------------------- rows <-> reference tuples

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


class _Bots:
    """The engine build for one call's policies, each seat's index into it, and the
    policies' memory rows (written back by `done()`)."""

    def __init__(self, E: "Engine", policies, P: int):
        policies = list(policies)
        assert len(policies) == P, f"{len(policies)} policies for {P} seats"
        assert all(isinstance(x, Policy) for x in policies), \
            "the batch engine takes decisions.Policy objects (a bot's batch_policy)"
        self.policies = policies
        self.mod = engine(E, policies)
        _, self.idx = distinct(policies)
        self.mem = _memory(policies)
        self.err = np.zeros(1, np.int64)

    def done(self) -> None:
        for p, x in enumerate(self.policies):
            if x.memory is not None:
                x.memory[:] = self.mem[p, :len(x.memory)]
        if self.err[0]:
            raise UserError(f"seat {int(self.err[0]) - 1}: the bot chose no legal option (a "
                            "scripted choice out of range?)", key="choices")


def _memory(policies) -> np.ndarray:
    """The policies' memory rows, one per seat (int64 (P, M), zero-padded)."""
    rows = [np.asarray(x.memory if x.memory is not None else (), np.int64) for x in policies]
    mem = np.zeros((len(rows), max([len(r) for r in rows] + [1])), np.int64)
    for p, r in enumerate(rows):
        mem[p, :len(r)] = r
    return mem


_WARM: set = set()


def engine(E: "Engine", policies):
    """The compiled engine module for these policies. Its first use in a process plays one
    game on it (with copies of the policies' memory): that compiles it, or loads it from
    the cache, with one line on stderr when it compiles (GameBuild.warm)."""
    mod = engine_for(policies)
    if mod.BUILD.key not in _WARM:
        _WARM.add(mod.BUILD.key)
        copies = [x._replace(memory=None if x.memory is None else np.array(x.memory))
                  for x in policies]
        mod.BUILD.warm(lambda: _play_all(mod, E, copies, len(copies), 0, [0]))
    return mod


def _games(g) -> np.ndarray:
    return np.atleast_1d(np.asarray(g, np.int64))


def _scratch(st: State):
    return (np.zeros((max_options(st.P, st.S), 5), np.int64),
            np.zeros((K.MAX_ACTS, 4), np.int64))


def _rounds(E: Engine, st: State, g, phases: int, bots, single: int = -1,
            turn: int = 0, arr=None) -> np.ndarray:
    """engine.rounds: the `phases` of a round on each game of g (arr: st packed, its
    feeding's saved place set; default: a whole feeding)."""
    g = _games(g)
    pl = _Bots(E, bots, st.P)
    opts, acts = _scratch(st)
    out = np.zeros(len(g), np.int64)
    pl.mod.rounds(pack_state(st) if arr is None else arr, E.rk, g, phases, pl.idx, opts, acts,
                  np.zeros((len(g), st.P), np.int64), pl.mem, pl.err, single, turn, out)
    pl.done()
    return out


def _tool(E: Engine, st: State, g, mode: int, x=(), foods=None, opts=None,
          acts=None) -> np.ndarray:
    """kernels.tool on each game of g; returns its results (int64, one per game)."""
    g = _games(g)
    o, c = _scratch(st)
    opts = o if opts is None else opts
    acts = c if acts is None else acts
    if foods is None:
        foods = np.zeros((len(g), st.P), np.int64)
    out = np.zeros(len(g), np.int64)
    K.tools(pack_state(st), E.rk, g, mode, np.asarray(x, np.int64).reshape(-1), opts, acts,
            np.ascontiguousarray(foods, np.int64), out)
    return out


def _ask(E: Engine, st: State, b: int, mode: int, bots, x, opts=None, acts=None) -> int:
    pl = _Bots(E, bots, st.P)
    o, c = _scratch(st)
    opts = o if opts is None else opts
    acts = c if acts is None else acts
    r = int(pl.mod.ask(pack_state(st), E.rk, b, mode, np.asarray(x, np.int64), pl.idx, opts,
                       acts, pl.mem))
    pl.done()
    return r


# ---------------------------------------------------------------- the public steps

def feeding_options(E: Engine, st: State, b: int, seat: int) -> list:
    """The legal feeding options of `seat` in game b, as reference option tuples, in the
    canonical order."""
    opts = np.zeros((max_options(st.P, st.S), 5), np.int64)
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


def feeding_from(E: Engine, st: State, b: int, bots, place=None, stop: bool = False):
    """The feeding of game b from its saved `place` ({"queue": seats from the one to play,
    "passes", "turns"}; None: a fresh feeding from the first player), to its end or, with
    `stop`, to just before the next turn that asks a bot to choose (a saved place's first turn is
    played). Returns that turn's place, or None when the feeding ended (engine.feeding)."""
    arr = pack_state(st)
    flag = K.STOP if stop else 0
    if place is None:
        arr.fq[:] = (-1, 0, 0, flag)
    else:
        queue = list(place["queue"])
        arr.order[:len(queue)] = queue
        arr.fq[:] = (len(queue), place["passes"], place["turns"], flag)
    _rounds(E, st, [b], K.FEEDING, bots, arr=arr)
    if arr.fq[K.Q_STOP] != K.STOPPED:
        return None
    n = int(arr.fq[K.Q_N])
    return {"queue": [int(x) for x in arr.order[:n]], "passes": int(arr.fq[K.Q_PASSES]),
            "turns": int(arr.fq[K.Q_TURN])}


def reveal_effects(E: Engine, st: State, g) -> None:
    """The reveal-time traits that happen after the food cards are added."""
    _tool(E, st, g, K.DO_REVEAL)


def reveal_before_food(E: Engine, st: State, g) -> None:
    """The reveal-time traits that happen before the food cards are added (reveal_before_food)."""
    _tool(E, st, g, K.DO_REVEAL_BEFORE_FOOD)


def add_food(E: Engine, st: State, g, foods) -> None:
    """foods: (n, P) food card values in turn order from the first player."""
    foods = np.asarray(foods, np.int64)
    _tool(E, st, g, K.ADD_FOOD, [foods.shape[1]], foods=foods)


def end_feeding(E: Engine, st: State, g) -> None:
    _tool(E, st, g, K.DO_END_FEEDING)


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
    return g[_tool(E, st, g, K.DEAL_ROUND).astype(bool)]


def play_round(E: Engine, st: State, g, bots) -> np.ndarray:
    """One round for games g; returns the games that played it."""
    g = _games(g)
    return g[_rounds(E, st, g, K.WHOLE_ROUND, bots).astype(bool)]


def cards(E: Engine, st: State, g, bots) -> None:
    """Every seat's food card, card plays, and the food cards onto the Watering Hole."""
    _rounds(E, st, g, K.CARDS, bots)


def end_round(E: Engine, st: State, g, bots) -> None:
    """The end of feeding, hands sorted, the first player passes, the round is counted."""
    _rounds(E, st, g, K.END_FEEDING | K.NEXT, bots)


def bot_food_card(E: Engine, st: State, b: int, seat: int, bots) -> int:
    """The food card seat's bot would give in game b (-1: empty hand)."""
    return _ask(E, st, b, ASK_FOOD_CARD, bots, [seat, 0])


def bot_plan(E: Engine, st: State, b: int, seat: int, bots) -> np.ndarray:
    """The card actions (rows [kind, card, s, slot]) seat's bot would play in game b."""
    acts = np.zeros((K.MAX_ACTS, 4), np.int64)
    n = _ask(E, st, b, ASK_PLAN, bots, [seat, 0], acts=acts)
    return acts[:n]


def bot_feed(E: Engine, st: State, b: int, seat: int, bots, options: list) -> tuple:
    """The option seat's bot would choose among `options` (reference tuples)."""
    opts = np.zeros((max(len(options), 1), 5), np.int64)
    opts[:len(options)] = [option_row(o) for o in options]
    return options[_ask(E, st, b, ASK_FEED, bots, [seat, len(options)], opts=opts)]


@kernel
def _setups(a, rk, players):
    for b in range(a.n_species.shape[0]):
        K.setup(a, rk, b, players)


def setup(E: Engine, st: State, players: int) -> None:
    """Shuffle every game's deck and draw its first player (reference.new_game)."""
    _setups(pack_state(st), E.rk, int(players))


# ---------------------------------------------------------------- whole games

def new_batch(E: Engine, players: int, seed: int, games) -> State:
    """Setup: every game's deck shuffled by its own stream, first player drawn."""
    games = np.asarray(games, np.int64)
    st = empty(len(games), players, E.rules.species_slots, E.cards.n, seed=seed, games=games)
    setup(E, st, players)
    return st


_NO_STANDING = np.zeros((0, 0, 0), np.int64)      # trajectories off: the engine records nothing


def play_games(E: Engine, st: State, bots, players: int, standing=_NO_STANDING) -> None:
    """Set up and play every game of the batch to its end (one compiled call); `standing`:
    (B, max_rounds, P) int64 to receive each seat's score after every round, or none."""
    pl = _Bots(E, bots, st.P)
    _play_state(pl.mod, E, st, pl.idx, pl.mem, pl.err, players, standing)
    pl.done()


def _play_state(mod, E: Engine, st: State, idx, mem, err, players: int, standing=_NO_STANDING) -> None:
    opts, acts = _scratch(st)
    mod.play_all(pack_state(st), E.rk, idx, int(players), opts, acts, np.zeros(st.P, np.int64),
                 mem, mem.copy(), err, standing)


def _play_all(mod, E: Engine, policies, players: int, seed: int, games) -> State:
    """Whole games on engine module `mod` (no warm-up check: GameBuild.warm calls this)."""
    games = np.asarray(games, np.int64)
    st = empty(len(games), players, E.rules.species_slots, E.cards.n, seed=seed, games=games)
    _, idx = distinct(policies)
    _play_state(mod, E, st, idx, _memory(policies), np.zeros(1, np.int64), players)
    return st


def scores(st: State) -> np.ndarray:
    """(B, P): food in the bag + population and trait cards of surviving species."""
    here = np.arange(st.S)[None, None, :] < st.n_species[:, :, None]
    on_board = np.where(here, st.pop.astype(np.int32) + st.n_traits, 0).sum(axis=2)
    return st.bag + on_board


def winners(E: Engine, st: State) -> np.ndarray:
    sc = scores(st)
    win = sc == sc.max(axis=1, keepdims=True)
    if E.rules.tie_break == "most_traits":
        here = np.arange(st.S)[None, None, :] < st.n_species[:, :, None]
        traits = np.where(here, st.n_traits, 0).sum(axis=2)
        traits = np.where(win, traits, -1)
        win = traits == traits.max(axis=1, keepdims=True)
    return win


def play_batch(rules: Rules, cards: Cards, players: int, policies, seed: int, game_indices,
               trajectories: bool = False) -> dict:
    """Play the games `game_indices` of run `seed`; one row per game.

    policies: one decisions.Policy per seat (a bot's batch face). Returns score (B, P),
    winner (B, P) bool (shared wins all True), rounds (B,), end_reason (B,)
    (addresses.END_*), traits_played (B, P, len(TRAITS)) int16 (trait cards each seat played
    onto its species, a replacement counting for the new trait) and the final `state`;
    with `trajectories`, also standing (B, max_rounds, P) int64: each seat's score after
    each round (rounds after a game's end left 0).
    """
    E = Engine(rules, cards)
    game_indices = np.asarray(game_indices, np.int64)
    st = empty(len(game_indices), players, rules.species_slots, cards.n, seed=seed,
               games=game_indices)
    standing = (np.zeros((len(game_indices), rules.max_rounds, players), np.int64) if trajectories
                else _NO_STANDING)
    play_games(E, st, list(policies), players, standing)
    more = {"standing": standing} if trajectories else {}
    return {**more, "score": scores(st), "winner": winners(E, st), "rounds": st.round.copy(),
            "end_reason": st.end_reason.astype(np.int64),
            "traits_played": st.traits_played.copy(), "state": st}
