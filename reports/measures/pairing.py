"""Is a paired comparison really paired? Figures for two runs of the same game indices.

Every sweep point plays the same game indices from the same per-game streams (common
random numbers), so point B's game k is "the same game" as point A's game k *as far as
the rules let it be*. Whether that holds is measured, not assumed:

- `identical`: the share of games whose outcome (every seat's win share and score) is the
  same at both points. For a rule change, 1 - identical is the share of games the change
  touched ("this rule change touched 0.1% of games").
- `correlation`: Pearson correlation of a seat's win share at A and at B over the
  (game, seat) pairs. Near 0: B's games are different games (e.g. removing a card
  reshuffled every deck), and "the same games without it" is not a fair description.
- `identical_unused`: given per-game flags "the entity was used in this game at A", the
  share of games *where it was not used* whose outcome is identical. A knockout cannot
  change a game in which the entity played no part, so below PAIRED_MIN the pairing is
  broken (the change reached games it had no business reaching).

`holds`: the pairing holds when `identical_unused` >= PAIRED_MIN where use flags exist,
else when `correlation` >= PAIRED_CORRELATION. A removal (rows edited out) never holds in a
run's pairings (point_pairings): whatever its figures, it deals different decks. A result may be called causal only for
games where it holds (docs/metrics.md, section "Pairing").
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from .stats import wilson

# A game in which the entity played no part must come out identical. 0.99 allows for a
# rare knock-on (e.g. a tie-break that reads a count) while a reshuffle fails it at once.
PAIRED_MIN = 0.99
# Without use flags: a seat's result at A must still predict it at B. 0.5 halves the
# variance of a difference against independent games; unpaired designs give about 0.
PAIRED_CORRELATION = 0.5
# A knockout keeps every card, shuffle and draw by construction; its check needs games in which
# nobody acquired the entity. With fewer than this many, the check cannot be made (the entity is
# in nearly every game): the result is causal by design, and the label says it was not checked.
MIN_UNUSED = 30


REMOVAL_RULE = ("a removal edits the rows, which changes every deck they are in, so it is never read as a cause; "
                "a knockout keeps the same cards")


def seats_of(games: pl.DataFrame) -> list[int]:
    return sorted(int(c[1:-6]) for c in games.columns if c.startswith("s") and c.endswith("_share"))


def _joined(a: pl.DataFrame, b: pl.DataFrame) -> pl.DataFrame:
    keep = ["game"] + [c for c in a.columns if c.endswith(("_share", "_score"))]
    if a.height != b.height or not a["game"].sort().equals(b["game"].sort()):
        raise ValueError("a paired comparison needs the same game indices at both points")
    return a.select(keep).join(b.select(keep), on="game", suffix="_b")


def pairing(a: pl.DataFrame, b: pl.DataFrame, used: np.ndarray | None = None, by_design: bool = False) -> dict:
    """Pairing figures of point b against point a (per-game rows of the same game indices).

    `used`: optional (games,) bool, aligned with `a` sorted by game: the entity was used.
    `by_design`: b is a knockout of a (same cards and draws by construction): with fewer than
    MIN_UNUSED games without the entity the pairing is taken as holding, and `checked` is False.
    """
    j = _joined(a.sort("game"), b.sort("game")).sort("game")
    seats = seats_of(a)
    same = np.ones(j.height, bool)
    for s in seats:
        for col in (f"s{s}_share", f"s{s}_score"):
            same &= (j[col] == j[f"{col}_b"]).fill_null(True).to_numpy()
    xa = np.concatenate([j[f"s{s}_share"].to_numpy() for s in seats])
    xb = np.concatenate([j[f"s{s}_share_b"].to_numpy() for s in seats])
    ok = ~(np.isnan(xa) | np.isnan(xb))
    corr = (float(np.corrcoef(xa[ok], xb[ok])[0, 1])
            if ok.sum() > 1 and xa[ok].std() > 0 and xb[ok].std() > 0 else math.nan)
    p, lo, hi = wilson(same.sum(), len(same))
    out = {"games": int(len(same)), "identical": float(p), "identical_lo": float(lo), "identical_hi": float(hi),
           "changed": float(1 - p), "correlation": corr,
           "identical_unused": math.nan, "unused_games": 0}
    if used is not None:
        unused = ~np.asarray(used, bool)
        out["unused_games"] = int(unused.sum())
        if unused.any():
            out["identical_unused"] = float(same[unused].mean())
    out["checked"] = True
    if by_design and used is not None and out["unused_games"] < MIN_UNUSED:
        out["holds"], out["checked"] = True, False
        out["rule"] = (f"a knockout keeps the same cards and draws; only {out['unused_games']} games without the "
                       f"entity, fewer than the {MIN_UNUSED} a check needs, so not checked here")
    elif out["unused_games"]:
        out["holds"] = out["identical_unused"] >= PAIRED_MIN
        out["rule"] = f"games without the entity identical >= {PAIRED_MIN:.0%}"
    else:
        out["holds"] = bool(corr >= PAIRED_CORRELATION) if not math.isnan(corr) else False
        out["rule"] = f"correlation of paired seat results >= {PAIRED_CORRELATION}"
    return out


def _corr(c: float) -> str:
    return f"{round(c, 2) + 0.0:.2f}"          # never "-0.00"


def describe(fig: dict) -> str:
    """The figures in plain words, for a report line."""
    head = (f"{fig['identical']:.1%} of {fig['games']:,} games identical, correlation of paired "
            f"results {_corr(fig['correlation'])}")
    if fig["holds"]:
        return head + f": the pairing holds ({fig['rule']}); the difference is caused by the change."
    return head + (f": the pairing does NOT hold ({fig['rule']}); these are different games, so the "
                   "difference is an association, not the effect of the change alone.")


# ----------------------------------------------------------------------------- every paired comparison of a run

def label(fig: dict) -> str:
    """The plain-words label of a paired comparison: causal, or association only (and why)."""
    unused = "" if not fig.get("unused_games") else f", {fig['identical_unused']:.1%} identical where unused"
    figures = f"{fig['identical']:.1%} of games identical, correlation {_corr(fig['correlation'])}{unused}"
    if fig["holds"] and not fig.get("checked", True):
        return f"causal by design, pairing not checked ({figures}; {fig['rule']})"
    if fig["holds"]:
        return f"causal (pairing holds: {figures}; rule: {fig['rule']})"
    return f"association only: the games are not the same games ({figures}; rule: {fig['rule']})"


def _used(base: pl.DataFrame, ids) -> np.ndarray | None:
    """(games,) bool, base rows sorted by game: some seat acquired one of the entity ids."""
    cols = [c for s in seats_of(base) for c in (f"s{s}_has_{i}" for i in ids) if c in base.columns]
    if not cols:
        return None
    return base.sort("game").select(pl.any_horizontal(cols).fill_null(False)).to_series().to_numpy()


def series_reference(points: list[dict], reference: int, grid: list[str]) -> dict[int, int]:
    """Base point -> the point it is compared with: the one with the reference point's grid values
    and the same players, bots and replicate (the same game indices, the same seats)."""
    by_index = {p["index"]: p for p in points}
    ref = by_index.get(reference, {}).get("labels", {})
    base = [p for p in points if p.get("ablated") is None]
    out = {}
    for p in base:
        want = {k: (ref.get(k) if k in grid else v) for k, v in p["labels"].items()}
        match = next((q["index"] for q in base if q["labels"] == want), None)
        if match is not None and match != p["index"]:
            out[p["index"]] = match
    return out


def point_pairings(games: pl.DataFrame, points: list[dict], reference: int, grid: list[str]) -> pl.DataFrame:
    """Pairing figures of every paired comparison of a run: each ablation (knockout or removal)
    point against its base point, each sweep point against its reference point.

    One row per compared point: point, against, kind (knockout | removal | sweep), entity,
    games, identical (+ interval), changed (the share of games the change touched, "where it
    mattered"), correlation, identical_unused, unused_games, holds, rule, label.
    """
    rows = []
    pairs = [(p["index"], p["base"], p.get("ablation_kind") or "removal", p["ablated"], p)
             for p in points if p.get("ablated") is not None]
    pairs += [(i, j, "sweep", None, None) for i, j in series_reference(points, reference, grid).items()]
    for point, against, kind, entity, p in pairs:
        a = games.filter(pl.col("point") == against)
        b = games.filter(pl.col("point") == point)
        if b.height < a.height:     # a check stopped when decided: its games are the first of its base's
            a = a.filter(pl.col("game").is_in(b["game"].implode()))
        if a.height == 0 or a.height != b.height or not a["game"].sort().equals(b["game"].sort()):
            continue            # an unfinished run: the two points do not hold the same games yet
        ids = (p or {}).get("tracked", {}).get(entity, []) if entity else []
        fig = pairing(a, b, _used(a, ids) if ids else None, by_design=kind == "knockout")
        if kind == "removal":        # never a cause: taking rows out changes every deck it is in
            fig["holds"], fig["rule"] = False, REMOVAL_RULE
        rows.append({"point": point, "against": against, "kind": kind, "entity": entity, **fig, "label": label(fig)})
    if not rows:
        return pl.DataFrame(schema={"point": pl.Int64, "against": pl.Int64, "kind": pl.Utf8, "entity": pl.Utf8,
                                    "holds": pl.Boolean, "changed": pl.Float64, "label": pl.Utf8})
    return pl.DataFrame(rows, infer_schema_length=None)
