"""Restricted play for Evo's greedy: `greedy+favor:GENE`, `greedy+avoid:GENE`.

The decision that acquires a gene (strategies/restrict.py's rule): BID, on the column
holding a gene of that name (the gene the auction gives). Genes then act by themselves or
through forced choices, so no other decision hits one. The batch form is
batch_greedy.greedy_policy, whose data (mode, gene name id) ride in the seat's first script
row (its weights in the rows after it); the reference form below makes the same choices
(contract 13's scores, the options the rule bars never taken, ties from the same key).
"""
from __future__ import annotations

from ..restrict import allowed
from .reference_bots import GreedyBot

MODES = {"favor": 1, "avoid": 2}        # batch_greedy.FAVOR, AVOID


class RestrictedGreedyBot(GreedyBot):
    """The reference greedy with one gene name favoured or avoided in the auction."""

    def __init__(self, rs, seat: int, mode: str, ent: int, weights=None):
        super().__init__(rs, seat, weights)
        self.mode, self.ent = mode, ent

    def scores(self, d, view):
        got = super().scores(d, view)
        if got is None or d.kind != "BID":
            return got
        scores, floor = got
        names = view.comps.gene_names
        ok = allowed([c > 0 and names.index(view.lab_genes[c]) == self.ent for c, _ in d.options], self.mode)
        return [x if o else None for x, o in zip(scores, ok)], floor
