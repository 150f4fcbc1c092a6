"""Seat and faction versions of the game-flow metrics (docs/metrics.md, "Per seat and per faction").

Input: the trajectories of reports.measures.flow and, per game and seat, the group the seat belongs to:

    standing: (G, R, P) float   seat standings after rounds 1..R
    rounds:   (G,) int          rounds each game lasted
    winner:   (G, P) bool       the game's winners
    group:    (G, P)            the seat's group: its seat index, or its faction (animal)

With h = the halfway round ceil(rounds / 2) (the round the comeback metric reads) and, per
group k, n_k = the seat-games of k (games x seats where a seat of k played):

    runaway_k      = sum [k sole leader after h] * k's win share               / n_k   (rate)
    leader_wins_k  = sum [k sole leader after h] * k's win share / sum [k sole leader after h]
    comeback_k     = sum [k alone at the bottom after h] * [k won]             / n_k   (rate)
    decisiveness_k = sum_g w_gk decisiveness_g / sum_g w_gk,  w_gk = k's win share in game g
    drama_k        = the same with drama_g

Pooling back (tests/reports/test_flow_groups.py): sum_k runaway_k n_k / G is the share of games
whose halfway sole leader won; sum_k comeback_k n_k / G is flow.comeback's rate; the
decisiveness_k and drama_k weighted by k's wins give flow's means over the games with a winner.

Intervals (95%): Wilson for the rates, a linearised ratio interval over games for the
winner-weighted means and for P(win | leader). A group is flagged when its runaway or comeback
rate differs from the other groups pooled with an interval excluding 0: a difference of two
ratios linearised over games (the seats of one game are not independent: only one can lead),
Bonferroni-widened for the number of groups. An association, not a paired comparison: a seat
that leads more may simply be a stronger seat (read with the seat win rates).
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from . import flow
from .metrics import ratio_interval
from .stats import Z95, wilson, z_for_family

RATES = ("runaway", "comeback")              # flagged when a group differs from the rest
TEXT = {
    "win_rate": "win rate (win shares / seat-games)",
    "runaway": "runaway leader: sole leader at the halfway round and won (share of its seat-games)",
    "leader_wins": "P(win | sole leader at the halfway round)",
    "comeback": "comeback: alone last at the halfway round and won (share of its seat-games)",
    "decisiveness": "decisiveness of the games it won (mean, weighted by its win share)",
    "drama": "drama of the games it won: how far behind it was at its worst (mean)",
}


NAN3 = (math.nan, math.nan, math.nan)


def _put(row: dict, name: str, estimate) -> None:
    """Columns name, name_lo, name_hi from (estimate, low, high)."""
    for suffix, v in zip(("", "_lo", "_hi"), estimate):
        row[name + suffix] = float(v)


def _ratio(num, den) -> tuple[float, float, float]:
    """sum(num) / sum(den) with metrics.ratio_interval's bounds (nan bounds below two games)."""
    total = float(np.sum(den))
    if total <= 0:
        return NAN3
    _, lo, hi = ratio_interval(num, den)
    return float(np.sum(num)) / total, lo, hi


def per_seat_game(standing, rounds, winner) -> dict:
    """(G, P) arrays: the per-seat events the group tables sum, and (G,) per-game values.

    lead: sole leader after the halfway round; share: win share; runaway: lead * share;
    comeback: alone at the bottom after the halfway round and a winner; decisiveness, drama:
    the game's values (nan without a winner)."""
    standing = np.asarray(standing, dtype=float)
    rounds = np.asarray(rounds, dtype=np.int64)
    winner = np.asarray(winner, dtype=bool)
    G, _, P = standing.shape
    h = flow.halfway(rounds) - 1
    sole = flow.sole_leader(standing)[np.arange(G), h]                    # (G,) seat or NO_LEADER
    lead = np.arange(P)[None, :] == sole[:, None]                          # (G, P)
    share = winner / np.maximum(winner.sum(axis=1, keepdims=True), 1)
    at_half = standing[np.arange(G), h]
    bottom = at_half == at_half.min(axis=1, keepdims=True)
    alone_bottom = bottom & (bottom.sum(axis=1, keepdims=True) == 1)
    return {"lead": lead, "share": share, "runaway": lead * share, "comeback": alone_bottom & winner,
            "decisiveness": flow.decisiveness(standing, rounds, winner), "drama": flow.drama(standing, rounds, winner)}


