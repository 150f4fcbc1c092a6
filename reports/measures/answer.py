"""The answer's comparison: the best setting of a sweep against its reference setting, as one row.

Sweep points play the same game indices from the same per-game streams, so the difference in
balance between two settings is measured on the same games: a bootstrap over game indices that
resamples each game index once for both settings (paired). Where the pairing does not hold
(reports.measures.pairing: the setting changes the shared games too much for their results to
pair), the two settings are
resampled independently and the row says the comparison is unpaired. Both intervals are kept,
so the gain from pairing is visible.

Balance is 1 - (best faction's win rate - worst faction's), the headline's measure; each
resample picks its own best and worst factions, so the interval carries the doubt of which
factions are the extremes.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl
from scipy.stats import bootstrap

from .metrics import max_seats

RESAMPLES = 2000          # bootstrap resamples of the game indices
BATCH = 100               # resamples evaluated at once (memory: BATCH x games counts)
CONFIDENCE = 0.95


def faction_tallies(games: pl.DataFrame, factions: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per game (sorted by game index): (wins, seats), each (games, factions): the win shares of the
    seats dealt each faction, and how many seats were dealt it."""
    games = games.sort("game")
    wins = np.zeros((games.height, len(factions)))
    seats = np.zeros((games.height, len(factions)))
    rows = np.arange(games.height)
    code = {f: k for k, f in enumerate(factions)}
    for s in range(max_seats(games)):
        faction = games[f"s{s}_faction"].cast(pl.Utf8).to_list()
        share = games[f"s{s}_share"].cast(pl.Float64).to_numpy()
        seated = np.array([f is not None for f in faction]) & ~np.isnan(share)
        col = np.array([code.get(f, 0) for f in faction])
        np.add.at(wins, (rows[seated], col[seated]), share[seated])
        np.add.at(seats, (rows[seated], col[seated]), 1.0)
    return wins, seats


def balance_of(wins: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """1 - (highest - lowest faction win rate) over the factions dealt at least once, from summed
    tallies: the last axis is the faction."""
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(seats > 0, wins / seats, np.nan)
    return 1 - (np.nanmax(rate, axis=-1) - np.nanmin(rate, axis=-1))


def resampled_sums(idx: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Column sums of `table` (games, columns) over the rows `idx` (..., n) picks, repeats counted:
    each resample's counts per game times the table, one matrix product."""
    flat = idx.reshape(-1, idx.shape[-1])
    rows = table.shape[0]
    offsets = np.arange(flat.shape[0])[:, None] * rows
    counts = np.bincount((flat + offsets).ravel(), minlength=flat.shape[0] * rows).reshape(flat.shape[0], rows)
    return (counts.astype(np.float64) @ table).reshape(idx.shape[:-1] + (table.shape[1],))


def _factions(*frames: pl.DataFrame) -> list[str]:
    names = set()
    for g in frames:
        for s in range(max_seats(g)):
            names |= {str(f) for f in g[f"s{s}_faction"].cast(pl.Utf8).drop_nulls().unique().to_list()}
    return sorted(names)


def _interval(data: tuple, statistic, paired: bool, seed: int) -> tuple[float, float]:
    res = bootstrap(data, statistic, n_resamples=RESAMPLES, batch=BATCH, vectorized=True, paired=paired,
                    confidence_level=CONFIDENCE, method="percentile", rng=np.random.default_rng(seed))
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


def balance_difference(games_a: pl.DataFrame, games_b: pl.DataFrame, holds: bool, seed: int = 0) -> dict:
    """Balance of b minus balance of a, with its 95% interval paired over game indices (when the
    pairing holds and both hold the same game indices) and unpaired (each resampled on its own).

    Returns {difference, ci_low, ci_high, paired, paired_low, paired_high, unpaired_low,
    unpaired_high, games, resamples}: ci_low/ci_high are the paired interval when `paired`, else
    the unpaired one."""
    factions = _factions(games_a, games_b)
    wa, na = faction_tallies(games_a, factions)
    wb, nb = faction_tallies(games_b, factions)
    same_games = games_a.height == games_b.height and games_a["game"].sort().equals(games_b["game"].sort())
    k = len(factions)
    a, b = np.hstack([wa, na]), np.hstack([wb, nb])         # (games, 2 factions): wins, then seats

    def balance(sums: np.ndarray) -> np.ndarray:
        return balance_of(sums[..., :k], sums[..., k:])

    difference = float(balance(b.sum(axis=0)) - balance(a.sum(axis=0)))

    def unpaired(ia, ib, axis=-1):
        return balance(resampled_sums(ib, b)) - balance(resampled_sums(ia, a))

    def paired(i, axis=-1):
        return balance(resampled_sums(i, b)) - balance(resampled_sums(i, a))

    ulo, uhi = _interval((np.arange(games_a.height), np.arange(games_b.height)), unpaired, False, seed)
    plo, phi = _interval((np.arange(games_a.height),), paired, True, seed) if same_games else (math.nan, math.nan)
    use_paired = bool(holds and same_games)
    return {"difference": difference, "ci_low": plo if use_paired else ulo, "ci_high": phi if use_paired else uhi,
            "paired": use_paired, "paired_low": plo, "paired_high": phi, "unpaired_low": ulo, "unpaired_high": uhi,
            "games": int(min(games_a.height, games_b.height)), "resamples": RESAMPLES}


def best_against_reference(head: pl.DataFrame, games: pl.DataFrame, reference: int, pairings: pl.DataFrame,
                           seed: int = 0) -> dict | None:
    """The setting with the highest balance among `head`'s points against the reference point: one
    row {point, against, measure, value, against_value, difference, ci_low, ci_high, paired, clear,
    pairing, ...}, or None when the reference is the best or has no balance. `value` and
    `against_value` are the headline rows' balances; `clear` = the interval excludes zero."""
    if head.height < 2 or reference not in head["point"].to_list():
        return None
    best = head.sort("balance", descending=True, nulls_last=True).row(0, named=True)
    ref = head.filter(pl.col("point") == reference).row(0, named=True)
    if best["point"] == reference or any(v is None or math.isnan(v) for v in (best["balance"], ref["balance"])):
        return None
    link = pairings.filter((pl.col("point") == best["point"]) & (pl.col("against") == reference)) \
        if pairings.height else pairings
    holds = bool(link.height and link["holds"][0])
    row = balance_difference(games.filter(pl.col("point") == reference), games.filter(pl.col("point") == best["point"]),
                             holds, seed)
    row.update(point=best["point"], against=reference, measure="balance", value=best["balance"],
               against_value=ref["balance"], difference=best["balance"] - ref["balance"], pairing=link["label"][0] if link.height else "not measured",
               clear=bool(row["ci_low"] > 0 or row["ci_high"] < 0))
    return row
