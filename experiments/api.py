"""The notebook API: the command line's operations as functions returning DataFrames.

    from experiments import api
    run = api.sweep("experiments/configs/quick.toml", "runs/quick", jobs=2)
    api.headline(run)                    # polars; api.headline(run, pandas=True) for pandas
    api.entity_impact(run).head(10)
    api.report(run, "runs/quick/report.html")

Every metric function takes a Run (or a run folder path), returns one row per point (or
per point and seat/faction/entity) with the point's labels joined on, and 95% intervals.
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import polars as pl

from reports.measures import impact as I
from reports.measures import luck as L
from reports.measures import metrics as M
from reports.measures import pairing as P
from reports.measures.bradley_terry import fit_ratings
from reports.measures.coverage import coverage as _coverage
from reports.measures.ladder import head_to_head, skill_matters, with_predictions
from reports.measures.targets import rank_points
from simcore.runner import DEFAULT_BATCH, Results
from simcore.runner import simulate as _simulate

from .config import SweepConfig, load_config
from .grid import expand
from .ladder import play_ladder
from .lineup import run_spec
from .luck import manifest, play_luck
from .store import Run, open_run
from .sweep import run_sweep

__all__ = ["simulate", "load_config", "plan", "sweep", "open_run", "games", "tallies", "points", "headline",
           "seat_win_rates", "faction_win_rates", "bot_win_rates", "balance", "game_length",
           "length_histogram", "end_reasons", "score_margin", "entity_impact", "ablations",
           "pairings", "knockout_change", "adjusted_association", "bots_impact", "paired_difference", "report",
           "coverage", "ladder", "luck", "targets"]


def simulate(ruleset, bots=None, players: int = 4, games: int = 1000, seed: int = 0, jobs: int = 1,
             batch_size: int = DEFAULT_BATCH, factions=None) -> Results:
    """simcore.runner.simulate with bots by name ("greedy", "greedy,random,...", a list or None)."""
    spec = run_spec(ruleset, bots, players, factions, seed)
    return _simulate(ruleset, spec.bots, players, games, seed, jobs, batch_size, factions)


def _run(run: Run | str | Path) -> Run:
    return run if isinstance(run, Run) else open_run(run)


def _out(df: pl.DataFrame, pandas: bool):
    return df.to_pandas() if pandas else df


def _labelled(run: Run, df: pl.DataFrame) -> pl.DataFrame:
    if "point" not in df.columns or df.height == 0:
        return df
    labels = run.point_frame().with_columns(pl.col("point").cast(pl.Int32))
    keep = [c for c in labels.columns if c not in df.columns or c == "point"]
    return df.with_columns(pl.col("point").cast(pl.Int32)).join(labels.select(keep), on="point", how="left")


def plan(config: SweepConfig | str | Path, pandas: bool = False):
    """The points a config expands to (checked, nothing run): index, labels, seed, ruleset hash."""
    cfg = config if isinstance(config, SweepConfig) else load_config(config)
    rows = [{"point": p.index, **p.labels, "seed": p.spec.seed, "ablated": p.ablated, "base": p.base,
             "ruleset_hash": p.ruleset.hash} for p in expand(cfg)]
    return _out(pl.DataFrame(rows, infer_schema_length=None), pandas)


def sweep(config: SweepConfig | str | Path, out: str | Path, **options) -> Run:
    """Run (or with resume=True finish) a sweep; options as run_sweep (jobs, backend, ...)."""
    return open_run(run_sweep(config, out, **options))


def points(run, pandas: bool = False):
    """One row per point: its labels, seed, ablation and ruleset hash."""
    return _out(_run(run).point_frame(), pandas)


def games(run, points: Sequence[int] | None = None, pandas: bool = False):
    """Per-game rows (with a `point` column)."""
    return _out(_run(run).games(points), pandas)


def tallies(run, points: Sequence[int] | None = None, pandas: bool = False):
    """Per (point, seat, entity) acquisition tallies."""
    return _out(_run(run).tallies(points), pandas)


def _base_games(r: Run) -> pl.DataFrame:
    base = [p["index"] for p in r.points if p.get("ablated") is None]
    return r.games(base)


def headline(run, pandas: bool = False):
    """The report's headline table: balance, seat 0 rate, length, stalls, target share per point."""
    r = _run(run)
    return _out(_labelled(r, M.headline(_base_games(r), r.manifest.get("target_rounds"))), pandas)


