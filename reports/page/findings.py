"""Plain-language findings from the metric frames: short sentences a designer can act on.

Each finding is a dict {"level": "warn" | "info" | "ok", "text": ...}; "warn" means an
interval excludes the fair or neutral value (something is probably off), "ok" means the
data show no clear problem, "info" is context (what the numbers rest on).
"""
from __future__ import annotations

import math
from typing import Sequence

import polars as pl


def pct(x: float, digits: int = 1) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x * 100:.{digits}f}%"


def pp(x: float, digits: int = 1) -> str:
    """Percentage points, signed; a value that rounds to zero is "0.0 pp", never "-0.0"."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    v = round(x * 100, digits)
    return f"{0.0:.{digits}f} pp" if v == 0 else f"{v:+.{digits}f} pp"


def ci(lo: float, hi: float, scale: float = 100, digits: int = 1, unit: str = "") -> str:
    if any(v is None or (isinstance(v, float) and math.isnan(v)) for v in (lo, hi)):
        return "95% CI n/a"
    return f"95% CI {lo * scale:.{digits}f} to {hi * scale:.{digits}f}{unit}"


def _finding(level: str, text: str) -> dict:
    return {"level": level, "text": text}


def headline_findings(head: pl.DataFrame, seats: pl.DataFrame, factions: pl.DataFrame, point: int,
                      where: str, faction_label: str, target: Sequence[int] | None) -> list[dict]:
    """Balance, seat advantage, length and stalls at one point."""
    out = []
    h = head.filter(pl.col("point") == point).row(0, named=True)
    fr = factions.filter(pl.col("point") == point).sort("win_rate", descending=True)
    if fr.height >= 2 and not math.isnan(h["balance"]):
        best, worst = fr.row(0, named=True), fr.row(fr.height - 1, named=True)
        level = "warn" if h["balance_high"] < 0.9 else "info"
        out.append(_finding(level, f"At {where}: balance {h['balance']:.2f} ({ci(h['balance_low'], h['balance_high'], 1, 2)}); "
                                   f"{best['faction']} wins most often "
                                   f"({pct(best['win_rate'])}), {worst['faction']} least ({pct(worst['win_rate'])})."))
        for r in fr.iter_rows(named=True):
            if r["ci_low"] > r["fair"] or r["ci_high"] < r["fair"]:
                word = "above" if r["win_rate"] > r["fair"] else "below"
                out.append(_finding("warn", f"{faction_label.capitalize()} {r['faction']}: wins {pct(r['win_rate'])} "
                                            f"({ci(r['ci_low'], r['ci_high'], unit='%')}), {word} the fair "
                                            f"{pct(r['fair'])}."))
    st = seats.filter(pl.col("point") == point).sort("seat")
    off = [r for r in st.iter_rows(named=True) if r["ci_low"] > r["fair"] or r["ci_high"] < r["fair"]]
    for r in off:
        out.append(_finding("warn", f"Seat {r['seat']} wins {pct(r['win_rate'])} ({ci(r['ci_low'], r['ci_high'], unit='%')}) "
                                    f"against a fair {pct(r['fair'])}: a seat {'advantage' if r['advantage'] > 0 else 'disadvantage'} "
                                    f"of {pp(r['advantage'])}."))
    if st.height and not off:
        out.append(_finding("ok", f"No seat's win rate differs clearly from the fair {pct(st['fair'][0])} "
                                  f"(seat 0: {pct(st['win_rate'][0])}, {ci(st['ci_low'][0], st['ci_high'][0], unit='%')})."))
    text = (f"Games last {h['mean_rounds']:.1f} rounds on average ({ci(h['ci_low'], h['ci_high'], 1, 1)}; "
            f"10-90% range {h['p10']:.0f}-{h['p90']:.0f})")
    if target is not None and "in_target" in h:
        text += f"; {pct(h['in_target'])} fall inside the target of {target[0]}-{target[1]} rounds"
    out.append(_finding("warn" if target is not None and h.get("in_target", 1) < 0.5 else "info", text + "."))
    if h["stall_rate"] > 0:
        out.append(_finding("warn" if h["stall_low"] > 0.01 else "info",
                            f"{pct(h['stall_rate'], 2)} of games stall (hit the round cap without a winner; "
                            f"{ci(h['stall_low'], h['stall_high'], digits=2, unit='%')})."))
    return out


def entity_findings(impact: pl.DataFrame, point: int, kind: str, limit: int = 5) -> list[dict]:
    """The entities whose corrected interval excludes zero, strongest evidence first."""
    df = impact.filter(pl.col("point") == point).sort("rank")
    if df.height == 0:
        return []
    k = int(df["family"][0])
    flagged = df.filter(pl.col("flagged"))
    if flagged.height == 0:
        return [_finding("ok", f"No {kind} clearly changes its buyer's win rate: all {k} intervals "
                               "(corrected for the number of comparisons) include zero.")]
    out = []
    for r in flagged.head(limit).iter_rows(named=True):
        word = "when acquired"
        out.append(_finding("warn", f"{kind.capitalize()} {r['entity']}: {pp(r['effect'])} win rate {word} "
                                    f"({pct(r['rate_with'])} vs {pct(r['rate_without'])}), "
                                    f"{ci(r['ci_low'], r['ci_high'], unit=' pp')} (corrected for {k} comparisons; "
                                    "an association: see the ablations for cause)."))
    if flagged.height > limit:
        out.append(_finding("info", f"{flagged.height - limit} more {kind}s have intervals excluding zero; see the table."))
    return out


def ablation_findings(ablation: pl.DataFrame, kind: str, describe) -> list[dict]:
    """One sentence per paired check (knockout or removal, same games): causal only where the pairing holds."""
    out = []
    if ablation.height == 0:
        return out
    k = int(ablation["family"][0])
    for r in ablation.sort("rank").iter_rows(named=True):
        where = describe(r["base"])
        what = r.get("kind") or "removal"
        mattered = "" if r.get("changed") is None else f"; it changed the outcome of {pct(r['changed'])} of the games"
        if r["holders"] == 0:
            out.append(_finding("info", f"{kind.capitalize()} {r['entity']} ({where}): nobody acquired it in the base "
                                        "games, so its effect on acquirers cannot be measured."))
            continue
        if "holds" in r and not r["holds"]:
            out.append(_finding("info", f"{kind.capitalize()} {r['entity']} ({where}, {what}): {pp(r['effect'])} "
                                        f"({ci(r['ci_low'], r['ci_high'], unit=' pp')}) is not a causal estimate: "
                                        f"{r['label']}."))
            continue
        if r["flagged"]:
            verb = "helps" if r["effect"] > 0 else "hurts"
            out.append(_finding("warn", f"{kind.capitalize()} {r['entity']} ({where}) {verb} whoever acquires it: "
                                        f"{pp(r['effect'])} win rate against the same games with it {_done(what)} "
                                        f"({ci(r['ci_low'], r['ci_high'], unit=' pp')}, corrected for {k} checks; "
                                        f"{r['holders']} acquisitions{mattered}; causal: the pairing holds)."))
        else:
            out.append(_finding("ok", f"{kind.capitalize()} {r['entity']} ({where}): no clear causal effect on its "
                                      f"acquirers ({pp(r['effect'])}, {ci(r['ci_low'], r['ci_high'], unit=' pp')}"
                                      f"{mattered})."))
    return out


def _done(what: str) -> str:
    return "knocked out" if what == "knockout" else "removed or replaced"


def bot_findings(by_bot: pl.DataFrame, kind: str) -> list[dict]:
    """Entities whose effect has opposite signs for two bots (both intervals excluding zero)."""
    if by_bot.height == 0:
        return []
    flips = by_bot.filter(pl.col("sign_differs") & pl.col("excludes_zero"))
    out = []
    for (entity, measure), grp in flips.group_by(["entity", "measure"], maintain_order=True):
        parts = ", ".join(f"{r['bot']} {pp(r['effect'])} ({ci(r['ci_low'], r['ci_high'], unit=' pp')})"
                          for r in grp.sort("bot").iter_rows(named=True))
        out.append(_finding("warn", f"{kind.capitalize()} {entity}: its effect depends on who plays it ({measure}: "
                                    f"{parts}). Both intervals exclude zero with opposite signs, so no single "
                                    "number describes the card; read it per bot."))
    if not out:
        out.append(_finding("ok", f"No {kind}'s effect has opposite signs between bots with both intervals excluding "
                                  "zero (see the per-bot table)."))
    return out


def defaults_findings(rulesets: dict) -> list[dict]:
    """Which values are our own defaults rather than rulebook facts."""
    out = []
    for h, rec in rulesets.items():
        names = rec.get("defaults_used", [])
        rows = {t: v["by_source"].get("default", 0) for t, v in rec.get("tables", {}).items()}
        total = {t: v["rows"] for t, v in rec.get("tables", {}).items()}
        parts = [f"{rows[t]} of {total[t]} {t} rows" for t in rows if rows[t]]
        if names or parts:
            out.append(_finding("info", f"Ruleset {rec['game']}/{rec['variant']} ({h}) rests on values that are our own "
                                        f"defaults, not rulebook facts: parameters {', '.join(names) or 'none'}; "
                                        f"{', '.join(parts) or 'no table rows'}. Plug in the real values when known."))
            break
    return out


# A change that alters fewer games than this, under the run's bots, never matters with them.
NEVER_MATTERS = 0.01


def difference_line(row: dict, best: str, reference: str) -> str:
    """The answer's comparison in words, from its row (reports.measures.answer.best_against_reference):
    the best setting's balance against the reference's, the difference with its 95% interval, paired
    over the same games when the pairing holds, else said to be unpaired."""
    how = (f"paired over the same {row['games']:,} games" if row["paired"] else
           "unpaired: the setting changes the shared games too much for their results to pair, so the two "
           "settings are compared as independent samples")
    verdict = ("a clear gain (the interval excludes zero)." if row["ci_low"] > 0 else
               "a clear loss (the interval excludes zero)." if row["ci_high"] < 0 else
               "not a clear difference (the interval includes zero).")
    return (f"Balance is highest at {best} ({row['value']:.2f}) against {row['against_value']:.2f} at the reference "
            f"{reference}: a difference of {row['difference']:+.2f} (95% CI {row['ci_low']:+.2f} to {row['ci_high']:+.2f}, "
            f"{how}): {verdict}")


def sweep_answer(head: pl.DataFrame, x: str | None, reference: int, labels: dict, touched: dict,
                 knocked: Sequence[dict], target: Sequence[int] | None, targets: dict | None,
                 difference: dict | None = None) -> dict | None:
    """The answer to the question the sweep's axis asks, for the top of the report.

    head: the headline rows along x (other settings as at the reference), with balance and rounds;
    touched: point -> share of its games whose outcome differs from the reference's; knocked: the
    knockout rows (entity, changed); difference: the best setting against the reference
    (reports.measures.answer.best_against_reference), None when the reference is the best.
    Returns {"question", "lines", "never", "difference"} or None without an axis and without
    knockouts."""
    lines, never = [], []
    if x is not None and x in head.columns and head.height >= 2:
        ref = head.filter(pl.col("point") == reference)
        r = ref.row(0, named=True) if ref.height else head.row(0, named=True)
        if targets is not None and targets.get("rows"):
            lines.append(f"Best setting for the targets: {targets['rows'][0]['label']} ({targets['summary']}).")
        best = head.sort("balance", descending=True, nulls_last=True).row(0, named=True)
        if difference is None and best["point"] == r["point"]:
            lines.append(f"Balance is highest at the reference {x} = {r[x]} ({r['balance']:.2f}, "
                         f"{ci(r['balance_low'], r['balance_high'], 1, 2)}).")
        elif difference is not None:
            best = head.filter(pl.col("point") == difference["point"]).row(0, named=True)
            lines.append(difference_line(difference, f"{x} = {best[x]}", f"{x} = {r[x]}"))
        for row in head.sort("point").iter_rows(named=True):
            parts = [f"balance {row['balance']:.2f} ({ci(row['balance_low'], row['balance_high'], 1, 2)})",
                     f"{row['mean_rounds']:.1f} rounds ({ci(row['ci_low'], row['ci_high'], 1, 1)})"]
            if target and "in_target" in row:
                parts.append(f"{pct(row['in_target'])} of games in {target[0]}-{target[1]} rounds")
            share = touched.get(row["point"])
            if share is not None:
                parts.append(f"changes {pct(share)} of the reference's games")
                if share < NEVER_MATTERS:
                    never.append(f"{x} = {row[x]} changes {pct(share)} of the games against {x} = {r[x]}: "
                                 "it never matters with these bots.")
            lines.append(f"{x} = {row[x]}{' (reference)' if row['point'] == r['point'] else ''}: "
                         + "; ".join(parts) + ".")
    quiet = [k["entity"] for k in knocked if k.get("changed") is not None and k["changed"] < NEVER_MATTERS]
    if quiet:
        never.append(f"{len(quiet)} knocked-out entities change under {pct(NEVER_MATTERS, 0)} of the games: "
                     f"they never matter with these bots ({', '.join(quiet)}).")
    if not lines and not never:
        return None
    return {"question": f"Which {x}?" if x else "What matters?", "lines": lines, "never": never,
            "difference": difference}
