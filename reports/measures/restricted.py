"""Restricted play: how an agent that favours or avoids one entity does against
the standard field, paired with the plain agent in the same seats and games.

    restricted_play(games, points) -> one row per (setting, bot, entity, modifier)

`points`: the manifest's points (each with `labels` and `bots`, one spec per seat);
`games`: their rows (`point`, `game`, `s{i}_share`). A restricted point has one seat
playing `BOT+favor:E` or `BOT+avoid:E` and BOT in every other seat; its reference is the
point with the same other labels where every seat plays BOT (experiments/restricted.py).
Each seat-game of the modified agent is paired with the plain agent at the same seat of
the same game index (common random numbers). Win = the seat's share of the win (a shared
win split). Pooled over seats, the games are the independent units: per game index the
seats' results are averaged first, and the 95% intervals are normal intervals over those
per-game means (a cluster bootstrap's percentile interval agrees at these sizes). In a run
played until decided (anytime=True) they are 95% confidence sequences instead, valid at the stop
the sequential test chose (reports.measures.sequential).

Flags: favor `dominant` when the favouring agent's win-rate interval lies above the fair
share 1/P and its paired difference interval above 0 (favouring the entity alone beats the
field); `helps` / `hurts` when only the difference interval excludes 0. avoid `trap` when
avoiding the entity wins more (difference interval above 0), `needed` when it wins less.
"""
from __future__ import annotations

import math

import polars as pl

from .sequential import confidence_sequence

Z = 1.959963984540054
MODIFIERS = ("favor", "avoid")


def parse_seat(spec: str):
    """(base, modifier, entity) of `base+favor:E` / `base+avoid:E`; None for a plain spec."""
    base, plus, mod = str(spec).rpartition("+")
    if not plus:
        return None
    kind, colon, entity = mod.partition(":")
    if kind not in MODIFIERS or not colon:
        return None
    return base, kind, entity


def restricted_design(points: list[dict]) -> tuple[list[dict], dict]:
    """The restricted points (point, seat, base, modifier, entity, setting, players) and each
    setting's reference point (key: setting, base)."""
    refs, mods = {}, []
    for p in points:
        if p.get("ablated") is not None:
            continue
        bots = list(p.get("bots") or str(p["labels"].get("bots", "")).split(","))
        labels = {k: v for k, v in p["labels"].items() if k != "bots"}
        setting = ", ".join(f"{k} = {v}" for k, v in labels.items())
        parsed = [parse_seat(b) for b in bots]
        hit = [i for i, x in enumerate(parsed) if x is not None]
        if not hit and len(set(bots)) == 1:
            refs[(setting, bots[0])] = p["index"]
        elif len(hit) == 1:
            base, mod, entity = parsed[hit[0]]
            if all(b == base for i, b in enumerate(bots) if i != hit[0]):
                mods.append({"point": p["index"], "seat": hit[0], "base": base, "modifier": mod,
                             "entity": entity, "setting": setting, "players": len(bots)})
    return mods, refs


def _interval(mean: float, sd: float, n: int, anytime: bool = False) -> tuple[float, float]:
    if n < 2 or sd is None or math.isnan(sd):
        return float("nan"), float("nan")
    if anytime:
        lo, hi = confidence_sequence(n, mean, sd * sd)
        return float(lo), float(hi)
    half = Z * sd / math.sqrt(n)
    return mean - half, mean + half


