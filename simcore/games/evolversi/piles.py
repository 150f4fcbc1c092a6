"""Decks and discard piles of the batch engine: the Event deck's shuffle (contract section 2), discards
(the own and Evolution decks' draws and reshuffles: kernels.py)."""
from __future__ import annotations

import numpy as np

from ... import rng
from .arrays import stable_argsort_rows
from .components import KIND_EVENTS


_MAX64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def shuffled(run, g, pile, n, idents, kind, *extra) -> np.ndarray:
    """The first n uids of each row of `pile` (G, W) shuffled at address (kind, *extra),
    each keyed by its identity `idents[uid]` (idents has an entry for -1 at its end): a
    stack with the top (smallest key) last, -1 beyond n."""
    w = int(n.max()) if len(n) else 0
    cards = pile[:, :w]
    inside = np.arange(w) < n[:, None]
    keys = rng.key(run.seed, run.st.games.take(g)[:, None], rng.CHANCE, kind,
                   *[np.asarray(x)[:, None] if np.ndim(x) else x for x in extra],
                   idents.take(cards))
    keys = np.where(inside, ~keys, _MAX64)
    order = stable_argsort_rows(keys, n)
    order += (np.arange(len(cards)) * w)[:, None]
    return np.ascontiguousarray(cards).reshape(-1).take(order)


def reshuffle(run, g, row, pile, n_pile, stack, n_stack, shuffles, idents, kind, *extra):
    """Shuffle the pile rows `row` (flat row indices) into their (empty) stacks."""
    nf = n_pile.reshape(-1)
    n = nf.take(row)
    sf = shuffles.reshape(-1)
    shuffle_no = sf.take(row) + 1
    w = np.arange(int(n.max()) if len(n) else 0)
    idx = (row * pile.shape[-1])[:, None] + w
    new = shuffled(run, g, pile.reshape(-1).take(idx), n, idents, kind, *extra, shuffle_no)
    stack.reshape(-1)[(row * stack.shape[-1])[:, None] + w] = new
    n_stack.reshape(-1)[row] = n
    sf[row] = shuffle_no
    pile.reshape(-1)[idx] = -1
    nf[row] = 0


def reshuffle_events(run, g):
    st = run.st
    reshuffle(run, g, g, st.event_discard, st.n_event_discard, st.event_deck, st.n_event,
                    st.event_shuffles, run.tb.ev_ident, KIND_EVENTS)


def to_own_discard(run, g, s, cards):
    st = run.st
    gi = g * run.P + s
    nf = st.n_discard.reshape(-1)
    k = nf.take(gi)
    st.discard.reshape(-1)[gi * st.discard.shape[2] + k] = cards
    nf[gi] = k + 1
