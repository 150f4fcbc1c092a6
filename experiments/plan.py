"""`balancelab plan CONFIG.toml [--precision 0.5] [--pilot 1000]`: games and time each check needs.

From a short pilot (the first `pilot` game indices of every point, played and timed here),
for every check of the config:

- each base point's seat win rates: the games for a 95% interval of +- `precision` pp;
- each knockout/removal (the holders' paired effect against its base point): the games for
  that precision, the games a fixed-count test needs for the sequential test's error rates
  (reports.measures.sequential defaults), and the games `sweep --until-decided` is expected to take,
  simulated at the pilot's effect and variance;

and the time each takes at the pilot's measured speed (games per second of one worker,
as measured by the pilot). Nothing is written.
"""
from __future__ import annotations

import math
import time
from statistics import NormalDist

import numpy as np
import polars as pl

from reports.measures import sequential as S
from reports.measures.impact import _holder_sums
from simcore.errors import UserError

from .config import load_config
from .grid import expand
from .sweep import play_chunk


def _needed(var: float, precision_pp: float, z: float = NormalDist().inv_cdf(0.975)) -> int:
    return math.ceil(var * (z / (precision_pp / 100)) ** 2) if var == var else 0


def _expected_games(effect: float, var: float, design: S.Design, reps: int = 200) -> float:
    """Games until decided, simulated on differences in {-1, 0, 1} with the pilot's mean and variance."""
    e = float(np.clip(effect, -0.5, 0.5))
    changed = float(np.clip(var + e * e, abs(e), 1.0))
    return S.simulate(e, design, reps=reps, changed=changed)["mean_games"]


def plan(config, precision: float = 0.5, pilot: int = 1000, design: S.Design = S.Design()) -> dict:
    """The pilot's measurements and every check's games and time (see the module docstring)."""
    if not precision > 0:
        raise UserError(f"must be a positive number of percentage points, got {precision}", key="--precision")
    if isinstance(pilot, bool) or not isinstance(pilot, int) or pilot < 100:
        raise UserError(f"must be at least 100 games, got {pilot!r}", key="--pilot")
    cfg = load_config(config)
    points = expand(cfg)
    design = S.Design(**{**design.__dict__, "cap": cfg.games})
    frames, seconds = {}, 0.0
    for p in points:
        t0 = time.perf_counter()
        frames[p.index] = play_chunk(p.spec, 0, min(pilot, cfg.games), p.track)[0]
        seconds += time.perf_counter() - t0
    played = sum(f.height for f in frames.values())
    speed = played / seconds if seconds > 0 else math.inf
    rows = []
    for p in points:
        g = frames[p.index]
        if p.ablated is None:
            shares = np.stack([g[f"s{s}_share"].cast(pl.Float64).to_numpy() for s in range(p.spec.players)], axis=1)
            var = float(np.nanmax(np.nanvar(shares, axis=0, ddof=1)))
            need = _needed(var, precision)
            rows.append({"point": p.index, "check": "seat win rates", "effect": math.nan, "var": var,
                         "precision_games": need, "fixed_games": None, "expected_games": None,
                         "seconds": need / speed})
            continue
        sums = _holder_sums(frames[p.base], g, p.tracked.get(p.ablated, []), None)
        t = S.Tally().add(*sums) if sums is not None else S.Tally()
        var = max(t.var, design.var_floor()) if t.n > 1 else math.nan
        fixed = math.ceil(S.fixed_games(var, design)) if var == var else None
        expected = _expected_games(t.mean, var, design) if var == var and t.mean == t.mean else None
        need = _needed(var, precision)
        rows.append({"point": p.index, "check": f"{p.ablation_kind or 'removal'} of {p.ablated}", "effect": t.mean,
                     "var": var, "precision_games": need, "fixed_games": fixed, "expected_games": expected,
                     # a knockout plays its own games; its base point's are counted with the base
                     "seconds": (expected if expected is not None else need) / speed})
    return {"config": cfg.name, "points": len(points), "pilot": pilot, "speed": speed, "precision": precision,
            "design": design.__dict__, "rows": rows, "config_games": cfg.games * len(points)}


def print_plan(doc: dict, w) -> None:
    """The plan as text."""
    d = doc["design"]
    w(f"{doc['config']}: pilot of {doc['pilot']:,} games at each of {doc['points']} points, "
      f"{doc['speed']:,.0f} games/s (one worker)\n")
    w(f"precision: games for a 95% interval of +-{doc['precision']:g} pp; fixed: games for a fixed-count test with "
      f"the sequential test's error rates (no effect <= {d['d0'] * 100:g} pp, effect >= {d['d1'] * 100:g} pp, "
      f"alpha {d['alpha']:g}, beta {d['beta']:g}); until decided: expected games with --until-decided "
      f"(cap {d['cap']:,})\n\n")
    w(f"{'point':>5}  {'check':<36}{'pilot pp':>9}{'precision':>11}{'fixed':>9}{'until decided':>15}{'time':>10}\n")

    def num(x):
        return "-" if x is None else f"{x:,.0f}"
    for r in doc["rows"]:
        eff = "" if r["effect"] != r["effect"] else f"{r['effect'] * 100:+.1f}"
        w(f"{r['point']:>5}  {r['check'][:35]:<36}{eff:>9}{num(r['precision_games']):>11}{num(r['fixed_games']):>9}"
          f"{num(r['expected_games']):>15}{r['seconds']:>9.0f}s\n")
    total = sum(min(r["expected_games"] or math.inf, doc["design"]["cap"]) for r in doc["rows"]
                if r["expected_games"] is not None)
    w(f"\nthe config as written: {doc['config_games']:,} games ({doc['config_games'] / doc['speed']:,.0f} s); "
      f"its knockouts until decided: about {total:,.0f} knockout games plus their base points' "
      f"({total / doc['speed']:,.0f} s and more)\n")
