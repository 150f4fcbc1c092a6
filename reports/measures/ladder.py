"""The ladder's tables: head to head, the ratings' predictions, and how much skill matters.

Input: the ladder's `matches` frame (experiments.ladder: one row per game of one table,
a = the bot alone, b = the bot in every other seat, y = the lone seat's share of the
wins) and the ratings (reports.measures.bradley_terry.fit_ratings). Imports nothing from simcore.
"""
from __future__ import annotations

import numpy as np
import polars as pl

from .metrics import ratio_interval
from .stats import wilson

# Thresholds for the plain words: the best bot's wins against a field of the weakest,
# as a multiple of the fair share (1 = the best bot wins no more than its fair share).
LUCK_BELOW = 1.15
STRONG_FROM = 1.5


def head_to_head(matches: pl.DataFrame, players: int) -> pl.DataFrame:
    """Per (lone bot, field bot): the lone seat's win rate over every seat rotation.

    The interval is clustered by game index (the rotations of one index share its deal), and
    never narrower than the plain Wilson interval.
    """
    fair = 1.0 / players
    rows = []
    for (a, b), grp in matches.group_by(["a", "b"], maintain_order=True):
        per_game = grp.group_by("game").agg(pl.col("y").fill_null(0.0).sum().alias("wins"),
                                            pl.len().alias("tables"))
        rate, lo, hi = ratio_interval(per_game["wins"].to_numpy(), per_game["tables"].to_numpy())
        # Never narrower than the unclustered Wilson interval (which stays open at 0% and 100%).
        _, w_lo, w_hi = wilson(grp["y"].fill_null(0.0).sum(), grp.height)
        lo, hi = max(0.0, min(lo, float(w_lo))), min(1.0, max(hi, float(w_hi)))
        rows.append({"lone": a, "field": b, "games": grp.height, "no_winner": int(grp["y"].is_null().sum()),
                     "win_rate": rate, "ci_low": lo, "ci_high": hi, "fair": fair,
                     "ratio": rate / fair, "ratio_low": lo / fair, "ratio_high": hi / fair})
    return pl.DataFrame(rows, infer_schema_length=None)


def with_predictions(h2h: pl.DataFrame, ratings: pl.DataFrame, players: int) -> pl.DataFrame:
    """Add the Bradley-Terry prediction of each head-to-head rate and whether the data's interval holds it.

    A table the model misfits (e.g. a lone bot that wins more than its fair share against
    the field of the other, whichever sits alone) says the game rewards playing differently
    from the table: one rating per bot cannot say everything then.
    """
    theta = dict(zip(ratings["bot"].to_list(), ratings["rating"].to_list()))
    ea = np.exp(np.array([theta[a] for a in h2h["lone"].to_list()]))
    eb = np.exp(np.array([theta[b] for b in h2h["field"].to_list()]))
    pred = ea / (ea + (players - 1) * eb)
    return h2h.with_columns(predicted=pl.Series(pred),
                            fits=pl.Series((h2h["ci_low"].to_numpy() <= pred) & (pred <= h2h["ci_high"].to_numpy())))


def skill_matters(ratings: pl.DataFrame, h2h: pl.DataFrame) -> dict:
    """The best-rated bot alone against a field of the weakest-rated, in plain words."""
    best, weakest = ratings["bot"][0], ratings["bot"][-1]
    row = h2h.filter((pl.col("lone") == best) & (pl.col("field") == weakest)).to_dicts()[0]
    ratio, lo = row["ratio"], row["ratio_low"]
    if row["ratio_high"] < LUCK_BELOW:
        words = (f"a game of luck: {best} alone against {weakest} wins about as often as its fair share, "
                 f"so how well a seat plays hardly decides who wins")
    elif lo >= STRONG_FROM:
        words = (f"skill matters a lot: {best} alone against {weakest} wins {ratio:.2f}x its fair share "
                 f"(at least {lo:.2f}x)")
    elif lo > 1.0:
        words = (f"skill matters somewhat: {best} alone against {weakest} wins {ratio:.2f}x its fair share "
                 f"(at least {lo:.2f}x), so luck still decides many games")
    else:
        words = (f"skill hardly shows: {best} alone against {weakest} wins {ratio:.2f}x its fair share, "
                 f"an interval that reaches {lo:.2f}x (no better than fair)")
    return dict(row, best=best, weakest=weakest, words=words)
