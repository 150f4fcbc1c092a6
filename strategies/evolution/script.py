"""The `script` Evolution player: plays the choices a scenario file lists for its seat.

`Bot("evolution", "script", options=(("choices", [{"kind": ..., "option": i}, ...]),))`.
Choices of each kind are used in order:
- "feed": the index of the option taken in the canonical list of legal feeding options
  (docs/games/evolution.md); once they run out, option 0 (forgoing, where allowed);
- "food_card": the index, in the sorted hand, of the card given as food card; once they
  run out, 0 (the lowest card).
It plays no other card. A "feed" index beyond the legal options stops the game with an
error naming the seat (both engines).

`then="greedy"`, `"trained"` or `"random"` (`script:then=greedy`): that bot plays everything the script
does not (its card plays, and its food cards and feeding choices once the scripted ones run
out) instead of the script's defaults (script_then.py; the rollout bot's forced option).
"""
from __future__ import annotations

import numpy as np

from simcore.errors import UserError
from simcore.games.evolution.decisions import Policy
from simcore.games.evolution.jit import kernel

from ..registry import register

KINDS = ("feed", "food_card")
# memory row: [feeds used, feeds, food cards used, food cards, feed indices..., food indices...]
FEED_POS, N_FEED, FOOD_POS, N_FOOD, LISTS = 0, 1, 2, 3, 4


def _split(choices) -> tuple[list, list]:
    feeds, foods = [], []
    for k, c in enumerate(choices):
        if not isinstance(c, dict) or c.get("kind") not in KINDS or \
                isinstance(c.get("option"), bool) or not isinstance(c.get("option"), int) or c["option"] < 0:
            raise UserError(f'choice {k} must be {{"kind": "feed" or "food_card", "option": a whole '
                            f'number >= 0}}, got {c!r}', key="choices")
        (feeds if c["kind"] == "feed" else foods).append(c["option"])
    return feeds, foods


class _Reference:
    def __init__(self, feeds, foods):
        self.feeds, self.foods = list(feeds), list(foods)

    def choose_food_card(self, g, seat):
        hand = sorted(g.players[seat].hand)
        i = self.foods.pop(0) if self.foods else 0
        return hand[min(i, len(hand) - 1)]

    def play_cards(self, g, seat):
        return []

    def choose_feeding(self, g, seat, opts, turn):
        i = self.feeds.pop(0) if self.feeds else 0
        if i >= len(opts):
            raise UserError(f"seat {seat}: the bot chose no legal option (a scripted choice "
                            "out of range?)", key="choices")
        return opts[i]


@kernel
def _food(a, rk, b, seat, mem):
    n = np.int64(a.hand_n[b, seat])
    if n <= 0:
        return np.int64(-1)
    i = np.int64(0)
    if mem[FOOD_POS] < mem[N_FOOD]:
        i = mem[LISTS + mem[N_FEED] + mem[FOOD_POS]]
        mem[FOOD_POS] += 1
    return np.int64(a.hand[b, seat, min(i, n - 1)])


@kernel
def _plan(a, rk, b, seat, acts, mem):
    return np.int64(0)


@kernel
def _feed(a, rk, b, seat, opts, n_opts, turn, mem):
    i = np.int64(0)
    if mem[FEED_POS] < mem[N_FEED]:
        i = mem[LISTS + mem[FEED_POS]]
        mem[FEED_POS] += 1
    return i if i < n_opts else np.int64(-1)


@register("evolution", "script", doc="plays the choices a scenario lists for its seat")
class Script:
    def __init__(self, choices=(), then=""):
        from .script_then import FALLBACKS
        self.feeds, self.foods = _split(choices)
        if then not in ("",) + FALLBACKS:
            raise UserError(f"a script falls back to one of {', '.join(FALLBACKS)}, got then={then!r}",
                            key="bots")
        self.then = then

    def batch(self, rs):
        if self.then:
            from .script_then import batch_policy
            return batch_policy(self.then, self.feeds, self.foods)
        mem = np.array([0, len(self.feeds), 0, len(self.foods)] + self.feeds + self.foods, np.int64)
        return Policy("script", _food, _plan, _feed, mem)

    def reference(self, rs, seat):
        if self.then:
            from .script_then import ScriptThenBot
            return ScriptThenBot(self.feeds, self.foods, self.then)
        return _Reference(self.feeds, self.foods)
