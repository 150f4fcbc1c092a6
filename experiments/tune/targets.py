"""Target metrics of one candidate's games, each an estimate with a 95% interval (reports.metrics).

Rates are in percentage points. A target is met when its whole interval is inside the
target (the proof's rule); the search ranks candidates by `shortfall`, how far the point
estimates are outside their targets (0 = every estimate inside).
"""
from __future__ import annotations

import math

import numpy as np
import polars as pl

from reports import metrics as M

from .config import FLOW_TARGETS

PTS = 100.0


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
        from reports import flow, flow_section
        if not flow_section.has_trajectories(games):
            raise ValueError("game-flow targets need rows recorded with trajectories")
        summary = {r["metric"]: r for r in flow.summary(*flow_section.arrays(games)).iter_rows(named=True)}
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
