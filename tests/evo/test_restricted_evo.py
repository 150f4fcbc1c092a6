"""Evo's greedy+favor:GENE / greedy+avoid:GENE: the rule on a constructed BID,
and a planted check on whole games that favouring a gene makes the bot acquire it more
often (both engines make the same choices: tests/games/test_engines_agree.py)."""
from __future__ import annotations

from types import SimpleNamespace as NS

import numpy as np

from simcore import rng
from simcore.games import get_game
from strategies.evo.restricted import RestrictedGreedyBot
from strategies.registry import make_bots

GAME = get_game("evo")
RS = GAME.data.load()
GENES = GAME.entities(RS)


class _View:
    """Enough of the reference view for a BID: Egg in column 1, Horn in column 2."""

    def __init__(self):
        rows = {r["name"]: r for r in RS.tables["genes"]}
        self.comps = NS(gene_rows=rows, gene_names=[r["name"] for r in RS.tables["genes"]])
        self.lab_genes = {1: "Egg", 2: "Horn"}

    def price(self, s, v):
        return v


BID = NS(kind="BID", seat=0, options=[(0, 0), (1, 0), (1, 1), (2, 0), (2, 1)], info={},
         h=rng.key(1, 0, rng.BOT, 1, 0, 0))


def _choice(mode, gene):
    return BID.options[RestrictedGreedyBot(RS, 0, mode, GENES.index(gene)).choose(BID, _View())]


def test_favour_bids_on_the_genes_column_and_avoid_never_does():
    # plain greedy: Egg at 0 scores 3 (worth 3 - price 0), the best
    assert _choice("favor", "Horn") == (2, 0)           # Horn's best bid, though Egg scores more
    assert _choice("avoid", "Egg") == (2, 0)            # the best bid off Egg's column
    assert _choice("avoid", "Horn") == (1, 0)           # the plain choice
    assert _choice("favor", "Wings") == (1, 0)          # not in the lab: plays as usual


def _share(bots, gene, games=300):
    """Share of games in which seat 0 acquired `gene` (batch engine, 4 players)."""
    out = GAME.play_batch(RS, 4, bots, 5, np.arange(games))
    return float((np.asarray(out["acquired"])[:, 0, GENES.index(gene)] > 0).mean())


def test_favouring_a_gene_raises_its_acquisition_share_and_avoiding_lowers_it():
    """Planted: Sixth sense is worth 1 to plain greedy, so it seldom wins it; a favouring
    seat bids on it whenever it is in the lab."""
    gene = "Sixth sense"
    plain = _share(make_bots("evo", "greedy", 4, RS), gene)
    favor = _share(make_bots("evo", f"greedy+favor:{gene},greedy,greedy,greedy", 4, RS), gene)
    avoid = _share(make_bots("evo", f"greedy+avoid:{gene},greedy,greedy,greedy", 4, RS), gene)
    assert favor > plain + 0.10, (plain, favor)
    assert avoid < plain, (plain, avoid)
