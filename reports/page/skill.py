"""Balance across skill on the page and in the terminal: the skill-curve table
(reports.measures.skill_curve) in words, its figure (effect against the bots' ladder ratings,
one panel per entity), and the report section built from a run folder's files
(skill_curve.csv and .json, written by `balancelab skill`)."""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import polars as pl

from ..measures import skill_curve as S
from . import plots

PANELS = 24               # at most this many entities in the figure: the flagged first, then the largest effects


def curve_text(manifest: dict, curve: pl.DataFrame, flags: pl.DataFrame) -> str:
    """The terminal's table and the flagged lines."""
    m = manifest
    order = sorted(m["ratings"], key=lambda b: m["ratings"][b][0])
    lines = [f"{m['ruleset']}/{m['variant']} (hash {m['ruleset_hash']})  players {m['players']}  seed {m['seed']}",
             f"{m['games']:,} games per bot and arm (every seat the same bot; each knockout on the same game indices "
             f"as its base); ratings from the {m['ratings_from']}",
             "bots, weakest first: " + ", ".join(f"{b} {m['ratings'][b][0]:.2f} [{m['ratings'][b][1]:.2f}, "
                                                 f"{m['ratings'][b][2]:.2f}]" for b in order),
             "",
             f"{'':<22}" + "".join(f"{b[:22]:>24}" for b in order),
             f"{'effect, pp (interval)':<22}" + "".join(f"{'':>24}" for _ in order)]
    unheld = []
    for (kind, entity), grp in curve.group_by(["kind", "entity"], maintain_order=True):
        if grp["effect"].is_null().all():
            unheld.append(entity)
            continue
        cells = {r["bot"]: r for r in grp.iter_rows(named=True)}
        row = f"{entity[:21]:<22}"
        for b in order:
            row += pp_cell(cells.get(b), "no holder").rjust(24)
        lines.append(row)
    if unheld:
        lines.append(f"no holder with any bot ({len(unheld)}: no seat acquired it, so its knockout measures "
                     f"nothing): {', '.join(unheld)}")
    lines += ["", f"Sign changes across skill ({flags.height}; called only where both bots' intervals exclude 0):"]
    lines += [f"  {t}" for t in flags["text"].to_list()] or ["  none"]
    lines.append("(effect: the holders' win share in the base games minus in the same games with the effect off; "
                 "a faction: its win rate minus its fair share; intervals corrected for the number of entities, "
                 "or of factions)")
    return "\n".join(lines)


def _panels(curve: pl.DataFrame, flags: pl.DataFrame) -> list[tuple[str, str]]:
    flagged = list(zip(flags["kind"].to_list(), flags["entity"].to_list()))
    size = (curve.group_by(["kind", "entity"]).agg(pl.col("effect").abs().max().fill_null(0.0).alias("size"))
            .sort(["size", "entity"], descending=[True, False]))
    rest = [(k, e) for k, e in size.select("kind", "entity").iter_rows() if (k, e) not in flagged]
    return (flagged + rest)[:PANELS]