def _metric(fn):
    def wrapped(run, pandas: bool = False):
        r = _run(run)
        return _out(_labelled(r, fn(_base_games(r))), pandas)
    wrapped.__name__ = fn.__name__
    wrapped.__doc__ = fn.__doc__
    return wrapped


seat_win_rates = _metric(M.seat_win_rates)
faction_win_rates = _metric(M.faction_win_rates)
bot_win_rates = _metric(M.bot_win_rates)
balance = _metric(M.balance)
length_histogram = _metric(M.length_histogram)
end_reasons = _metric(M.end_reasons)
score_margin = _metric(M.score_margin)


def game_length(run, pandas: bool = False):
    """Rounds per game with CI, quantiles, completion/stall rates and the share inside target_rounds."""
    r = _run(run)
    return _out(_labelled(r, M.game_length(_base_games(r), r.manifest.get("target_rounds"))), pandas)


def entity_impact(run, pandas: bool = False):
    """Per (point, entity): win rate when acquired vs not, corrected interval, rank by bound."""
    r = _run(run)
    base = [p["index"] for p in r.points if p.get("ablated") is None]
    return _out(_labelled(r, M.entity_impact(r.tallies(base), r.games(base), base)), pandas)


def ablations(run, pandas: bool = False):
    """Causal per-entity checks (entity removed/replaced, same games), paired intervals."""
    r = _run(run)
    return _out(M.ablation_effects(r.games(), r.points), pandas)


def _reference(r: Run) -> int:
    base = [p["index"] for p in r.points if p.get("ablated") is None]
    return r.manifest.get("reference_point", base[0] if base else 0)


def pairings(run, pandas: bool = False):
    """Every paired comparison of the run (each knockout/removal against its base point, each sweep
    point against the reference setting): identical share, games touched, correlation, identical
    share where the entity was unused, whether the pairing holds, and the plain-words label."""
    r = _run(run)
    grid = [a["name"] for a in r.manifest["config"].get("grid", [])]
    return _out(P.point_pairings(r.games(), r.points, _reference(r), grid), pandas)


def knockout_change(run, entity: str, a: int, b: int) -> dict:
    """The change of `entity`'s knockout effect from base point a to base point b (same games), e.g. the
    default data against an edit that makes it stronger: effect_a, effect_b, change with a paired 95% interval."""
    r = _run(run)
    return I.knockout_change(r.games(), r.points, entity, a, b)


def adjusted_association(run, point: int | None = None, bot: str | None = None, pandas: bool = False):
    """Per entity at one point (default: the reference point): holders against non-holders that acquired
    as many entities in all, raw and adjusted, corrected intervals clustered by game; `bot`: its seats only."""
    r = _run(run)
    point = _reference(r) if point is None else point
    return _out(I.adjusted_association(r.games([point]), I.entity_names(r.tallies([point])), bot), pandas)


def bots_impact(run, pandas: bool = False):
    """Each entity per bot at the reference setting (adjusted association, and every knockout/removal of it),
    with `sign_differs` where two bots' intervals both exclude zero with opposite signs."""
    r = _run(run)
    games = r.games()
    grid = [a["name"] for a in r.manifest["config"].get("grid", [])]
    pr = P.point_pairings(games, r.points, _reference(r), grid)
    return _out(I.bots_impact(games, r.points, _reference(r), I.entity_names(r.tallies()), pr), pandas)


