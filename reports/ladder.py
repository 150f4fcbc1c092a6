"""The ladder's tables, its "how much skill matters" line, its figure and its HTML page.

Input: the ladder's `matches` frame (experiments.ladder: one row per game of one table,
a = the bot alone, b = the bot in every other seat, y = the lone seat's share of the
wins) and the ratings (reports.bradley_terry.fit_ratings). Imports nothing from simcore.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from . import plots
from .metrics import ratio_interval
from .stats import wilson

# Thresholds for the plain words: the best bot's wins against a field of the weakest,
# as a multiple of the fair share (1 = the best bot wins no more than its fair share).
LUCK_BELOW = 1.15
STRONG_FROM = 1.5


def head_to_head(matches: pl.DataFrame, players: int) -> pl.DataFrame:
    """Per (lone bot, field bot): the lone seat's win rate over every seat rotation.

    The interval is clustered by game index (the rotations of one index share its deal), and
    never narrower than the plain Wilson interval.
    """
    fair = 1.0 / players
    rows = []
    for (a, b), grp in matches.group_by(["a", "b"], maintain_order=True):
        per_game = grp.group_by("game").agg(pl.col("y").fill_null(0.0).sum().alias("wins"),
                                            pl.len().alias("tables"))
        rate, lo, hi = ratio_interval(per_game["wins"].to_numpy(), per_game["tables"].to_numpy())
        # Never narrower than the unclustered Wilson interval (which stays open at 0% and 100%).
        _, w_lo, w_hi = wilson(grp["y"].fill_null(0.0).sum(), grp.height)
        lo, hi = max(0.0, min(lo, float(w_lo))), min(1.0, max(hi, float(w_hi)))
        rows.append({"lone": a, "field": b, "games": grp.height, "no_winner": int(grp["y"].is_null().sum()),
                     "win_rate": rate, "ci_low": lo, "ci_high": hi, "fair": fair,
                     "ratio": rate / fair, "ratio_low": lo / fair, "ratio_high": hi / fair})
    return pl.DataFrame(rows, infer_schema_length=None)


def with_predictions(h2h: pl.DataFrame, ratings: pl.DataFrame, players: int) -> pl.DataFrame:
    """Add the Bradley-Terry prediction of each head-to-head rate and whether the data's interval holds it.

    A table the model misfits (e.g. a lone bot that wins more than its fair share against
    the field of the other, whichever sits alone) says the game rewards playing differently
    from the table: one rating per bot cannot say everything then.
    """
    theta = dict(zip(ratings["bot"].to_list(), ratings["rating"].to_list()))
    ea = np.exp(np.array([theta[a] for a in h2h["lone"].to_list()]))
    eb = np.exp(np.array([theta[b] for b in h2h["field"].to_list()]))
    pred = ea / (ea + (players - 1) * eb)
    return h2h.with_columns(predicted=pl.Series(pred),
                            fits=pl.Series((h2h["ci_low"].to_numpy() <= pred) & (pred <= h2h["ci_high"].to_numpy())))


def skill_matters(ratings: pl.DataFrame, h2h: pl.DataFrame) -> dict:
    """The best-rated bot alone against a field of the weakest-rated, in plain words."""
    best, weakest = ratings["bot"][0], ratings["bot"][-1]
    row = h2h.filter((pl.col("lone") == best) & (pl.col("field") == weakest)).to_dicts()[0]
    ratio, lo = row["ratio"], row["ratio_low"]
    if row["ratio_high"] < LUCK_BELOW:
        words = (f"a game of luck: {best} alone against {weakest} wins about as often as its fair share, "
                 f"so how well a seat plays hardly decides who wins")
    elif lo >= STRONG_FROM:
        words = (f"skill matters a lot: {best} alone against {weakest} wins {ratio:.2f}x its fair share "
                 f"(at least {lo:.2f}x)")
    elif lo > 1.0:
        words = (f"skill matters somewhat: {best} alone against {weakest} wins {ratio:.2f}x its fair share "
                 f"(at least {lo:.2f}x), so luck still decides many games")
    else:
        words = (f"skill hardly shows: {best} alone against {weakest} wins {ratio:.2f}x its fair share, "
                 f"an interval that reaches {lo:.2f}x (no better than fair)")
    return dict(row, best=best, weakest=weakest, words=words)


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


def ratings_chart(ratings: pl.DataFrame, title: str = "") -> str:
    r = ratings.sort("rating")
    fig, (ax,) = plots._figure(6.5, 0.6 + 0.45 * r.height)
    y = np.arange(r.height)
    rating, lo, hi = (r[c].to_numpy() for c in ("rating", "ci_low", "ci_high"))
    ax.errorbar(rating, y, xerr=[rating - lo, hi - rating], fmt="o", color=plots.BLUE, ecolor="black", capsize=4)
    ax.axvline(0, color=plots.GREY, ls="--", lw=1)
    ax.set_yticks(y, r["bot"].to_list())
    ax.set_xlabel("Bradley-Terry rating (log-strength, mean 0) with 95% interval")
    ax.set_title(title, fontsize=10)
    return plots.to_data_uri(fig)


def write_outputs(out: Path, manifest: dict, ratings: pl.DataFrame, h2h: pl.DataFrame, skill: dict,
                  matches: pl.DataFrame, luck: dict | None = None) -> list[Path]:
    """ladder.csv/.parquet, headtohead.csv, matches.parquet, ladder.json and ladder.html in `out`."""
    from .html import _environment, luck_text, write_text_atomic
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
