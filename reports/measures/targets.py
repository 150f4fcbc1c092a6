"""Target metrics of one point's games, each an estimate with a 95% interval, and how a
point stands against its targets: what `tune` searches for and what a sweep config's
`[target]` marks and ranks points by (rank_points, and the report's page: reports/page/targets.py).

Rates are in percentage points. A target is a [low, high] range or an upper bound. It is
met when its whole 95% interval is inside (the proof's rule), missed when the whole
interval is outside, and unsure otherwise; points rank by `shortfall`, how far the point
estimates are outside their targets (0 = every estimate inside).
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from . import flow
from . import metrics as M
from .sequential import ALPHA, T_OPT, confidence_sequence, gap_sequence

# target name -> what it bounds (error messages, the config docs and the report's legend)
TARGETS = {
    "faction_gap": "largest faction win-rate gap (points)",
    "seat_gap": "largest seat win-rate gap (points)",
    "entity_impact": "largest entity impact, |win rate with - without| (points)",
    "rounds": "mean game length (rounds)",
    "first_seat": "first-seat advantage, win rate - fair share (points)",
    # game flow (docs/metrics.md), from trajectories: a [low, high] range or an upper bound
    "lead_changes": "mean lead changes per game",
    "decisiveness": "mean share of the game played when the winner took the lead for good (0 to 1)",
    "drama": "mean of how far behind the winner was at its worst (standing)",
    "comeback": "share of games won by a seat that was last at the halfway round (points)",
    "late_swap": "share of games whose last round changed the leader (points)",
}
FLOW_TARGETS = ("lead_changes", "decisiveness", "drama", "comeback", "late_swap")

PTS = 100.0
# the targets with an anytime-valid interval (`measure_anytime`); the others keep a fixed count
SEQUENTIAL = ("faction_gap", "seat_gap", "first_seat", "rounds")


def _gap(rows: pl.DataFrame) -> tuple[float, float, float]:
    """Best minus worst win rate (points) with Newcombe's interval."""
    rows = rows.filter(pl.col("games") > 0).sort("win_rate")
    if rows.height < 2:
        return (math.nan,) * 3
    best, worst = rows.row(rows.height - 1, named=True), rows.row(0, named=True)
    d, lo, hi = M.diff_interval(best["wins"], best["games"], worst["wins"], worst["games"])
    return float(d) * PTS, float(lo) * PTS, float(hi) * PTS


def measure(games: pl.DataFrame, tallies: pl.DataFrame | None, targets: dict) -> dict:
    """{target name: (estimate, low, high)} for the targets asked for."""
    out = {}
    if "faction_gap" in targets:
        out["faction_gap"] = _gap(M.faction_win_rates(games))
    if "seat_gap" in targets:
        out["seat_gap"] = _gap(M.seat_win_rates(games))
    if "first_seat" in targets:
        s0 = M.seat_win_rates(games).filter(pl.col("seat") == 0).row(0, named=True)
        out["first_seat"] = tuple(float(s0[k] - s0["fair"]) * PTS for k in ("win_rate", "ci_low", "ci_high"))
    if "rounds" in targets:
        g = M.game_length(games).row(0, named=True)
        out["rounds"] = (g["mean_rounds"], g["ci_low"], g["ci_high"])
    flow_asked = [t for t in targets if t in FLOW_TARGETS]
    if flow_asked:
        if not flow.has_trajectories(games):
            raise ValueError("game-flow targets need rows recorded with trajectories")
        summary = {r["metric"]: r for r in flow.summary(*flow.arrays(games)).iter_rows(named=True)}
        for t in flow_asked:
            r = summary[t]
            scale = PTS if r["kind"] == "rate" else 1.0     # shares in points, like every rate here
            out[t] = (r["value"] * scale, r["lo"] * scale, r["hi"] * scale)
    if "entity_impact" in targets:
        imp = M.entity_impact(tallies, games) if tallies is not None and tallies.height else pl.DataFrame()
        if imp.height == 0:
            out["entity_impact"] = (0.0, 0.0, 0.0)
        else:
            eff = imp["effect"].to_numpy()
            worst = float(np.nanmax(np.abs(eff))) * PTS
            lo, hi = imp["ci_low"].to_numpy(), imp["ci_high"].to_numpy()
            reach = float(np.nanmax(np.maximum(hi, -lo))) * PTS           # farthest interval end from 0
            sure = float(np.nanmax(np.maximum(np.maximum(lo, -hi), 0))) * PTS   # surest distance from 0
            out["entity_impact"] = (worst, sure, reach)
    return out


def _gap_anytime(rows: pl.DataFrame, alpha: float, t_opt: float) -> tuple[float, float, float]:
    """Best minus worst win rate (points) with its confidence sequence (each group's at alpha / k)."""
    rows = rows.filter(pl.col("games") > 0)
    if rows.height < 2:
        return (math.nan,) * 3
    gap, lo, hi = gap_sequence(rows["games"].to_numpy(), rows["win_rate"].to_numpy(), alpha, t_opt)
    return float(gap) * PTS, float(lo) * PTS, float(hi) * PTS


