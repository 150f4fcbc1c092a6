"""A paired comparison of two runs of the same game indices (data A against data B).

Both sides play game k of the same seed, so every change is measured game by game: for a
group (a seat, a faction, a bot, the seats that acquired an entity) each game contributes
its win shares x and its seat count n on both sides, and the change in win rate
sum(x_b)/sum(n_b) - sum(x_a)/sum(n_a) gets a linearised interval over the per-game
differences (clustered by game). When the group has the same seats on both sides this is
exactly the mean of paired differences (reports.measures.metrics.paired_difference).

Input frames: per-game rows of one side each (reports.measures.metrics' columns), with optional
`s{i}_has_{id}` flags (the seat acquired entity id in that game) for the entity rows.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import polars as pl

from . import metrics as M
from .pairing import pairing, seats_of
from .stats import Z95, mean_interval, z_for_family


def paired_rate_change(xa, na, xb, nb, z: float = Z95) -> dict:
    """Change of a ratio-of-sums win rate between two sides of the same games, with its interval.

    xa, na, xb, nb: (games,) win shares and seat counts of the group on each side, aligned by game.
    """
    xa, na, xb, nb = (np.asarray(v, dtype=float) for v in (xa, na, xb, nb))
    g, ta, tb = xa.size, na.sum(), nb.sum()
    if g < 2 or ta <= 0 or tb <= 0:
        ra = xa.sum() / ta if ta > 0 else math.nan
        rb = xb.sum() / tb if tb > 0 else math.nan
        return {"rate_a": ra, "rate_b": rb, "change": rb - ra, "ci_low": math.nan, "ci_high": math.nan}
    ra, rb = xa.sum() / ta, xb.sum() / tb
    # Each game's influence on each side's rate; the change's variance is that of their difference.
    u = (xb - rb * nb) / tb - (xa - ra * na) / ta
    se = math.sqrt((u ** 2).sum() * g / (g - 1))
    se_b = math.sqrt((((xb - rb * nb) / tb) ** 2).sum() * g / (g - 1))      # the after side's own rate
    d = rb - ra
    return {"rate_a": ra, "rate_b": rb, "change": d, "ci_low": d - z * se, "ci_high": d + z * se,
            "b_low": rb - z * se_b, "b_high": rb + z * se_b}


def _aligned(a: pl.DataFrame, b: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    a, b = a.sort("game"), b.sort("game")
    if a.height != b.height or not a["game"].equals(b["game"]):
        raise ValueError("a paired comparison needs the same game indices on both sides")
    return a, b


def _share(df: pl.DataFrame, s: int) -> np.ndarray:
    return df[f"s{s}_share"].cast(pl.Float64).fill_null(0.0).to_numpy()


def _group_sums(df: pl.DataFrame, kind: str, value: str) -> tuple[np.ndarray, np.ndarray]:
    """Per game: win shares and seat count of the seats whose s{i}_{kind} is `value`."""
    x = np.zeros(df.height)
    n = np.zeros(df.height)
    for s in seats_of(df):
        mask = (df[f"s{s}_{kind}"].cast(pl.Utf8) == value).fill_null(False).to_numpy()
        x += mask * _share(df, s)
        n += mask
    return x, n


def _with_bound(rows: list[dict]) -> pl.DataFrame:
    df = pl.DataFrame(rows, infer_schema_length=None)
    if df.height == 0:
        return df
    return df.with_columns(excludes_zero=((pl.col("ci_low") > 0) | (pl.col("ci_high") < 0)).fill_null(False))


def seat_changes(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    """Per seat: win rate on each side, the paired change and its 95% interval, the fair share."""
    a, b = _aligned(a, b)
    rows = []
    for s in seats_of(a):
        seated = a[f"s{s}_share"].is_not_null().to_numpy().astype(float)
        r = paired_rate_change(_share(a, s), seated, _share(b, s), seated)
        players = a["players"].cast(pl.Float64).to_numpy()
        rows.append({"seat": s, "games": int(seated.sum()), **r, "fair": float(np.mean(1 / players[seated > 0]))})
    return _with_bound(rows)


def group_changes(a: pl.DataFrame, b: pl.DataFrame, kind: str) -> pl.DataFrame:
    """Per faction (kind="faction") or bot (kind="bot"): the paired change of its win rate."""
    a, b = _aligned(a, b)
    names = sorted({str(v) for df in (a, b) for s in seats_of(df)
                    for v in df[f"s{s}_{kind}"].cast(pl.Utf8).drop_nulls().unique().to_list()})
    rows = []
    fair = 1.0 / a["players"].cast(pl.Float64).to_numpy()
    for name in names:
        xa, na = _group_sums(a, kind, name)
        xb, nb = _group_sums(b, kind, name)
        r = paired_rate_change(xa, na, xb, nb)
        rows.append({kind: name, "games_a": int(na.sum()), "games_b": int(nb.sum()), **r,
                     "fair": float((fair * na).sum() / na.sum()) if na.sum() else math.nan})
    return _with_bound(rows)


def _holders(df: pl.DataFrame, ids: Sequence[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per game: win shares and number of the seats that acquired any of the entity ids `ids`."""
    x = np.zeros(df.height)
    n = np.zeros(df.height)
    for s in seats_of(df):
        cols = [f"s{s}_has_{i}" for i in ids if f"s{s}_has_{i}" in df.columns]
        if cols:
            has = df.select(pl.any_horizontal(cols).fill_null(False)).to_series().to_numpy().astype(float)
            x += has * _share(df, s)
            n += has
    return x, n


