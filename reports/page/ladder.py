"""The ladder in words, its figure and its HTML page (the tables: reports.measures.ladder)."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from . import plots
from .html import _environment, luck_text, write_text_atomic


def ladder_text(manifest: dict, ratings: pl.DataFrame, h2h: pl.DataFrame, skill: dict) -> str:
    m = manifest
    lines = [f"{m['ruleset']}/{m['variant']} (hash {m['ruleset_hash']})  players {m['players']}  seed {m['seed']}",
             f"{m['games_per_pair']:,} games per pair ({m['games_per_table']:,} per table x {m['tables_per_pair']} "
             f"seat rotations, the same game indices in each) in {m['seconds']:.1f} s",
             "",
             f"{'rank':<6}{'bot':<16}{'rating':>8}   95% interval      {'Elo':>6}",
             ]
    for r in ratings.iter_rows(named=True):
        lines.append(f"{r['rank']:<6}{r['bot']:<16}{r['rating']:>8.3f}   [{r['ci_low']:6.3f}, {r['ci_high']:6.3f}]"
                     f"  {r['elo']:>6.0f}")
    lines += ["", f"{'alone':<14}{'against':<14}{'games':>7}{'win rate':>10}   95% interval    x fair  model"]
    for r in h2h.iter_rows(named=True):
        lines.append(f"{r['lone']:<14}{r['field']:<14}{r['games']:>7}{r['win_rate']:>10.3f}   "
                     f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]  {r['ratio']:>5.2f}   {r['predicted']:.3f}"
                     f"{'' if r['fits'] else ' (outside)'}")
    misfit = h2h.filter(~pl.col("fits")).height
    if misfit:
        lines.append(f"warning: {misfit} of {h2h.height} head-to-head win rates lie outside their interval of "
                     f"the ratings' prediction (model): one rating per bot does not tell the whole story here")
    lines += ["", f"How much skill matters: {skill['words']}.",
              f"(ratings: Bradley-Terry log-strengths, mean 0; a seat of rating r beats a seat of rating s with "
              f"probability 1/(1+e^(s-r)); fair share = 1/{m['players']})"]
    return "\n".join(lines)


@plots.chart
def ratings_chart(ratings: pl.DataFrame, title: str = "") -> plots.Figure:
    r = ratings.sort("rating")
    fig, (ax,) = plots._figure(6.5, 0.6 + 0.45 * r.height)
    y = np.arange(r.height)
    rating, lo, hi = (r[c].to_numpy() for c in ("rating", "ci_low", "ci_high"))
    ax.errorbar(rating, y, xerr=[rating - lo, hi - rating], fmt="o", color=plots.BLUE, ecolor="black", capsize=4)
    ax.axvline(0, color=plots.GREY, ls="--", lw=1)
    ax.set_yticks(y, r["bot"].to_list())
    ax.set_xlabel("Bradley-Terry rating (log-strength, mean 0) with 95% interval")
    ax.set_title(title, fontsize=10)
    return fig


def write_outputs(out: Path, manifest: dict, ratings: pl.DataFrame, h2h: pl.DataFrame, skill: dict,
                  matches: pl.DataFrame, luck: dict | None = None) -> list[Path]:
    """ladder.csv/.parquet, headtohead.csv, matches.parquet, ladder.json and ladder.html in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    paths = [out / "ladder.csv", out / "ladder.parquet", out / "headtohead.csv", out / "matches.parquet",
             out / "ladder.json", out / "ladder.html"]
    ratings.write_csv(paths[0])
    ratings.write_parquet(paths[1])
    h2h.write_csv(paths[2])
    matches.write_parquet(paths[3])
    doc = dict(manifest, ratings=ratings.to_dicts(), head_to_head=h2h.to_dicts(), skill=skill,
               **({"luck": luck} if luck is not None else {}))
    write_text_atomic(paths[4], json.dumps(doc, indent=2, default=str))
    html = _environment().get_template("ladder.html.j2").render(
        m=manifest, ratings=ratings.to_dicts(), h2h=h2h.to_dicts(), skill=skill,
        lucks=[luck] if luck is not None else [], luck_text=luck_text(),
        figure=ratings_chart(ratings, f"{manifest['ruleset']}: skill ladder, {manifest['players']} players"))
    write_text_atomic(paths[5], html)
    return paths
