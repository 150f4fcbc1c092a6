"""Discard piles of the batch engine (the decks' draws and every reshuffle: kernels.py)."""
from __future__ import annotations


def to_own_discard(run, g, s, cards):
    """Each game's card onto seat s's own discard pile (the newest last)."""
    st = run.st
    gi = g * run.P + s
    nf = st.n_discard.reshape(-1)
    k = nf.take(gi)
    st.discard.reshape(-1)[gi * st.discard.shape[2] + k] = cards
    nf[gi] = k + 1