def entity_changes(a: pl.DataFrame, b: pl.DataFrame, ids_a: dict[str, list[int]], ids_b: dict[str, list[int]],
                   changed: Sequence[str] = ()) -> pl.DataFrame:
    """Per entity (by name): change of its acquirers' win rate and of how often it is acquired.

    Intervals are corrected (Bonferroni) for the number of entities compared. `changed`: the
    entities the edit itself touches (always kept); `affected` marks the others whose
    corrected interval of either change excludes zero.
    """
    a, b = _aligned(a, b)
    names = list(dict.fromkeys([*ids_a, *ids_b]))
    z = z_for_family(len(names))
    seats = a["players"].cast(pl.Float64).to_numpy()
    rows = []
    for name in names:
        xa, na = _holders(a, ids_a.get(name, []))
        xb, nb = _holders(b, ids_b.get(name, []))
        if na.sum() == 0 and nb.sum() == 0 and name not in changed:
            continue
        r = paired_rate_change(xa, na, xb, nb, z)
        acq, alo, ahi = mean_interval(nb / seats - na / seats, z)
        rows.append({"entity": name, "changed": name in changed, "acquired_a": float((na / seats).mean()),
                     "acquired_b": float((nb / seats).mean()), "acquired_change": acq, "acquired_low": alo,
                     "acquired_high": ahi, "holders_a": int(na.sum()), "holders_b": int(nb.sum()), **r,
                     "family": len(names)})
    df = _with_bound(rows)
    if df.height == 0:
        return df
    acq_clear = ((pl.col("acquired_low") > 0) | (pl.col("acquired_high") < 0)).fill_null(False)
    return df.with_columns(affected=pl.col("excludes_zero") | acq_clear)


def length_change(a: pl.DataFrame, b: pl.DataFrame) -> dict:
    """Mean rounds on each side and the paired change with its 95% interval."""
    a, b = _aligned(a, b)
    ra, rb = a["rounds"].cast(pl.Float64).to_numpy(), b["rounds"].cast(pl.Float64).to_numpy()
    d, lo, hi = mean_interval(rb - ra)
    return {"rounds_a": float(ra.mean()), "rounds_b": float(rb.mean()), "change": d, "ci_low": lo, "ci_high": hi}


def balance_change(a: pl.DataFrame, b: pl.DataFrame) -> dict:
    """Balance (1 - largest faction gap) on each side with its interval, and the difference."""
    ba, bb = M.balance(a).row(0, named=True), M.balance(b).row(0, named=True)
    return {"balance_a": ba["balance"], "low_a": ba["ci_low"], "high_a": ba["ci_high"], "best_a": ba["best"],
            "worst_a": ba["worst"], "balance_b": bb["balance"], "low_b": bb["ci_low"], "high_b": bb["ci_high"],
            "best_b": bb["best"], "worst_b": bb["worst"], "change": bb["balance"] - ba["balance"]}


def edit_summary(rs_a, rs_b) -> dict:
    """Which parameters and table rows differ between two rulesets, value by value.

    Rows are matched by their name (and, where names repeat, by their order among the rows
    of that name); `_row` (the CSV line) and the free-text columns are ignored.
    """
    params = [{"name": k, "a": rs_a.params.get(k), "b": rs_b.params.get(k)}
              for k in sorted(set(rs_a.params) | set(rs_b.params)) if rs_a.params.get(k) != rs_b.params.get(k)]
    rows = []
    for table in sorted(set(rs_a.tables) | set(rs_b.tables)):
        def keyed(rs):
            out, seen = {}, {}
            for r in rs.tables.get(table, ()):
                name = str(r.get("name", r.get("_row")))
                extra = {k: str(r[k]) for k in ("deck", "animal") if k in r and r[k] not in (None, "")}
                key = (name, tuple(sorted(extra.items())))
                seen[key] = seen.get(key, 0) + 1
                out[(*key, seen[key])] = r
            return out
        ka, kb = keyed(rs_a), keyed(rs_b)
        for key in list(dict.fromkeys([*ka, *kb])):
            ra, rb = ka.get(key), kb.get(key)
            label = key[0] + (f" ({', '.join(v for _, v in key[1])})" if key[1] else "")
            if ra is None or rb is None:
                rows.append({"table": table, "row": label, "column": "(row)",
                             "a": "absent" if ra is None else "present", "b": "absent" if rb is None else "present"})
                continue
            for col in ra:
                if col in ("_row", "text") or ra.get(col) == rb.get(col):
                    continue
                rows.append({"table": table, "row": label, "column": col, "a": ra.get(col), "b": rb.get(col)})
    return {"params": params, "rows": rows, "same": not params and not rows}


def compare_frames(a: pl.DataFrame, b: pl.DataFrame, ids_a: dict[str, list[int]], ids_b: dict[str, list[int]],
                   changed_entities: Sequence[str] = ()) -> dict:
    """Every table of a comparison (side b against side a), plus the pairing figures."""
    a, b = _aligned(a, b)
    out = {"games": a.height, "seats": seat_changes(a, b), "factions": group_changes(a, b, "faction"),
           "bots": group_changes(a, b, "bot"), "entities": entity_changes(a, b, ids_a, ids_b, changed_entities),
           "length": length_change(a, b), "balance": balance_change(a, b)}
    out["pairing"] = pairing(a.select([c for c in a.columns if not c.startswith("s") or "_has_" not in c]),
                             b.select([c for c in b.columns if not c.startswith("s") or "_has_" not in c]))
    return out
