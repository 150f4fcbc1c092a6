"""Balance metrics over per-game rows (polars), each with a 95% interval.

Input frames are those of a run folder: `games` has one row per game with a `point`
column and the runner's per-seat columns (s{i}_faction, s{i}_bot, s{i}_score, s{i}_win,
s{i}_share; shared wins count as shares); `tallies` has per (point, seat, entity) counts.
Points may differ in player count: seat columns of absent seats are null and skipped.
Every function returns a polars DataFrame with a `point` column, sorted by point.

Intervals: win rates use Wilson; differences of two rates use Newcombe's hybrid score
method (built from the two Wilson intervals); means use the normal approximation; the
per-entity tables widen their intervals for the number of comparisons (Bonferroni).
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import polars as pl

from .sequential import anytime_interval
from .stats import Z95, mean_interval, wilson, z_for_family


# ----------------------------------------------------------------------------- interval helpers

def diff_interval(s1, n1, s2, n2, z: float = Z95):
    """Newcombe hybrid score interval for p1 - p2 (independent samples). Returns (d, lo, hi)."""
    p1, l1, u1 = wilson(s1, n1, z)
    p2, l2, u2 = wilson(s2, n2, z)
    d = p1 - p2
    lo = d - np.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, lo, hi


def ratio_interval(num, den, z: float = Z95):
    """Ratio-of-sums estimate sum(num)/sum(den) over clusters (games), linearised interval."""
    num = np.asarray(num, dtype=float)
    den = np.asarray(den, dtype=float)
    g, total = num.size, den.sum()
    if g < 2 or total <= 0:
        return math.nan, math.nan, math.nan
    r = num.sum() / total
    resid = num - r * den
    se = math.sqrt((resid ** 2).sum() * g / (g - 1)) / total
    return r, r - z * se, r + z * se


def _rate_columns(df: pl.DataFrame, wins: str = "wins", n: str = "games", z: float = Z95) -> pl.DataFrame:
    p, lo, hi = wilson(df[wins].to_numpy(), df[n].to_numpy(), z)
    return df.with_columns(win_rate=pl.Series(p), ci_low=pl.Series(lo), ci_high=pl.Series(hi))


Frame = pl.DataFrame | pl.LazyFrame   # eager rows, or a lazy scan of a run's chunk files


def _names(games: Frame) -> list[str]:
    return games.collect_schema().names() if isinstance(games, pl.LazyFrame) else games.columns


def _collect(query: pl.LazyFrame) -> pl.DataFrame:
    """Run an aggregation on the streaming engine: a scan of a billion rows stays in flat memory."""
    return query.collect(engine="streaming")


def max_seats(games: Frame) -> int:
    """Largest player count present (number of s{i}_ column groups)."""
    s = 0
    names = set(_names(games))
    while f"s{s}_share" in names:
        s += 1
    return s


def _excludes_zero() -> pl.Expr:
    bound = pl.col("bound")
    return (bound.is_not_null() & bound.is_not_nan() & (bound > 0)).fill_null(False)


def _ensure_point(games: Frame) -> Frame:
    return games if "point" in _names(games) else games.with_columns(pl.lit(0, dtype=pl.Int32).alias("point"))


def _seated(games: Frame, seat: int) -> pl.LazyFrame:
    """The games in which `seat` was played (lazy: only the columns a query uses are copied)."""
    return games.lazy().filter(pl.col(f"s{seat}_share").is_not_null())


# ----------------------------------------------------------------------------- win rates

def seat_win_rates(games: Frame) -> pl.DataFrame:
    """Win rate per seat (first-player advantage): point, seat, games, wins, win_rate, CI, fair, advantage."""
    games = _ensure_point(games)
    frames = []
    for s in range(max_seats(games)):
        share = f"s{s}_share"
        frames.append(_seated(games, s).group_by("point").agg(
            pl.len().alias("games"), pl.col(share).cast(pl.Float64).sum().alias("wins"),
            pl.col("players").cast(pl.Float64).mean().alias("players")).with_columns(pl.lit(s, pl.Int8).alias("seat"))
            .pipe(_collect))
    if not frames:
        return pl.DataFrame()
    df = _rate_columns(pl.concat(frames).sort(["point", "seat"]))
    return df.with_columns(fair=1.0 / pl.col("players")).with_columns(
        advantage=pl.col("win_rate") - pl.col("fair")).select(
        "point", "seat", "games", "wins", "win_rate", "ci_low", "ci_high", "fair", "advantage")


def _group_win_rates(games: Frame, kind: str) -> pl.DataFrame:
    games = _ensure_point(games)
    frames = []
    for s in range(max_seats(games)):
        # Aggregate each seat first, then the seats' small tables: no frame of games x seats.
        col, share = f"s{s}_{kind}", f"s{s}_share"
        frames.append(_seated(games, s).group_by(["point", col]).agg(
            pl.len().alias("games"), pl.col(share).cast(pl.Float64).sum().alias("wins"),
            (1.0 / pl.col("players").cast(pl.Float64)).sum().alias("fair_sum"))
            .select("point", pl.col(col).cast(pl.Utf8).alias(kind), "games", "wins", "fair_sum").pipe(_collect))
    if not frames:
        return pl.DataFrame()
    df = (pl.concat(frames).group_by(["point", kind]).agg(pl.col("games").sum(), pl.col("wins").sum(),
                                                         pl.col("fair_sum").sum())
          .with_columns(fair=pl.col("fair_sum") / pl.col("games")).sort(["point", kind]))
    return _rate_columns(df).select("point", kind, "games", "wins", "win_rate", "ci_low", "ci_high", "fair")


def faction_win_rates(games: Frame) -> pl.DataFrame:
    """Win rate per faction (animal): point, faction, games, wins, win_rate, CI, fair."""
    return _group_win_rates(games, "faction")


def bot_win_rates(games: Frame) -> pl.DataFrame:
    """Win rate per bot, over all seats it played: point, bot, games, wins, win_rate, CI, fair."""
    return _group_win_rates(games, "bot")


def balance(games: Frame) -> pl.DataFrame:
    """Balance = 1 - (best faction win rate - worst), per point, with an interval.

    The interval is the Newcombe interval of the gap between the two extreme factions (it
    ignores that they were picked as the extremes, so read it as a lower bound on the doubt).
    """
    fr = faction_win_rates(games)
    rows = []
    for point, grp in fr.group_by("point", maintain_order=True):
        grp = grp.filter(pl.col("games") > 0).sort("win_rate")
        if grp.height < 2:
            rows.append({"point": point[0], "balance": math.nan, "ci_low": math.nan, "ci_high": math.nan,
                         "gap": math.nan, "best": None, "worst": None})
            continue
        best, worst = grp.row(grp.height - 1, named=True), grp.row(0, named=True)
        d, lo, hi = diff_interval(best["wins"], best["games"], worst["wins"], worst["games"])
        rows.append({"point": point[0], "balance": 1 - float(d), "ci_low": max(0.0, 1 - float(hi)),
                     "ci_high": min(1.0, 1 - float(lo)), "gap": float(d), "best": best["faction"],
                     "worst": worst["faction"]})
    return pl.DataFrame(rows, schema={"point": pl.Int32, "balance": pl.Float64, "ci_low": pl.Float64,
                                      "ci_high": pl.Float64, "gap": pl.Float64, "best": pl.Utf8,
                                      "worst": pl.Utf8}).sort("point")


# ----------------------------------------------------------------------------- length, endings, margins

def end_reasons(games: Frame) -> pl.DataFrame:
    """Share of games per end reason (e.g. track = completed, stalled = hit the round cap)."""
    games = _ensure_point(games)
    df = _collect(games.lazy().group_by(["point", pl.col("end_reason").cast(pl.Utf8)]).agg(pl.len().alias("count")))
    # Every game has one end reason: a point's games are the sum of its reasons' counts.
    df = df.with_columns(games=pl.col("count").sum().over("point")).sort(["point", "end_reason"])
    p, lo, hi = wilson(df["count"].to_numpy(), df["games"].to_numpy())
    return df.with_columns(rate=pl.Series(p), ci_low=pl.Series(lo), ci_high=pl.Series(hi))


def game_length(games: pl.DataFrame, target: Sequence[int] | None = None,
                stalled: str = "stalled") -> pl.DataFrame:
    """Rounds per game (mean, CI, sd, quantiles), completion and stall rates, share inside target."""
    games = _ensure_point(games)
    rows = []
    for point, grp in games.select("point", "rounds", "end_reason").group_by("point", maintain_order=True):
        r = grp["rounds"].to_numpy().astype(float)
        n = r.size
        m, lo, hi = mean_interval(r)
        stalls = int((grp["end_reason"].cast(pl.Utf8) == stalled).sum())
        sp, slo, shi = wilson(stalls, n)
        row = {"point": point[0], "games": n, "mean_rounds": m, "ci_low": lo, "ci_high": hi,
               "sd_rounds": float(r.std(ddof=1)) if n > 1 else math.nan,
               "median": float(np.median(r)) if n else math.nan,
               "p10": float(np.quantile(r, 0.1)) if n else math.nan,
               "p90": float(np.quantile(r, 0.9)) if n else math.nan,
               "stall_rate": float(sp), "stall_low": float(slo), "stall_high": float(shi),
               "completion_rate": 1 - float(sp), "completion_low": 1 - float(shi), "completion_high": 1 - float(slo)}
        if target is not None:
            inside = int(((r >= target[0]) & (r <= target[1])).sum())
            tp, tlo, thi = wilson(inside, n)
            row.update(in_target=float(tp), in_target_low=float(tlo), in_target_high=float(thi))
        rows.append(row)
    return pl.DataFrame(rows).sort("point")


def length_histogram(games: Frame) -> pl.DataFrame:
    """Games per number of rounds: point, rounds, games, share."""
    games = _ensure_point(games)
    df = _collect(games.lazy().group_by(["point", "rounds"]).agg(pl.len().alias("games"))).sort(["point", "rounds"])
    return df.with_columns(share=pl.col("games") / pl.col("games").sum().over("point"))


def score_margin(games: pl.DataFrame) -> pl.DataFrame:
    """Leader gap: the winner's (top) score minus the runner-up's, mean with CI, and close-game share."""
    games = _ensure_point(games)
    rows = []
    for point, grp in games.group_by("point", maintain_order=True):
        cols = [f"s{s}_score" for s in range(max_seats(grp)) if grp[f"s{s}_score"].null_count() < grp.height]
        scores = np.sort(grp.select(cols).to_numpy().astype(float), axis=1)
        margin = scores[:, -1] - scores[:, -2] if scores.shape[1] >= 2 else np.zeros(len(scores))
        m, lo, hi = mean_interval(margin)
        close = int((margin <= 1).sum())
        cp, clo, chi = wilson(close, margin.size)
        rows.append({"point": point[0], "mean_margin": m, "ci_low": lo, "ci_high": hi,
                     "close_share": float(cp), "close_low": float(clo), "close_high": float(chi)})
    return pl.DataFrame(rows).sort("point")


# ----------------------------------------------------------------------------- entities

def _seat_totals(games: pl.DataFrame) -> pl.DataFrame:
    """Per point: seat-games and win shares summed over every seat."""
    games = _ensure_point(games)
    frames = [_seated(games, s).group_by("point").agg(
        pl.len().alias("seat_games"), pl.col(f"s{s}_share").cast(pl.Float64).sum().alias("seat_wins")).collect()
        for s in range(max_seats(games))]
    return pl.concat(frames).group_by("point").agg(pl.col("seat_games").sum(), pl.col("seat_wins").sum())


def entity_impact(tallies: pl.DataFrame, games: pl.DataFrame, points: Sequence[int] | None = None) -> pl.DataFrame:
    """Win rate of a seat in games where it acquired the entity vs games where it did not.

    One row per (point, entity): games_with, rate_with, rate_without, effect (difference),
    a Bonferroni interval over the entities compared at that point, `bound` (the interval's
    end nearest zero, as a distance from zero: > 0 only if the interval excludes zero), and
    `rank` by that bound (1 = the surest large effect). This is an association (buyers
    differ from non-buyers); the config's ablation gives the causal check.
    """
    tallies = _ensure_point(tallies)
    if points is not None:
        tallies = tallies.filter(pl.col("point").is_in(list(points)))
    if tallies.height == 0:
        return pl.DataFrame(schema={"point": pl.Int32, "entity": pl.Utf8, "rank": pl.Int64})
    agg = (tallies.group_by(["point", "entity_kind", "entity_id", "entity"])
           .agg(pl.col("games").sum().alias("games_with"), pl.col("wins").sum().alias("wins_with"),
                pl.col("count").sum().alias("copies")))
    df = agg.join(_seat_totals(games), on="point").with_columns(
        games_without=pl.col("seat_games") - pl.col("games_with"),
        wins_without=pl.col("seat_wins") - pl.col("wins_with"))
    df = df.filter((pl.col("games_with") > 0) & (pl.col("games_without") > 0))
    df = df.with_columns(family=pl.len().over("point"))
    z = np.array([z_for_family(k) for k in df["family"].to_list()])
    d, lo, hi = diff_interval(df["wins_with"].to_numpy(), df["games_with"].to_numpy(),
                              df["wins_without"].to_numpy(), df["games_without"].to_numpy(), z)
    rate_with = df["wins_with"].to_numpy() / df["games_with"].to_numpy()
    rate_without = df["wins_without"].to_numpy() / df["games_without"].to_numpy()
    df = df.with_columns(rate_with=pl.Series(rate_with), rate_without=pl.Series(rate_without),
                         effect=pl.Series(d), ci_low=pl.Series(lo), ci_high=pl.Series(hi),
                         bound=pl.Series(np.maximum(lo, -hi)))
    df = df.sort(["point", "bound", "entity_id"], descending=[False, True, False]).with_columns(
        rank=pl.int_range(1, pl.len() + 1).over("point"), flagged=_excludes_zero(),
        acquired_share=pl.col("games_with") / pl.col("seat_games"))
    return df.select("point", "rank", "entity_kind", "entity", "entity_id", "games_with", "copies",
                     "acquired_share", "rate_with", "rate_without", "effect", "ci_low", "ci_high", "bound",
                     "flagged", "family")


def ablation_effects(games: pl.DataFrame, points: Sequence[dict], anytime: bool = False) -> pl.DataFrame:
    """Causal per-entity checks: each ablation point against its base point, paired by game.

    effect = win share of the seats that acquired the entity in the base game minus the win
    share of the same seats in the same game with the entity removed/replaced, per seat
    that acquired it (clustered by game). Positive: the entity helps whoever gets it.
    rounds_delta = rounds(ablated) - rounds(base), paired. Intervals are Bonferroni over all
    ablation comparisons; rows are ranked by the bound nearest zero. anytime=True (a run whose
    checks a sequential test stopped): the effect's interval is a confidence sequence, Bonferroni
    over the same family, which stays valid at the data-dependent stop (column `interval`).
    """
    games = _ensure_point(games)
    pairs = [p for p in points if p.get("ablated") is not None]
    if not pairs:
        return pl.DataFrame(schema={"point": pl.Int32, "entity": pl.Utf8, "rank": pl.Int64})
    z = z_for_family(len(pairs))
    rows = []
    for p in pairs:
        base = next(b for b in points if b["index"] == p["base"])
        bg = games.filter(pl.col("point") == base["index"]).sort("game")
        ag = games.filter(pl.col("point") == p["index"]).sort("game")
        joined = bg.join(ag, on="game", suffix="_abl")
        n_seats = base["players"]
        ids = base.get("tracked", {}).get(p["ablated"], [])
        num = np.zeros(joined.height)
        den = np.zeros(joined.height)
        share_base = np.zeros(joined.height)
        for s in range(n_seats):
            flags = [f"s{s}_has_{i}" for i in ids if f"s{s}_has_{i}" in joined.columns]
            if not flags:
                continue
            holds = joined.select(pl.any_horizontal(flags)).to_series().to_numpy()
            b = joined[f"s{s}_share"].to_numpy().astype(float)
            a = joined[f"s{s}_share_abl"].to_numpy().astype(float)
            num += holds * (b - a)
            den += holds
            share_base += holds * b
        if den.sum() == 0:
            eff, lo, hi = (math.nan,) * 3
        elif anytime:
            eff, lo, hi = anytime_interval(num, den, family=len(pairs))
        else:
            eff, lo, hi = ratio_interval(num, den, z)
        rd, rlo, rhi = mean_interval(joined["rounds_abl"].to_numpy().astype(float)
                                     - joined["rounds"].to_numpy().astype(float), z)
        rows.append({"point": p["index"], "base": base["index"], "entity": p["ablated"], "games": joined.height,
                     "holders": int(den.sum()),
                     "holder_rate_base": float(share_base.sum() / den.sum()) if den.sum() else math.nan,
                     "effect": eff, "ci_low": lo, "ci_high": hi, "rounds_delta": rd,
                     "rounds_low": rlo, "rounds_high": rhi,
                     "interval": "confidence sequence" if anytime else "interval"})
    df = pl.DataFrame(rows).with_columns(bound=pl.max_horizontal(pl.col("ci_low"), -pl.col("ci_high")),
                                         family=pl.lit(len(pairs)))
    df = df.with_columns(pl.col("bound").fill_nan(None)).sort("bound", descending=True, nulls_last=True).with_columns(
        rank=pl.int_range(1, pl.len() + 1), flagged=_excludes_zero())
    return df


def paired_difference(games: pl.DataFrame, a: int, b: int, column: str = "s0_share",
                      z: float = Z95) -> dict:
    """Mean of (value at point b - value at point a) over the same games: paired interval."""
    left = games.filter(pl.col("point") == a).select("game", pl.col(column).cast(pl.Float64).alias("x"))
    right = games.filter(pl.col("point") == b).select("game", pl.col(column).cast(pl.Float64).alias("y"))
    j = left.join(right, on="game")
    m, lo, hi = mean_interval((j["y"] - j["x"]).to_numpy(), z)
    return {"a": a, "b": b, "column": column, "games": j.height, "difference": m, "ci_low": lo, "ci_high": hi}


# ----------------------------------------------------------------------------- the headline table

def headline(games: pl.DataFrame, target: Sequence[int] | None = None,
             seats: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per point: games, balance, seat-0 advantage, mean rounds, stall rate, share in target.
    seats: the seat table already computed (seat_win_rates), so its rows are the ones shown."""
    bal = balance(games).select("point", "balance", pl.col("ci_low").alias("balance_low"),
                                pl.col("ci_high").alias("balance_high"), "best", "worst")
    seats = seat_win_rates(games) if seats is None else seats
    first = seats.filter(pl.col("seat") == 0).select(
        "point", pl.col("win_rate").alias("seat0_rate"), pl.col("ci_low").alias("seat0_low"),
        pl.col("ci_high").alias("seat0_high"), "fair")
    spread = seats.group_by("point").agg((pl.col("win_rate").max() - pl.col("win_rate").min()).alias("seat_gap"))
    length = game_length(games, target)
    margin = score_margin(games).select("point", "mean_margin")
    out = length.join(bal, on="point", how="left").join(first, on="point", how="left") \
        .join(spread, on="point", how="left").join(margin, on="point", how="left")
    return out.sort("point")