def measure_anytime(games: pl.DataFrame, targets: dict, alpha: float = ALPHA, t_opt: float = T_OPT) -> dict:
    """{target name: (estimate, low, high)} with 1 - alpha confidence sequences (valid after any
    stopping rule: reports.measures.sequential), for the targets in SEQUENTIAL asked for.

    first_seat: seat 0's win-rate sequence (variance p (1 - p)) minus the fair share; faction_gap,
    seat_gap: `gap_sequence` over the factions or seats; rounds: the mean's sequence with the
    sample variance."""
    out = {}
    if "faction_gap" in targets:
        out["faction_gap"] = _gap_anytime(M.faction_win_rates(games), alpha, t_opt)
    if "seat_gap" in targets:
        out["seat_gap"] = _gap_anytime(M.seat_win_rates(games), alpha, t_opt)
    if "first_seat" in targets:
        s0 = M.seat_win_rates(games).filter(pl.col("seat") == 0).row(0, named=True)
        p = s0["win_rate"]
        lo, hi = confidence_sequence(s0["games"], p, p * (1 - p), alpha, t_opt)
        out["first_seat"] = tuple(float(x - s0["fair"]) * PTS for x in (p, max(float(lo), 0.0), min(float(hi), 1.0)))
    if "rounds" in targets:
        r = games["rounds"].to_numpy().astype(float)
        mean = float(r.mean())
        lo, hi = confidence_sequence(r.size, mean, r.var(ddof=1), alpha, t_opt)
        out["rounds"] = (mean, float(lo), float(hi))
    return out


def outside(name: str, target, value: float) -> float:
    """How far a value lies outside a target (0 inside)."""
    if isinstance(target, tuple):
        return max(0.0, target[0] - value, value - target[1])
    return max(0.0, value - target)


def shortfall(values: dict, targets: dict) -> float:
    """Sum over targets of how far each estimate is outside (points, or rounds)."""
    total = 0.0
    for name, t in targets.items():
        est = values[name][0]
        total += math.inf if math.isnan(est) else outside(name, t, est)
    return total


def mark(values: dict, targets: dict) -> dict:
    """{target: "met" (whole interval inside), "missed" (whole interval outside), "unsure" or
    "not measured" (no estimate)}."""
    ok = met(values, targets)
    out = {}
    for name, t in targets.items():
        est, lo, hi = values[name]
        if math.isnan(est):
            out[name] = "not measured"
        elif ok[name]:
            out[name] = "met"
        elif (isinstance(t, tuple) and (lo > t[1] or hi < t[0])) or (not isinstance(t, tuple) and lo > t):
            out[name] = "missed"
        else:
            out[name] = "unsure"
    return out


def met(values: dict, targets: dict) -> dict:
    """{target: True when its whole 95% interval is inside the target}."""
    out = {}
    for name, t in targets.items():
        est, lo, hi = values[name]
        if any(math.isnan(x) for x in (est, lo, hi)):
            out[name] = False
        elif isinstance(t, tuple):
            out[name] = t[0] <= lo and hi <= t[1]
        elif name == "entity_impact":
            out[name] = hi <= t          # every entity's interval inside +-t
        else:
            out[name] = hi <= t
    return out


def measure_point(games: pl.DataFrame, tallies: pl.DataFrame | None, target: dict) -> dict:
    """{metric: (estimate, low, high)}; flow metrics nan when the rows have no trajectories."""
    asked = [t for t in target if t in FLOW_TARGETS]
    if asked and not flow.has_trajectories(games):
        values = measure(games, tallies, {k: v for k, v in target.items() if k not in FLOW_TARGETS})
        return {**values, **{t: (math.nan,) * 3 for t in asked}}
    return measure(games, tallies, target)


def rank_points(games: pl.DataFrame, tallies: pl.DataFrame, base_ids: list[int], labels: dict,
                target: dict) -> pl.DataFrame:
    """One row per base point: rank, shortfall, met count, and per metric value/low/high/mark."""
    rows = []
    for point in base_ids:
        g = games.filter(pl.col("point") == point)
        if g.height == 0:
            continue
        t = tallies.filter(pl.col("point") == point) if tallies is not None and tallies.height else None
        values = measure_point(g, t, target)
        marks = mark(values, target)
        row = {"point": point, "label": labels.get(point, str(point)), "games": g.height,
               "shortfall": shortfall(values, target), "met": sum(m == "met" for m in marks.values()),
               "all_met": all(m == "met" for m in marks.values())}
        for name in target:
            est, lo, hi = values[name]
            row.update({name: est, f"{name}_low": lo, f"{name}_high": hi, f"{name}_mark": marks[name]})
        rows.append(row)
    if not rows:
        return pl.DataFrame()
    df = pl.DataFrame(rows, infer_schema_length=None).sort(["shortfall", "met", "point"],
                                                          descending=[False, True, False])
    return df.with_columns(rank=pl.int_range(1, df.height + 1))