def restricted_play(games, points: list[dict], anytime: bool = False) -> pl.DataFrame:
    """Per (setting, bot, entity, modifier): win rate, paired difference to the plain agent;
    anytime=True: confidence sequences instead of fixed-count intervals."""
    mods, refs = restricted_design(points)
    mods = [m for m in mods if (m["setting"], m["base"]) in refs]
    if not mods:
        return pl.DataFrame()
    lazy = games.lazy()
    parts = []
    for m in mods:
        ref = refs[(m["setting"], m["base"])]
        share = f"s{m['seat']}_share"
        mine = lazy.filter(pl.col("point") == m["point"]).select("game", pl.col(share).cast(pl.Float64).alias("x"))
        plain = lazy.filter(pl.col("point") == ref).select("game", pl.col(share).cast(pl.Float64).alias("y"))
        parts.append(mine.join(plain, on="game", how="inner").with_columns(
            setting=pl.lit(m["setting"]), bot=pl.lit(m["base"]), entity=pl.lit(m["entity"]),
            modifier=pl.lit(m["modifier"]), players=pl.lit(m["players"]), seat=pl.lit(m["seat"])))
    keys = ["setting", "bot", "entity", "modifier", "players"]
    per_game = (pl.concat(parts).group_by(keys + ["game"])
                .agg(pl.col("x").mean(), pl.col("y").mean(), (pl.col("x") - pl.col("y")).mean().alias("d"),
                     pl.len().alias("n_seats"), pl.col("seat").n_unique().alias("seat_set")))
    agg = (per_game.group_by(keys).agg(
        pl.len().alias("games"), pl.col("n_seats").sum().alias("seat_games"), pl.col("seat_set").max().alias("seats"),
        pl.col("x").mean().alias("rate"), pl.col("x").std().alias("rate_sd"),
        pl.col("y").mean().alias("plain"), pl.col("d").mean().alias("diff"), pl.col("d").std().alias("diff_sd"))
        .collect())
    rows = []
    for r in agg.iter_rows(named=True):
        fair = 1.0 / r["players"]
        rlo, rhi = _interval(r["rate"], r["rate_sd"], r["games"], anytime)
        dlo, dhi = _interval(r["diff"], r["diff_sd"], r["games"], anytime)
        flag = ""
        if r["modifier"] == "favor":
            if rlo > fair and dlo > 0:
                flag = "dominant"
            elif dlo > 0:
                flag = "helps"
            elif dhi < 0:
                flag = "hurts"
        elif dlo > 0:
            flag = "trap"
        elif dhi < 0:
            flag = "needed"
        rows.append({**{k: r[k] for k in keys}, "games": r["games"], "seat_games": r["seat_games"],
                     "seats": r["seats"], "rate": r["rate"], "rate_lo": rlo, "rate_hi": rhi, "plain": r["plain"],
                     "diff": r["diff"], "diff_lo": dlo, "diff_hi": dhi, "fair": fair, "flag": flag})
    order = {m["entity"]: i for i, m in enumerate(mods)}
    return pl.DataFrame(rows).with_columns(
        pl.col("entity").replace_strict(order, return_dtype=pl.Int64).alias("order")).sort(
        ["setting", "bot", "order", "modifier"], descending=[False, False, False, True]).drop("order")


def table_rows(df: pl.DataFrame) -> list[dict]:
    """One row per (setting, bot, entity) with the favour and avoid results side by side."""
    out: dict = {}
    for r in df.iter_rows(named=True) if df.height else ():
        key = (r["setting"], r["bot"], r["entity"])
        row = out.setdefault(key, {"setting": r["setting"], "bot": r["bot"], "entity": r["entity"],
                                   "players": r["players"], "fair": r["fair"], "favor": None, "avoid": None})
        row[r["modifier"]] = r
    return list(out.values())


def _pct(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _pp(x) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.1f}"


def _cell(r) -> tuple[str, str]:
    if r is None:
        return "", ""
    return (f"{_pct(r['rate'])} [{_pct(r['rate_lo'])}, {_pct(r['rate_hi'])}]",
            f"{_pp(r['diff'])} [{_pp(r['diff_lo'])}, {_pp(r['diff_hi'])}]")


def markdown(df: pl.DataFrame, kind: str = "entity") -> str:
    """The restricted-play table as Markdown (docs/restricted-play.md)."""
    lines = []
    for (setting, bot), group in _groups(table_rows(df)).items():
        first = group[0]
        n = max((r[m]["games"] for r in group for m in MODIFIERS if r[m]), default=0)
        where = "" if setting == f"players = {first['players']}" else f" ({setting})"
        lines.append(f"Field: `{bot}` in every other seat, {first['players']} players{where}; fair share "
                     f"{_pct(first['fair'])}; {n:,} games per point, the modified seat rotated; difference to "
                     f"plain `{bot}` in the same seats and games, in percentage points.\n")
        lines.append(f"| {kind} | `{bot}+favor` wins [95%] | favor - plain [95%] | `{bot}+avoid` wins [95%] "
                     f"| avoid - plain [95%] | flag |")
        lines.append("|---|---|---|---|---|---|")
        for r in group:
            f, a = _cell(r["favor"]), _cell(r["avoid"])
            flags = ", ".join(f"{m} {r[m]['flag']}" for m in MODIFIERS if r[m] and r[m]["flag"])
            lines.append(f"| {r['entity']} | {f[0]} | {f[1]} | {a[0]} | {a[1]} | {flags} |")
        lines.append("")
    return "\n".join(lines)


def _groups(rows: list[dict]) -> dict:
    out: dict = {}
    for r in rows:
        out.setdefault((r["setting"], r["bot"]), []).append(r)
    return out


def context(df: pl.DataFrame) -> dict:
    """What the report's _restricted.html.j2 shows (from restricted_play's table): groups of rows,
    one per (setting, bot)."""
    groups = _groups(table_rows(df))
    return {"groups": [{"setting": s, "bot": b, "rows": rows,
                        "games": max((r[m]["games"] for r in rows for m in MODIFIERS if r[m]), default=0)}
                       for (s, b), rows in groups.items()]}
