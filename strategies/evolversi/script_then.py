"""Script bots with a fallback (the rollout bot): play the scripted choices, then
the base bot once they run out, identically in both engine faces.

A search bot forces one option at a saved decision point by handing the engine a script of
one choice for its seat, with the base policy (greedy or random) for everything after it.
A plain script stops the game when it runs out; these go on as the base bot would.

Evolversi's batch engine is numpy: the base policy is a Python object with its weights in
it (nothing is packed into script rows), so the choices need no offset. A batch holds many
games: each game replays its own copy of the choices (its position kept by game index).
"""
from __future__ import annotations

import numpy as np

from ..script import take_scripted

FALLBACKS = ("greedy", "random")      # the base bots a script can fall back to


class ScriptThenBatch:
    """Batch face: each game's next scripted choice while it has one, else `then`'s choice."""

    def __init__(self, items, then):
        self.items = list(items or [])
        self.then = then
        self.uses_keys = getattr(then, "uses_keys", True)
        self.pos: dict[int, int] = {}              # game index -> choices it has played

    def choose(self, q) -> np.ndarray:
        if not self.items:
            return self.then.choose(q)
        games = q.view.st.games.take(q.g).tolist()
        pos = [self.pos.get(g, 0) for g in games]
        scripted = np.array([p < len(self.items) for p in pos], bool)
        out = np.zeros(len(q), np.int64)
        if not scripted.all():
            out[~scripted] = self.then.choose(q.subset(~scripted))
        if scripted.any():
            rows = np.flatnonzero(scripted)
            opt = np.zeros(len(rows), np.int64)
            for j, i in enumerate(rows.tolist()):
                opt[j] = take_scripted(int(q.seat[i]), [self.items[pos[i]]], q.kind, int(q.n[i]))
                self.pos[games[i]] = pos[i] + 1
            out[rows] = q.subset(rows).column(opt)
        return out

    def compiled_form(self, tb):
        """With no scripted choice (a search's continuation seat: the search forces its one
        option itself) this is `then` exactly, so phase 3 may compile as `then`'s; else None."""
        form = getattr(self.then, "compiled_form", None)
        return form(tb) if form is not None and not self.items else None
