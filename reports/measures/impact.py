"""Entity impact that says what it is: adjusted associations, and every estimate per bot.

The plain association (reports.measures.metrics.entity_impact) compares seats that acquired an
entity with seats that did not. Where acquiring more entities is itself winning (a seat's
score counts its cards), holders win more whatever the entity does: the comparison is
confounded by how much a seat acquired. `adjusted_association` compares like with like:
within each stratum of seats that acquired the same number of entities in all, holders
against non-holders; the strata's differences are averaged with the holders' counts as
weights (the effect on the seats that hold it). It is still an association (labelled
"association (adjusted for N acquired)"); only a paired knockout is a causal estimate.

Input: per-game rows of a run with, per seat, `s{i}_share` (win share), `s{i}_bot`,
`s{i}_acquired` (entities acquired in all) and `s{i}_has_{id}` flags (experiments.sweep
records them). Intervals are clustered by game (the seats of one game share its winner):
the estimate is linear in the per-stratum means, so each game contributes the sum of its
seats' influences, and the variance is that of the per-game sums.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
import polars as pl

from .pairing import seats_of
from .stats import Z95, z_for_family

ADJUSTED_LABEL = "association (adjusted for N acquired)"
RAW_LABEL = "association (raw)"


class SeatGames:
    """The (game, seat) rows of a games frame as flat arrays, seat-major: row = seat * games + game."""

    def __init__(self, games: pl.DataFrame, bot: str | None = None):
        seats = seats_of(games)
        self.n_games = games.height
        self.game = np.tile(np.arange(games.height), len(seats))                     # (R,) cluster index
        self.y = np.concatenate([games[f"s{s}_share"].cast(pl.Float64).to_numpy() for s in seats])
        self.k = np.concatenate([games[f"s{s}_acquired"].fill_null(-1).cast(pl.Int64).to_numpy()
                                 if f"s{s}_acquired" in games.columns else np.full(games.height, -1)
                                 for s in seats])                                      # (R,) stratum
        bots = np.concatenate([games[f"s{s}_bot"].cast(pl.Utf8).fill_null("").to_numpy().astype(str)
                               for s in seats])
        self.seated = ~np.isnan(self.y) & ((bots == bot) if bot is not None else True)
        self.games, self.seats = games, seats

    def holds(self, ids: Sequence[int]) -> np.ndarray | None:
        """(R,) bool: the seat acquired any of the entity ids in that game (None: no flags recorded)."""
        cols = [[f"s{s}_has_{i}" for i in ids if f"s{s}_has_{i}" in self.games.columns] for s in self.seats]
        if not all(cols) or not ids:
            return None
        return np.concatenate([self.games.select(pl.any_horizontal(c).fill_null(False)).to_series().to_numpy()
                               for c in cols])


def stratified_difference(y, holds, strata, cluster, n_clusters: int, z: float = Z95) -> dict:
    """Holders minus non-holders within strata, weighted by holders per stratum; clustered interval.

    y, holds, strata, cluster: (R,) per seat-game. Strata without both holders and non-holders
    are left out (`holders_compared` says how many holders were compared).
    """
    y, holds = np.asarray(y, float), np.asarray(holds, bool)
    strata = np.unique(np.asarray(strata), return_inverse=True)[1]
    m = strata.max() + 1 if strata.size else 0
    n1 = np.bincount(strata, weights=holds, minlength=m)
    n0 = np.bincount(strata, weights=~holds, minlength=m)
    s1 = np.bincount(strata, weights=y * holds, minlength=m)
    s0 = np.bincount(strata, weights=y * ~holds, minlength=m)
    both = (n1 > 0) & (n0 > 0)
    out = {"holders": int(holds.sum()), "holders_compared": int(n1[both].sum()), "strata": int(both.sum()),
           "rate_with": math.nan, "rate_without": math.nan, "effect": math.nan, "ci_low": math.nan,
           "ci_high": math.nan}
    if not both.any():
        return out
    w = np.where(both, n1, 0.0) / n1[both].sum()                    # (m,) the holders' weights
    p1 = np.divide(s1, n1, out=np.zeros(m), where=n1 > 0)
    p0 = np.divide(s0, n0, out=np.zeros(m), where=n0 > 0)
    effect = float((w * (p1 - p0)).sum())
    # Influence of each seat-game on the estimate; summed per game, they are independent.
    scale = np.where(holds, np.divide(w, n1, out=np.zeros(m), where=n1 > 0)[strata],
                     -np.divide(w, n0, out=np.zeros(m), where=n0 > 0)[strata])
    centre = np.where(holds, p1[strata], p0[strata])
    per_game = np.bincount(cluster, weights=scale * (y - centre), minlength=n_clusters)
    g = int((np.bincount(cluster, minlength=n_clusters) > 0).sum())
    se = math.sqrt((per_game ** 2).sum() * g / (g - 1)) if g > 1 else math.nan
    out.update(rate_with=float((w * p1).sum()), rate_without=float((w * p0).sum()), effect=effect,
               ci_low=effect - z * se, ci_high=effect + z * se)
    return out


def entity_names(tallies: pl.DataFrame) -> dict[str, list[int]]:
    """Entity name -> its entity ids (a name may repeat, e.g. one card per animal)."""
    if tallies.height == 0:
        return {}
    pairs = tallies.select("entity", "entity_id").unique().sort("entity_id")
    out: dict[str, list[int]] = {}
    for name, i in pairs.iter_rows():
        out.setdefault(str(name), []).append(int(i))
    return out


def _with_bound(df: pl.DataFrame) -> pl.DataFrame:
    if df.height == 0:
        return df
    return df.with_columns(bound=pl.max_horizontal(pl.col("ci_low"), -pl.col("ci_high")).fill_nan(None)).with_columns(
        excludes_zero=(pl.col("bound") > 0).fill_null(False))


def adjusted_association(games: pl.DataFrame, names: dict[str, list[int]], bot: str | None = None) -> pl.DataFrame:
    """Per entity: the raw and the adjusted holders-vs-non-holders difference, with corrected intervals.

    games: the per-game rows of one point (or of points that share the same game indices);
    names: entity -> ids; bot: only the seats this bot played. Intervals are Bonferroni-corrected
    for the number of entities compared. Empty when the rows carry no acquisition flags.
    """
    sg = SeatGames(games, bot)
    if (sg.k < 0).all():
        return pl.DataFrame()
    keep = sg.seated
    flags = {n: sg.holds(ids) for n, ids in names.items()}
    flags = {n: h for n, h in flags.items() if h is not None and h[keep].any() and not h[keep].all()}
    z = z_for_family(len(flags))
    rows = []
    for name, h in flags.items():
        args = (sg.y[keep], h[keep])
        raw = stratified_difference(*args, np.zeros(keep.sum(), int), sg.game[keep], sg.n_games, z)
        adj = stratified_difference(*args, sg.k[keep], sg.game[keep], sg.n_games, z)
        rows.append({"entity": name, "bot": bot, "seat_games": int(keep.sum()), "holders": adj["holders"],
                     "raw_effect": raw["effect"], "raw_low": raw["ci_low"], "raw_high": raw["ci_high"],
                     "holders_compared": adj["holders_compared"], "rate_with": adj["rate_with"],
                     "rate_without": adj["rate_without"], "effect": adj["effect"], "ci_low": adj["ci_low"],
                     "ci_high": adj["ci_high"], "label": ADJUSTED_LABEL, "family": len(flags)})
    if not rows:
        return pl.DataFrame()
    return _with_bound(pl.DataFrame(rows, infer_schema_length=None)).sort("bound", descending=True, nulls_last=True)


def _holder_sums(base: pl.DataFrame, ablated: pl.DataFrame, ids: Sequence[int], bot: str | None):
    """Per game (sorted by game): the holders' summed win share at base minus at the knockout
    (num) and the number of holders (den), over the seats `bot` played (None: all); None without flags."""
    base, ablated = base.sort("game"), ablated.sort("game")
    sb, sa = SeatGames(base, bot), SeatGames(ablated, bot)
    h = sb.holds(ids)
    if h is None:
        return None
    h = h & sb.seated
    d = np.where(h, sb.y - np.nan_to_num(sa.y), 0.0)
    return (np.bincount(sb.game, weights=d, minlength=sb.n_games),
            np.bincount(sb.game, weights=h, minlength=sb.n_games))


def knockout_by_bot(base: pl.DataFrame, ablated: pl.DataFrame, ids: Sequence[int], bot: str | None,
                    z: float = Z95) -> dict:
    """Holders' win share at the base games minus at the same games with the entity knocked out,
    over the seats `bot` played (None: all); clustered by game."""
    sums = _holder_sums(base, ablated, ids, bot)
    if sums is None:
        return {"holders": 0, "effect": math.nan, "ci_low": math.nan, "ci_high": math.nan}
    num, den = sums
    total, n = den.sum(), len(den)
    if total == 0 or n < 2:
        return {"holders": int(total), "effect": math.nan, "ci_low": math.nan, "ci_high": math.nan}
    r = num.sum() / total
    se = math.sqrt(((num - r * den) ** 2).sum() * n / (n - 1)) / total
    return {"holders": int(total), "effect": float(r), "ci_low": r - z * se, "ci_high": r + z * se}


def knockout_change(games: pl.DataFrame, points: Sequence[dict], entity: str, base_a: int, base_b: int,
                    z: float = Z95) -> dict:
    """How much an entity's knockout effect changed between two base points that play the same
    game indices (e.g. the default data and an edit that makes the entity stronger): the effect
    at base_b minus the effect at base_a, with a paired interval clustered by game.

    Each effect is a ratio (holders' summed paired difference / holders); the change's variance
    is that of the per-game sums of both ratios' influences (delta method), so whatever the two
    settings share game by game (the same deals, the same knocked-out games) cancels.
    """
    sums = {}
    for base in (base_a, base_b):
        q = next((p for p in points if p.get("ablated") == entity and p.get("base") == base), None)
        if q is None:
            raise ValueError(f"no knockout of {entity!r} against point {base}")
        b = games.filter(pl.col("point") == base)
        a = games.filter(pl.col("point") == q["index"])
        if b.height != a.height or not b["game"].sort().equals(a["game"].sort()):
            raise ValueError("a paired comparison needs the same game indices at every point")
        sums[base] = _holder_sums(b, a, q.get("tracked", {}).get(entity, []), None)
    if any(v is None for v in sums.values()) or len(sums[base_a][0]) != len(sums[base_b][0]):
        raise ValueError("the two settings must play the same game indices, with acquisition flags")
    if not games.filter(pl.col("point") == base_a)["game"].sort().equals(
            games.filter(pl.col("point") == base_b)["game"].sort()):
        raise ValueError("the two settings must play the same game indices")
    out, infl = {"games": len(sums[base_a][0])}, 0.0
    for key, base, sign in (("a", base_a, -1.0), ("b", base_b, 1.0)):
        num, den = sums[base]
        total = den.sum()
        r = num.sum() / total if total else math.nan
        out[f"holders_{key}"], out[f"effect_{key}"] = int(total), float(r)
        infl = infl + sign * ((num - r * den) / total if total else np.nan)
    n = out["games"]
    change = out["effect_b"] - out["effect_a"]
    se = math.sqrt((np.asarray(infl) ** 2).sum() * n / (n - 1)) if n > 1 else math.nan
    out.update(change=change, ci_low=change - z * se, ci_high=change + z * se)
    return out


def sign_flags(df: pl.DataFrame) -> pl.DataFrame:
    """Mark entities whose estimate has opposite signs between two bots with both intervals excluding 0."""
    if df.height == 0:
        return df
    clear = df.filter(pl.col("excludes_zero"))
    flips = (clear.group_by(["entity", "measure"]).agg((pl.col("effect") > 0).any().alias("pos"),
                                                       (pl.col("effect") < 0).any().alias("neg"))
             .filter(pl.col("pos") & pl.col("neg")).select("entity", "measure", pl.lit(True).alias("sign_differs")))
    return df.join(flips, on=["entity", "measure"], how="left").with_columns(pl.col("sign_differs").fill_null(False))


def bot_series(points: list[dict], reference: int) -> list[dict]:
    """The reference point and the base points that differ from it only in their bots."""
    ref = next((p for p in points if p["index"] == reference), None)
    if ref is None:
        return []
    same = {k: v for k, v in ref["labels"].items() if k != "bots"}
    return [p for p in points if p.get("ablated") is None
            and {k: v for k, v in p["labels"].items() if k != "bots"} == same]


def bots_impact(games: pl.DataFrame, points: list[dict], reference: int, names: dict[str, list[int]],
                pairings: pl.DataFrame | None = None) -> pl.DataFrame:
    """Each entity per bot, at the reference setting: the adjusted association over the seats each
    bot played and, for every knockout/removal of it, the holders' paired effect over those seats.

    Empty unless at least two bots play there (a mixed field, or points that differ only in bots).
    `sign_differs` marks an entity whose estimates of one measure have opposite signs for two bots
    with both intervals excluding zero (an estimate whose interval includes zero never flags).
    """
    series = bot_series(points, reference)
    bots = sorted({b for p in series for b in p.get("bots", [])})
    if len(bots) < 2:
        return pl.DataFrame()
    holds = {} if pairings is None or pairings.height == 0 else \
        {r["point"]: r["holds"] for r in pairings.iter_rows(named=True)}
    ablations = [q for q in points if q.get("ablated") is not None]
    z = z_for_family(len({q["ablated"] for q in ablations}) or 1)
    rows = []
    for p in series:
        g = games.filter(pl.col("point") == p["index"])
        for bot in sorted(set(p.get("bots", []))):
            adj = adjusted_association(g, names, bot)
            for r in adj.iter_rows(named=True) if adj.height else ():
                rows.append({"entity": r["entity"], "bot": bot, "point": p["index"], "measure": ADJUSTED_LABEL,
                             "causal": False, "holders": r["holders"], "effect": r["effect"],
                             "ci_low": r["ci_low"], "ci_high": r["ci_high"]})
            for q in (q for q in ablations if q["base"] == p["index"]):
                ids = q.get("tracked", {}).get(q["ablated"], [])
                ko = knockout_by_bot(g, games.filter(pl.col("point") == q["index"]), ids, bot, z)
                rows.append({"entity": q["ablated"], "bot": bot, "point": p["index"],
                             "measure": q.get("ablation_kind") or "removal", "causal": bool(holds.get(q["index"])),
                             **ko})
    if not rows:
        return pl.DataFrame()
    return sign_flags(_with_bound(pl.DataFrame(rows, infer_schema_length=None))).sort(["entity", "measure", "bot"])
