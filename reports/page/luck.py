"""The report's "Luck and skill" section: from sweep points that differ only in one seat's bot.

Every sweep point plays the same game indices from the same per-game streams, so two base
points whose line-ups differ in exactly one seat (every other setting alike) are the
luck/skill design of reports.measures.luck at that seat: the same deals with bot A and with bot B
there, the other seats fixed. A bots axis such as

    [[grid]]
    bots = ["random", ["greedy", "random", "random", "random"], ["random", "greedy", "random", "random"]]

gives greedy against random at seats 0 and 1 with a random field (the mirror point, random
everywhere, serves every seat). Pairs with the same bots, the same field and the same other
settings are pooled over their seats. A run without such pairs has no section.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np
import polars as pl

from ..measures import luck as L

MAX_SHOWN = 6            # decompositions shown (the first ones in point order)


def _lineup(point: dict) -> tuple[str, ...]:
    return tuple(point["labels"].get("bots", "").split(","))


def _setting(point: dict) -> tuple:
    """Everything but the bots: points must agree on it to be paired."""
    return tuple(sorted((k, str(v)) for k, v in point["labels"].items() if k != "bots"))


def seat_pairs(points: list[dict]) -> dict:
    """{(setting, A, B, field): [(seat, point with A, point with B), ...]} over base points whose
    line-ups differ in one seat. B is the field bot when one of the two is (A the tested bot)."""
    base = [p for p in points if p.get("ablated") is None and p["labels"].get("bots")]
    out = defaultdict(list)
    for i, p in enumerate(base):
        for q in base[i + 1:]:
            lp, lq = _lineup(p), _lineup(q)
            if _setting(p) != _setting(q) or len(lp) != len(lq):
                continue
            diff = [s for s in range(len(lp)) if lp[s] != lq[s]]
            if len(diff) != 1:
                continue
            s = diff[0]
            others = sorted(set(lp[:s] + lp[s + 1:]))
            field = others[0] if len(others) == 1 else "mixed (" + ",".join(lp[:s] + ("*",) + lp[s + 1:]) + ")"
            a, b, pa, pb = lp[s], lq[s], p, q
            if a == field or (b != field and a > b):           # the field bot (or the later name) is the baseline
                a, b, pa, pb = b, a, q, p
            key = (_setting(p), a, b, field)
            if all(seat != s for seat, _, _ in out[key]):
                out[key].append((s, pa["index"], pb["index"]))
    return dict(out)


def _shares(games: pl.DataFrame, point: int, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """(game indices, the seat's win share; nan when nobody won) of one point, in game order."""
    g = games.filter(pl.col("point") == point).sort("game")
    seats = [c for c in g.columns if c.startswith("s") and c.endswith("_share")]
    share = np.column_stack([g[c].fill_null(0).to_numpy() for c in seats]).astype(float)
    total = share.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        y = np.where(total > 0, share[:, seat] / total, np.nan)
    return g["game"].to_numpy(), y


def build(games: pl.DataFrame, points: list[dict], labels: dict, bootstrap: int = 500, seed: int = 0) -> list[dict]:
    """One decomposition per (setting, bots, field) found, titled with the points it uses."""
    out = []
    for (setting, a, b, field), pairs in list(seat_pairs(points).items())[:MAX_SHOWN]:
        cols_a, cols_b, common = [], [], None
        for seat, pa, pb in pairs:
            ga, ya = _shares(games, pa, seat)
            gb, yb = _shares(games, pb, seat)
            both = np.intersect1d(ga, gb)
            common = both if common is None else np.intersect1d(common, both)
            cols_a.append(dict(zip(ga.tolist(), ya)))
            cols_b.append(dict(zip(gb.tolist(), yb)))
        if common is None or common.size < 2:
            continue
        y = np.stack([np.array([[ca[g] for ca in cols_a] for g in common.tolist()]),
                      np.array([[cb[g] for cb in cols_b] for g in common.tolist()])], axis=2)   # (G, seats, 2)
        result = L.decompose(y, [a, b], bootstrap=bootstrap, seed=seed)
        where = ", ".join(f"{k} = {v}" for k, v in setting) or "base"
        seats = ", ".join(str(s) for s, _, _ in sorted(pairs))
        out.append(dict(result, field=field, words=L.words(result, field),
                        title=f"{a} against {b} at seat{'s' if len(pairs) > 1 else ''} {seats}, other seats {field} ({where})",
                        points=sorted({p for _, pa, pb in pairs for p in (pa, pb)})))
    return out


__all__ = ["build", "seat_pairs"]
