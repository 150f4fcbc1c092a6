"""Luck against skill: how much of a seat's outcome the bot explains, and how much the deal.

Design (experiments/luck.py plays it; docs/metrics.md has the worked example): common
random numbers. Every game index g of one seed is one deal (the shuffles, dice and every
bot's random draws come from g's streams). For each deal and each seat s the seat's
outcome y (its share of the game's wins, or its score margin: experiments/luck.py) is
observed once per bot k of the comparison, with the same field bot in every other seat:

    y: (G, S, K) float     game index x seat x bot at that seat; nan = nobody won

A "deal" d is one (game index, seat): the luck a seat meets. The outcome decomposes as a
two-way layout without replication (seed x bot, one observation per cell):

    y[d, k] = mu + alpha_k + beta_d + e[d, k]

with method-of-moments (ANOVA) variance components, unbiased in a balanced table:

    SS_bot  = D * sum_k (ybar_k - ybar)^2          (K - 1 degrees of freedom)
    SS_deal = K * sum_d (ybar_d - ybar)^2          (D - 1)
    SS_res  = SS_total - SS_bot - SS_deal          ((D - 1)(K - 1))
    rest    = SS_res / ((D - 1)(K - 1))            seed x bot interaction (and any noise)
    deal    = (SS_deal / (D - 1) - rest) / K       variance of beta: luck common to the bots
    bot     = (SS_bot - (K - 1) rest) / (D K)      sum_k alpha_k^2 / K: the bot switch

each clipped at 0; shares = component / (bot + deal + rest). One observation per cell cannot
tell the interaction from noise; in a game fixed by its seed, `rest` is the interaction: how
differently the same deal turns out for the two bots (luck that depends on who plays it).

Intervals: 95% percentile bootstrap over game indices (every seat and bot of one index
resampled together, because they share the deal). A deal with a game nobody won under any
of the bots is left out (counted in `dropped`). Imports nothing from simcore.
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

COMPONENTS = ("bot", "deal", "rest")
TEXT = {
    "bot": "skill: the bot at the seat (switching it, same deals)",
    "deal": "luck: the deal (seed and seat), whichever bot plays it",
    "rest": "luck x skill: how differently the same deal turns out for each bot",
}
BOOTSTRAP = 1000
CHUNK = 100                     # bootstrap replicates per weight matrix (memory: CHUNK x G)


def _moments(y: np.ndarray) -> tuple[np.ndarray, int]:
    """Per game index the sums the ANOVA needs, (G, 2K + 3), and K.

    Columns: deals n_g, sum_s y[g,s,k] (K), sum_s y^2 (K), sum_s m, sum_s m^2, with m the
    deal's mean over bots. Every statistic is linear in these, so a bootstrap over games
    is a weight matrix times this array."""
    G, S, K = y.shape
    valid = ~np.isnan(y).any(axis=2)                     # (G, S) deals with an outcome under every bot
    yv = np.where(valid[:, :, None], y, 0.0)
    m = yv.mean(axis=2)
    return np.column_stack([valid.sum(axis=1), yv.sum(axis=1), (yv ** 2).sum(axis=1),
                            m.sum(axis=1), (m ** 2).sum(axis=1)]).astype(float), K


def _components(sums: np.ndarray, K: int) -> dict:
    """Variance components from weighted sums (..., 2K + 3): arrays over the leading axes."""
    D = sums[..., 0]
    T = sums[..., 1:1 + K]
    Q = sums[..., 1 + K:1 + 2 * K]
    M2 = sums[..., 2 + 2 * K]
    with np.errstate(invalid="ignore", divide="ignore"):
        ybar_k = T / D[..., None]
        ybar = ybar_k.mean(axis=-1)
        ss_tot = Q.sum(axis=-1) - K * D * ybar ** 2
        ss_bot = D * ((ybar_k - ybar[..., None]) ** 2).sum(axis=-1)
        ss_deal = K * (M2 - D * ybar ** 2)
        ss_res = ss_tot - ss_bot - ss_deal
        rest = np.maximum(ss_res / ((D - 1) * (K - 1)), 0.0)
        deal = np.maximum((ss_deal / (D - 1) - rest) / K, 0.0)
        bot = np.maximum((ss_bot - (K - 1) * rest) / (D * K), 0.0)
        total = bot + deal + rest
        out = {"bot": bot, "deal": deal, "rest": rest, "total": total,
               "bot_share": bot / total, "deal_share": deal / total, "rest_share": rest / total}
        for k in range(K):
            out[f"mean_{k}"] = ybar_k[..., k]
    return out


def _weights(rng: np.random.Generator, G: int, n: int) -> np.ndarray:
    """(n, G) bootstrap counts: each row a resample of the G game indices with replacement."""
    picks = rng.integers(0, G, size=(n, G)) + (np.arange(n) * G)[:, None]
    return np.bincount(picks.ravel(), minlength=n * G).reshape(n, G).astype(float)


def decompose(y, bots: list[str] | tuple[str, ...], bootstrap: int = BOOTSTRAP, seed: int = 0) -> dict:
    """Luck/skill decomposition of y (G, S, K) with 95% bootstrap intervals.

    Returns {"bots", "games", "deals", "dropped", "components": {name: (value, lo, hi)},
    "shares": {name: (share, lo, hi)}, "means": {bot: (mean y, lo, hi)}, "difference":
    (mean y of bots[0] - bots[1], lo, hi)}."""
    y = np.asarray(y, dtype=float)
    if y.ndim != 3 or y.shape[2] != len(bots) or len(bots) < 2:
        raise ValueError(f"y must be (games, seats, bots) with one bot per column, got {y.shape} for {bots}")
    G, S, K = y.shape
    sums, _ = _moments(y)
    point = _components(sums.sum(axis=0), K)
    draws = {k: [] for k in point}
    rng = np.random.default_rng(seed)
    done = 0
    while done < bootstrap and G > 1:
        n = min(CHUNK, bootstrap - done)
        comp = _components(_weights(rng, G, n) @ sums, K)
        for k in draws:
            draws[k].append(comp[k])
        done += n
    draws = {k: np.concatenate(v) if v else np.array([math.nan]) for k, v in draws.items()}

    def interval(key: str) -> tuple[float, float, float]:
        d = draws[key][~np.isnan(draws[key])]
        if d.size == 0:
            return float(point[key]), math.nan, math.nan
        lo, hi = np.percentile(d, [2.5, 97.5])
        return float(point[key]), float(lo), float(hi)

    diff = draws["mean_0"] - draws["mean_1"]
    diff = diff[~np.isnan(diff)]
    d_lo, d_hi = np.percentile(diff, [2.5, 97.5]) if diff.size else (math.nan, math.nan)
    deals = int(sums[:, 0].sum())
    return {
        "bots": list(bots), "games": G, "seats": S, "deals": deals, "dropped": G * S - deals,
        "bootstrap": bootstrap,
        "components": {c: interval(c) for c in COMPONENTS},
        "shares": {c: interval(f"{c}_share") for c in COMPONENTS},
        "means": {b: interval(f"mean_{k}") for k, b in enumerate(bots)},
        "difference": (float(point["mean_0"] - point["mean_1"]), float(d_lo), float(d_hi)),
    }


def share_table(result: dict) -> pl.DataFrame:
    """One row per component: variance, share of the outcome variance, 95% intervals."""
    rows = []
    for c in COMPONENTS:
        v, vlo, vhi = result["components"][c]
        s, slo, shi = result["shares"][c]
        rows.append({"component": c, "reads": TEXT[c], "variance": v, "var_low": vlo, "var_high": vhi,
                     "share": s, "ci_low": slo, "ci_high": shi})
    return pl.DataFrame(rows)


def outcome_text(outcome: str = "win", score_label: str = "", lower_is_better: bool = False) -> str:
    """What y is, in words: "win share", or "score margin (MP)" with the direction when lower is better."""
    if outcome != "score":
        return "win share"
    score = score_label or "score"
    return (f"score margin: its {score} minus the other seats' mean"
            + (f", negated as less {score} is better" if lower_is_better else ""))


def words(result: dict, field: str, outcome: str = "win share") -> str:
    """The decomposition in one plain sentence, naming the bots and the outcome it depends on."""
    a, b = result["bots"][:2]
    s = result["shares"]

    def pct(t):
        return f"{100 * t[0]:.0f}% [{100 * t[1]:.0f}, {100 * t[2]:.0f}]"
    luck = s["deal"][0] + s["rest"][0]
    return (f"switching one seat from {b} to {a} (the other seats {field}) explains {pct(s['bot'])} of the "
            f"variance of the seat's {outcome} (skill); the deal {pct(s['deal'])} (luck); the deal x bot "
            f"interaction {pct(s['rest'])} (luck that depends on who plays). Skill {100 * s['bot'][0]:.0f}%, "
            f"luck {100 * luck:.0f}% (for these bots)")


def text(result: dict, manifest: dict) -> str:
    """The `balancelab luck` printout."""
    m, r = manifest, result
    a, b = r["bots"][:2]
    d, dlo, dhi = r["difference"]
    y = outcome_text(m.get("outcome", "win"), m.get("score_label", ""), m.get("score_lower_is_better", False))
    short = "win share" if m.get("outcome", "win") != "score" else "score margin"
    fmt = ".3f" if short == "win share" else ".2f"
    lines = [f"{m['ruleset']}/{m['variant']} (hash {m['ruleset_hash']})  players {m['players']}  seed {m['seed']}",
             f"bots compared at a seat: {', '.join(r['bots'])}; every other seat: {m['field']}",
             f"outcome: the seat's {y}",
             f"{r['games']:,} game indices x {r['seats']} seats = {r['deals']:,} deals, each played with every bot "
             f"({m['games_played']:,} games in {m['seconds']:.1f} s)"
             + (f"; {r['dropped']} deals dropped (nobody won)" if short == "win share" else ""),
             "",
             f"{'component':<10}{'share':>8}   95% interval   reads as"]
    for c in COMPONENTS:
        s, lo, hi = r["shares"][c]
        lines.append(f"{c:<10}{100 * s:>7.1f}%   [{100 * lo:5.1f}, {100 * hi:5.1f}]   {TEXT[c]}")
    digits = int(fmt[1])

    def n(v, sign=""):                  # never "-0.00": a mirror table's margins sum to exactly 0
        return f"{(round(v, digits) or 0.0):{sign}{fmt}}"
    lines += ["", f"mean {short} at the seat: " + ", ".join(
        f"{bot} {n(v)} [{n(lo)}, {n(hi)}]" for bot, (v, lo, hi) in r["means"].items())
        + f"; {a} - {b}: {n(d, '+')} [{n(dlo, '+')}, {n(dhi, '+')}]",
              "", f"Luck and skill: {words(r, m['field'], y)}.",
              "(two-way ANOVA, deal x bot, variance components; bootstrap over game indices; docs/metrics.md)"]
    return "\n".join(lines)


__all__ = ["decompose", "share_table", "words", "text", "outcome_text", "COMPONENTS", "TEXT"]