# ----------------------------------------------------------------------------- one point as plain data

def _records(df: pl.DataFrame, columns: Sequence[str]) -> list[dict]:
    return df.select(columns).to_dicts() if df.height else []


def point_summary(games: Frame) -> dict:
    """The balance table of one point as plain data (what `balancelab run` prints), from the frames above.

    games: per-game rows of a single point, eager or a lazy scan of chunk files (every
    figure is then an aggregation on the streaming engine: memory stays flat however many
    games). Keys: games, seats, factions, bots (each a list of rows with win_rate and its
    95% interval), mean_rounds, sd_rounds, rounds_histogram, end_reasons (counts), balance
    with its interval.
    """
    games = _ensure_point(games)
    hist = length_histogram(games)
    if hist["point"].n_unique() > 1:
        raise ValueError("point_summary takes the rows of one point")
    rate = ["games", "wins", "win_rate", "ci_low", "ci_high"]
    # Mean and sd of the rounds from their histogram: exact, and no column of every game.
    rounds, weight = hist["rounds"].to_numpy().astype(float), hist["games"].to_numpy().astype(float)
    n = int(weight.sum())
    mean = float((rounds * weight).sum() / n) if n else math.nan
    sd = float(math.sqrt(((rounds - mean) ** 2 * weight).sum() / (n - 1))) if n > 1 else math.nan
    length = {"mean_rounds": mean, "sd_rounds": sd}
    bal = balance(games).row(0, named=True)
    ends = end_reasons(games)
    return {"games": n,
            "seats": _records(seat_win_rates(games), ["seat", *rate]),
            "factions": _records(faction_win_rates(games), ["faction", *rate]),
            "bots": _records(bot_win_rates(games), ["bot", *rate]),
            "mean_rounds": length["mean_rounds"], "sd_rounds": length["sd_rounds"],
            "rounds_histogram": {int(r): int(n) for r, n in zip(hist["rounds"], hist["games"])},
            "end_reasons": {str(k): int(v) for k, v in zip(ends["end_reason"], ends["count"])},
            "balance": bal["balance"], "balance_low": bal["ci_low"], "balance_high": bal["ci_high"]}
