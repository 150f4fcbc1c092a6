"""Batch bots for Evolversi Male (contract section 7): one choice per game of a batch.

The engine hands a bot the option data of a decision for a whole batch (arrays with the
batch as the first axis) and gets back one option per game. Bots never change the state.

- `random`: `below(key(seed, game, BOT, round, seat, counter), n_options)`.
- `greedy`: deterministic; ties go to the lowest option. The `greedy_*` functions below
  turn the option data of each decision kind into option indices (or, where the options
  are a padded (G, K) table with a validity mask, into column indices of that table).
"""
from __future__ import annotations

import numpy as np

from simcore import rng

_NEG = np.int32(-(1 << 30))          # score of an option that is not on the list


def random_choice_keyed_h(h: np.ndarray, n_options) -> np.ndarray:
    """The random bot: option `below(h, n)` with h the decision's BOT-stream key."""
    return rng.below(h, n_options)


def first_best(score: np.ndarray, valid: np.ndarray | None = None) -> np.ndarray:
    """Column of the first maximum of each row of `score` (G, K), among `valid` columns.

    Each score gets the tie-break in its low digits (key = score * K + K-1-k, so equal
    scores favour the lower column); the keys are laid out (K, G) so that the maximum is a
    reduction over the leading axis (a trailing-axis argmax is slow on big batches).
    """
    G, K = score.shape
    if K <= 1:
        return np.zeros(G, np.int64)
    if valid is not None:
        score = np.where(valid, score, _NEG)
    key = np.ascontiguousarray(score.T, dtype=np.int64)               # (K, G)
    key *= K
    key += np.arange(K - 1, -1, -1, dtype=np.int64)[:, None]
    return (K - 1) - key.max(axis=0) % K


def greedy_place(above_value: np.ndarray, below_value: np.ndarray, options: np.ndarray) -> np.ndarray:
    """PLACE: maximise the above values of the cards above plus the below values of the rest.

    above_value, below_value: (G, h) per hand position; options: (n_opt, h) bool (above?).
    The score of an option is counted as sum(below) + sum over its cards above of
    (above - below); sum(below) is the same for every option of a game, so it is left out.
    """
    G, h = above_value.shape
    n_opt = len(options)
    if n_opt <= 1:
        return np.zeros(G, np.int64)
    gain = np.ascontiguousarray((above_value.astype(np.int64) - below_value).T)    # (h, G)
    best = None
    for o in range(n_opt):
        cols = np.flatnonzero(options[o])
        key = np.full(G, n_opt - 1 - o, np.int64)
        for j in cols.tolist():
            key += gain[j] * n_opt
        best = key if best is None else np.maximum(best, key, out=best)
    return (n_opt - 1) - best % n_opt


def greedy_target(verb_kind: np.ndarray, tokens: np.ndarray, pawns: np.ndarray) -> np.ndarray:
    """TARGET among the other seats (option order): verb_kind 0 = take tokens (most tokens),
    1 = hurt the pawn or Fury (highest pawn), 2 = anything else (lowest pawn)."""
    score = np.where(verb_kind[:, None] == 0, tokens,
                     np.where(verb_kind[:, None] == 1, pawns, -pawns)).astype(np.int32)
    return first_best(score)


def greedy_buy(buy_value: np.ndarray, cost: np.ndarray, valid: np.ndarray, cost_weight: int) -> np.ndarray:
    """BUY column: 0 = no purchase (score 0), column 1 + i = market slot i (its buy value
    minus cost_weight x its price)."""
    score = np.zeros(valid.shape, np.int32)
    score[:, 1:] = buy_value - cost_weight * cost
    return first_best(score, valid)


def greedy_buy_slots(G: int, buy_value: list, cost: list, affordable: list, cost_weight: int) -> np.ndarray:
    """greedy_buy with the market of G games given slot by slot (lists of (G,) arrays; a
    cost may be a number): the same choice, without building the (G, slots) tables."""
    K = len(buy_value) + 1
    best = np.full(G, K - 1, np.int64)                                   # option 0: score 0
    for i, (value, c, ok) in enumerate(zip(buy_value, cost, affordable)):
        tie = K - 2 - i                                                  # column 1 + i
        key = (value - cost_weight * np.asarray(c, np.int64)).astype(np.int64) * K + tie
        key *= ok
        key += (np.int64(_NEG) * K + tie) * ~ok
        np.maximum(best, key, out=best)
    return (K - 1) - best % K


def swap_market_scores(buy_value: np.ndarray, pairs: np.ndarray) -> np.ndarray:
    """SWAP_MARKET gain of each slot pair (i, j): buy[card in j] - buy[card in i]."""
    return buy_value[:, pairs[:, 1]] - buy_value[:, pairs[:, 0]]


def greedy_swap_market(buy_value: np.ndarray, pairs: np.ndarray, valid: np.ndarray) -> np.ndarray:
    return first_best(swap_market_scores(buy_value, pairs), valid)


def best_swap_gain(buy_value: np.ndarray, pairs: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The greedy SWAP_MARKET gain (max over valid pairs; _NEG if there is no pair)."""
    score = np.where(valid, swap_market_scores(buy_value, pairs), _NEG)
    return score.max(axis=1) if score.shape[1] else np.full(len(score), _NEG)


def greedy_optional(is_swap: np.ndarray, swap_gain: np.ndarray, effect_value: np.ndarray) -> np.ndarray:
    """OPTIONAL: 1 (activate) iff the swap gain (swap_market) or the effect value is > 0."""
    return np.where(is_swap, swap_gain > 0, effect_value > 0).astype(np.int64)


def greedy_ignore_event(hurts: np.ndarray) -> np.ndarray:
    """IGNORE_EVENT: 1 (ignore) iff the verb hurts (lose points/tokens/Fury, steal)."""
    return hurts.astype(np.int64)


def greedy_totem_or_fury(holds_totem: np.ndarray) -> np.ndarray:
    """TOTEM_OR_FURY: 0 (take the Totem) unless it already holds it, then 1 (gain Fury)."""
    return holds_totem.astype(np.int64)


def greedy_swap_above(own_value: np.ndarray, their_value: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """SWAP_ABOVE column: maximise above[their card] - above[own card]."""
    return first_best(their_value - own_value, valid)


def greedy_constant(n: int, option: int) -> np.ndarray:
    """ORDER (option 0) and REACT (option 1)."""
    return np.full(n, option, np.int64)