def _by_group(values: np.ndarray, group: np.ndarray, k) -> np.ndarray:
    """(G,) the sum over the seats of group k of a (G, P) array."""
    return np.where(group == k, values, 0).sum(axis=1).astype(float)


def ratio_diff_interval(num1, den1, num2, den2, z: float = Z95) -> tuple[float, float, float]:
    """sum(num1)/sum(den1) - sum(num2)/sum(den2) over games (clusters), with a linearised
    interval that keeps the two ratios' covariance inside a game."""
    num1, den1, num2, den2 = (np.asarray(a, dtype=float) for a in (num1, den1, num2, den2))
    g, n1, n2 = num1.size, den1.sum(), den2.sum()
    if g < 2 or n1 <= 0 or n2 <= 0:
        return math.nan, math.nan, math.nan
    r1, r2 = num1.sum() / n1, num2.sum() / n2
    resid = (num1 - r1 * den1) / n1 - (num2 - r2 * den2) / n2
    se = math.sqrt((resid ** 2).sum() * g / (g - 1))
    return r1 - r2, r1 - r2 - z * se, r1 - r2 + z * se


def table(standing, rounds, winner, group) -> pl.DataFrame:
    """One row per group (as text): seat_games, wins, leads, then each metric of TEXT as
    columns m, m_lo, m_hi (95%), and for the runaway and comeback rates the difference from
    the other groups pooled (m_diff, m_diff_lo, m_diff_hi, Bonferroni over the groups) with
    m_flag when that interval excludes 0."""
    ev = per_seat_game(standing, rounds, winner)
    group = np.asarray(group)
    seated = np.ones(group.shape, dtype=float)
    groups = sorted(set(group.ravel().tolist()), key=lambda v: (isinstance(v, str), v))
    z_family = z_for_family(len(groups))
    decided = ~np.isnan(ev["decisiveness"])
    rows = []
    for k in groups:
        n = _by_group(seated, group, k)                                 # (G,) seats of k in each game
        share = _by_group(ev["share"], group, k)
        lead = _by_group(ev["lead"], group, k)
        row = {"group": k, "seat_games": int(n.sum()), "wins": float(share.sum()), "leads": int(lead.sum())}
        for name in ("win_rate", "runaway", "comeback"):
            x = share if name == "win_rate" else _by_group(ev[name], group, k)
            _put(row, name, wilson(x.sum(), n.sum()))
        _put(row, "leader_wins", _ratio(_by_group(ev["runaway"], group, k), lead))
        w = np.where(decided, share, 0.0)                               # k's wins in games with a winner
        for name in ("decisiveness", "drama"):
            _put(row, name, _ratio(w * np.nan_to_num(ev[name]), w))
        rest = group != k
        for name in RATES:
            d = ratio_diff_interval(_by_group(ev[name], group, k), n,
                                    np.where(rest, ev[name], 0).sum(axis=1), rest.sum(axis=1), z_family)
            _put(row, f"{name}_diff", d)
            row[f"{name}_flag"] = bool(d[1] > 0 or d[2] < 0)
        rows.append(row)
    return pl.DataFrame(rows).with_columns(pl.col("group").cast(pl.Utf8))


def pooled(standing, rounds, winner) -> dict:
    """The game-level values the group tables pool back to: per game, the halfway sole
    leader's win share (runaway), flow.comeback, and flow's decisiveness and drama."""
    ev = per_seat_game(standing, rounds, winner)
    return {"runaway": ev["runaway"].sum(axis=1), "comeback": flow.comeback(standing, rounds, winner),
            "decisiveness": ev["decisiveness"], "drama": ev["drama"]}


def seat_groups(games: int, players: int) -> np.ndarray:
    """(G, P) the seat index of every seat: the per-seat table's groups."""
    return np.broadcast_to(np.arange(players), (games, players))


__all__ = ["table", "pooled", "per_seat_game", "ratio_diff_interval", "seat_groups", "RATES", "TEXT"]
