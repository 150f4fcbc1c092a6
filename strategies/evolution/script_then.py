"""Script bots with a fallback (the rollout bot): play the scripted choices, then
the base bot once they run out, identically in both engine faces.

A search bot forces one feeding option at a saved decision point by handing the engine a
script of one choice for its seat, with the base policy (greedy or random) for everything
else: its food cards, its card plays, and its feeding choices after the scripted ones. A
plain script plays no card and forgoes once its choices run out; these go on as the base
bot would.

Batch face: the seat's memory row (decisions.Policy.memory) is the base bot's own row first
(greedy reads its [mode, trait, weights...] from the start of the row: compiled.py), then
the script's [feeds used, feeds, food cards used, food cards, food indices..., feed
indices...] (decisions.Policy's `script_at`). The feed indices come last, so that a search
(simcore/games/evolution/branch.py) appends its forced option as the seat's next feed choice.
"""
from __future__ import annotations

import numpy as np

from simcore.games.evolution.decisions import FEED_POS, FOOD_POS, LISTS, N_FEED, N_FOOD, Policy
from simcore.games.evolution.jit import kernel

from . import compiled as C
from .greedy import Greedy
from .random_bot import RandomBot

FALLBACKS = ("greedy", "trained", "random")   # the base bots a script can fall back to
WEIGHTED = ("greedy", "trained")      # greedy's kernels, each with its registered bot's weights
NONE_LEFT = -2                        # the script has no choice of that kind left


def _greedy_head() -> np.ndarray:
    from ..weights import default
    return C.greedy_memory(default("evolution"))


def _weighted_head(then: str) -> np.ndarray:
    """The memory row of the registered greedy-kernel bot `then` (greedy: default.toml,
    trained: trained.toml)."""
    return C.greedy_memory(_weighted_bot(then)._weights())


def _weighted_bot(then: str):
    from .registered import Greedy as Registered, Trained
    return {"greedy": Registered, "trained": Trained}[then]()


GREEDY_HEAD = len(_greedy_head())     # greedy's memory row: [mode, trait, weights...]
HEADS = {"greedy": GREEDY_HEAD, "trained": GREEDY_HEAD, "random": 0}


@kernel
def scripted_food(a, b, seat, mem, head):
    """The scripted food card (its index in the sorted hand, clipped), NONE_LEFT when the
    script's food cards ran out."""
    if mem[head + FOOD_POS] >= mem[head + N_FOOD]:
        return np.int64(NONE_LEFT)
    i = mem[head + LISTS + mem[head + FOOD_POS]]
    mem[head + FOOD_POS] += 1
    n = np.int64(a.hand_n[b, seat])
    return np.int64(a.hand[b, seat, min(i, n - 1)])


@kernel
def scripted_feed(n_opts, mem, head):
    """The scripted feeding option (-1 if out of range: the engine's error), NONE_LEFT
    when the script's feeding choices ran out."""
    if mem[head + FEED_POS] >= mem[head + N_FEED]:
        return np.int64(NONE_LEFT)
    i = mem[head + LISTS + mem[head + N_FOOD] + mem[head + FEED_POS]]
    mem[head + FEED_POS] += 1
    return i if i < n_opts else np.int64(-1)


@kernel
def _greedy_food(a, rk, b, seat, mem):
    c = scripted_food(a, b, seat, mem, GREEDY_HEAD)
    return c if c != NONE_LEFT else np.int64(C.greedy_food_card(a, rk, b, seat, mem))


@kernel
def _greedy_plan(a, rk, b, seat, acts, mem):
    return np.int64(C.greedy_plan(a, rk, b, seat, acts, mem))


@kernel
def _greedy_feed(a, rk, b, seat, opts, n_opts, turn, mem):
    r = scripted_feed(n_opts, mem, GREEDY_HEAD)
    return r if r != NONE_LEFT else np.int64(C.greedy_feed(a, rk, b, seat, opts, n_opts, mem))


@kernel
def _random_food(a, rk, b, seat, mem):
    c = scripted_food(a, b, seat, mem, np.int64(0))
    return c if c != NONE_LEFT else np.int64(C.random_food_card(a, rk, b, seat))


@kernel
def _random_plan(a, rk, b, seat, acts, mem):
    return np.int64(C.random_plan(a, rk, b, seat, acts))


@kernel
def _random_feed(a, rk, b, seat, opts, n_opts, turn, mem):
    r = scripted_feed(n_opts, mem, np.int64(0))
    return r if r != NONE_LEFT else np.int64(C.random_feed(a, rk, b, seat, opts, n_opts, turn))


FUNCTIONS = {"greedy": (_greedy_food, _greedy_plan, _greedy_feed),
             "trained": (_greedy_food, _greedy_plan, _greedy_feed),    # its weights: the head row
             "random": (_random_food, _random_plan, _random_feed)}


def batch_policy(then: str, feeds: list, foods: list) -> Policy:
    """The batch face: the base bot's memory row, then the script's (module doc)."""
    head = _weighted_head(then) if then in WEIGHTED else np.zeros(0, np.int64)
    assert len(head) == HEADS[then], "greedy's memory row changed size: GREEDY_HEAD is stale"
    script = np.array([0, len(feeds), 0, len(foods)] + list(foods) + list(feeds), np.int64)
    return Policy(f"script:then={then}", *FUNCTIONS[then], np.concatenate([head, script]), len(head))


class ScriptThenBot:
    """Reference face: the scripted choices (as a plain script's), then `then`'s."""

    name = "script"

    def __init__(self, feeds, foods, then):
        self.feeds, self.foods = list(feeds), list(foods)
        self.then = Greedy() if then == "greedy" else \
            Greedy(weights=_weighted_bot(then)._weights()) if then in WEIGHTED else RandomBot()

    def choose_food_card(self, g, seat):
        if self.foods:
            hand = sorted(g.players[seat].hand)
            return hand[min(self.foods.pop(0), len(hand) - 1)]
        return self.then.choose_food_card(g, seat)

    def play_cards(self, g, seat):
        return self.then.play_cards(g, seat)

    def choose_feeding(self, g, seat, opts, turn):
        if self.feeds:
            i = self.feeds.pop(0)
            if i >= len(opts):
                from simcore.errors import UserError
                raise UserError(f"seat {seat}: the bot chose no legal option (a scripted choice "
                                "out of range?)", key="choices")
            return opts[i]
        return self.then.choose_feeding(g, seat, opts, turn)
