"""The report's "Targets" section: every base point against the config's `[target]`, ranked
(the ranking: reports.measures.targets.rank_points).

A sweep config's `[target]` names metrics of reports.measures.targets (the ones `tune` takes: balance
gaps, seat advantage, game length, entity impact, and the game-flow metrics of reports.measures.flow)
with a [low, high] range or an upper bound. Per base point: each metric's estimate with its
95% interval, marked met (whole interval inside), missed (whole interval outside) or unsure;
points ranked by shortfall (how far the estimates lie outside; 0 = all inside), then by the
number of targets met.
"""
from __future__ import annotations

import polars as pl


from ..measures.targets import FLOW_TARGETS, PTS, TARGETS, rank_points

NO_TRAJECTORIES = ("not measured: this run recorded no trajectories (a flow target turns them on; "
                   "re-run the sweep with this config)")


def bound_text(name: str, bound) -> str:
    if isinstance(bound, (tuple, list)):
        return f"{bound[0]:g} to {bound[1]:g}"
    return f"within +-{bound:g}" if name == "entity_impact" else f"at most {bound:g}"


def build(games: pl.DataFrame, tallies: pl.DataFrame, base_ids: list[int], labels: dict,
          target: dict | None) -> dict | None:
    """The section's context, or None for a config without `[target]`."""
    if not target:
        return None
    target = {k: tuple(v) if isinstance(v, list) else v for k, v in target.items()}
    ranked = rank_points(games, tallies, base_ids, labels, target)
    metrics = [{"name": k, "bound": bound_text(k, v), "text": TARGETS.get(k, k),
                "scale": "points" if k in ("faction_gap", "seat_gap", "entity_impact", "first_seat",
                                           "comeback", "late_swap") else ""} for k, v in target.items()]
    rows = ranked.to_dicts() if ranked.height else []
    notes = []
    if any(r.get(f"{t}_mark") == "not measured" for r in rows for t in target if t in FLOW_TARGETS):
        notes.append(NO_TRAJECTORIES)
    every = [r for r in rows if r["all_met"]]
    if every:
        summary = (f"{len(every)} of {len(rows)} points meet every target with the whole 95% interval inside; "
                   f"best: {every[0]['label']}")
    elif rows:
        summary = (f"no point meets every target with the whole 95% interval inside; closest: {rows[0]['label']} "
                   f"(shortfall {rows[0]['shortfall']:.3g})")
    else:
        summary = "no games yet"
    return {"metrics": metrics, "rows": rows, "notes": notes, "summary": summary, "pts": PTS}


__all__ = ["build", "bound_text"]