def paired_difference(run, a: int, b: int, column: str = "s0_share") -> dict:
    """Mean per-game difference of `column` between points b and a (same games), with a 95% interval."""
    r = _run(run)
    return M.paired_difference(r.games([a, b]), a, b, column)


def coverage(run, entities=None, pandas: bool = False):
    """Per (point, bot, entity): the share of the bot's seat-games in which it acquired the entity,
    with a level "never" / "rare" (< 1%). `run`: a Run, a run folder, or simulate()'s Results
    (give `entities`, e.g. get_game(rs.game).entities(rs), to list the never-acquired ones too)."""
    if isinstance(run, Results):
        return _out(_coverage(run.games, run.tallies, entities), pandas)
    r = _run(run)
    base = [p["index"] for p in r.points if p.get("ablated") is None]
    if entities is None:
        entities = list(dict.fromkeys(e for rs in r.manifest.get("rulesets", {}).values()
                                      for e in rs.get("entities", []))) or None
    return _out(_labelled(r, _coverage(r.games(base), r.tallies(base), entities)), pandas)


def ladder(ruleset, bots, players: int = 4, games: int = 2000, seed: int = 0, jobs: int = 1,
           pandas: bool = False):
    """The skill ladder (experiments.ladder): (ratings, head_to_head, skill) of the bots given by name."""

    lad = play_ladder(ruleset, bots, players, games, seed, jobs)
    ratings = fit_ratings(lad.matches, lad.bots, seed=seed)
    h2h = with_predictions(head_to_head(lad.matches, players), ratings, players)
    return _out(ratings, pandas), _out(h2h, pandas), skill_matters(ratings, h2h)


def targets(run, pandas: bool = False):
    """Every base point against the config's `[target]` (reports.measures.targets.rank_points): rank, shortfall,
    and per metric the estimate, its 95% interval and met / missed / unsure. Empty without targets."""
    from reports.page.html import describe_point  # start-up: the page loads jinja2 and matplotlib
    r = _run(run)
    goal = r.manifest["config"].get("target") or {}
    if not goal:
        return _out(pl.DataFrame(), pandas)
    goal = {k: tuple(v) if isinstance(v, list) else v for k, v in goal.items()}
    base = [p for p in r.manifest["points"] if p.get("ablated") is None]
    labels = {p["index"]: describe_point(p) for p in base}
    return _out(rank_points(_base_games(r), r.tallies(), [p["index"] for p in base], labels, goal), pandas)


def luck(ruleset, bots="greedy,random", field: str | None = None, players: int = 4, games: int = 2000,
         seed: int = 0, jobs: int = 1, bootstrap: int = 1000, outcome: str = "win") -> dict:
    """Luck against skill (experiments.luck, reports.measures.luck): the same deals with each of two bots
    at every seat, the other seats `field` (default the second bot); the share of the seat's
    outcome variance explained by the bot, by the deal and by their interaction, with 95%
    bootstrap intervals. `outcome`: "win" (the seat's win share) or "score" (its score margin,
    oriented so higher is better). Returns the decomposition with "table" (one row per
    component), "words" (one sentence naming the bots and the outcome) and "manifest"."""

    run = play_luck(ruleset, bots, field, players, games, seed, jobs, outcome=outcome)
    result = L.decompose(run.y, run.bots, bootstrap=bootstrap, seed=seed)
    said = L.outcome_text(run.outcome, run.score_label, run.lower_is_better)
    return dict(result, table=L.share_table(result), words=L.words(result, run.field, said), manifest=manifest(run))


def report(run, out: str | Path | None = None) -> Path:
    """Write the HTML report (default RUN/report.html); return its path."""
    from reports.page.html import write_report  # start-up: the page loads jinja2 and matplotlib
    from reports.page.skill import read as skill_read
    r = _run(run)
    manifest = dict(r.manifest, _missing_chunks=len(r.missing()), _skill=skill_read(r.path))
    return write_report(manifest, r.games(), r.tallies(), out or r.path / "report.html")