def chart(curve: pl.DataFrame, flags: pl.DataFrame, title: str) -> str:
    """Small multiples: per entity, its effect (pp) with its interval against the bots' ratings."""
    panels = _panels(curve, flags)
    trend = {(k, e): t for k, e, t in flags.select("kind", "entity", "trend").iter_rows()}
    cols = min(4, max(1, len(panels)))
    nrows = max(1, math.ceil(len(panels) / cols))
    fig, _ = plots._figure(2.6 * cols, 0.8 + 2.0 * nrows)
    fig.clear()
    axes = fig.subplots(nrows, cols, squeeze=False)
    ratings = curve["rating"].to_numpy()
    pad = 0.08 * max(float(np.ptp(ratings)) if ratings.size else 0.0, 1.0)
    # the right margin leaves room for the bots' names beside the last points
    xlim = (float(ratings.min()) - pad, float(ratings.max()) + 3.5 * pad) if ratings.size else (-1.0, 1.0)
    for ax, (kind, entity) in zip(axes.ravel(), panels):
        r = curve.filter((pl.col("kind") == kind) & (pl.col("entity") == entity)).sort("rating")
        r = r.filter(pl.col("effect").is_not_null())
        x, y = r["rating"].to_numpy(), r["effect"].to_numpy() * 100
        lo, hi = r["ci_low"].to_numpy() * 100, r["ci_high"].to_numpy() * 100
        colour = {S.TRAP: plots.RED, S.EXPERT: plots.GREEN}.get(trend.get((kind, entity)), plots.BLUE)
        ax.axhline(0, color=plots.GREY, lw=0.8, ls="--")
        ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt="o-", color=colour, ecolor="black", capsize=3, lw=1, ms=4)
        for xi, yi, b in zip(x, y, r["bot"].to_list()):
            ax.annotate(b, (xi, yi), textcoords="offset points", xytext=(3, 3), fontsize=7)
        flag = {S.TRAP: " (trap)", S.EXPERT: " (expert's)", S.BOTH: " (sign changes twice)"}.get(
            trend.get((kind, entity)), "")
        ax.set_title(f"{entity}{flag}", fontsize=9, color=colour if flag else "black")
        ax.tick_params(labelsize=7)
        ax.set_xlim(*xlim)
    for ax in axes.ravel()[len(panels):]:
        ax.set_visible(False)
    for col in range(cols):                 # the lowest panel of each column names the x axis
        last = max(r for r in range(nrows) if r * cols + col < len(panels)) if col < len(panels) else None
        if last is not None:
            axes[last, col].set_xlabel("ladder rating", fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("effect, pp", fontsize=8)
    fig.suptitle(title, fontsize=11)
    return plots.to_data_uri(fig)


def title_of(manifest: dict) -> str:
    return (f"{manifest['ruleset']}: effect across skill, {manifest['players']} players, "
            f"{manifest['games']:,} games per bot and arm")


def read(folder: Path) -> tuple[dict, pl.DataFrame] | None:
    """The manifest and table of a folder's skill curve, or None when it holds none."""
    csv, js = folder / "skill_curve.csv", folder / "skill_curve.json"
    if not (csv.is_file() and js.is_file()):
        return None
    return json.loads(js.read_text()), S.table(pl.read_csv(csv, schema_overrides=S.COLUMNS).to_dicts())


def section(manifest: dict, curve: pl.DataFrame) -> dict:
    """The report's "Balance across skill" section: the flagged lines, the figure and the table."""
    flags = S.sign_changes(curve)
    order = sorted(manifest["ratings"], key=lambda b: manifest["ratings"][b][0])
    rows = []
    for (kind, entity), grp in curve.group_by(["kind", "entity"], maintain_order=True):
        cells = {r["bot"]: r for r in grp.iter_rows(named=True)}
        rows.append({"kind": kind, "entity": entity, "cells": [cells.get(b) for b in order]})
    return {"m": manifest, "bots": order, "rows": rows, "flags": flags["text"].to_list(),
            "figure": chart(curve, flags, title_of(manifest)), "cell": pp_cell}


def annotate_verdict(verdict: dict, curve: pl.DataFrame) -> None:
    """Add to each verdict line whether the bots rated above the line's bot agree (`skill`)."""
    for p in verdict["problems"]:
        p["skill"] = S.agreement(curve, p["name"], p["bot"], p["direction"]) if p.get("bot") else None


def pp_cell(r: dict | None, missing: str = "n/a") -> str:
    """One table cell: the effect and its interval in pp (`missing` without an estimate)."""
    if r is None or r["effect"] is None or (isinstance(r["effect"], float) and np.isnan(r["effect"])):
        return missing
    return f"{r['effect'] * 100:+.1f} ({r['ci_low'] * 100:+.1f}, {r['ci_high'] * 100:+.1f})"
