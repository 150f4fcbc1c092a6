"""The `sweep` and `report` subcommands (registered by experiments/cli.py).

    balancelab sweep CONFIG [--out DIR] [--jobs J] [--backend loky|dask] [--scheduler ADDRESS] [--resume]
    balancelab report RUN_DIR [--out FILE]       (RUN_DIR from `sweep`, or from `run --out`: one point)

Handlers raise UserError for a user's mistake (the CLI prints one line, exit code 2) and
return the exit code otherwise.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from simcore.errors import UserError

from .config import load_config
from .store import open_run
from .sweep import BACKENDS, run_sweep


def register(subparsers) -> None:
    """Add the `sweep` and `report` subcommands to an argparse subparsers object."""
    p = subparsers.add_parser("sweep", help="run an experiment config (a grid of variants) into a run folder",
                              description="Run every point of an experiment config; each finished chunk of games "
                                          "is one parquet file, so an interrupted sweep resumes with --resume.")
    p.add_argument("config", metavar="CONFIG", help="experiment config (TOML), e.g. experiments/configs/quick.toml")
    p.add_argument("--out", default=None, metavar="DIR", help="run folder (default runs/<config name>)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="parallel workers (default 1)")
    p.add_argument("--backend", choices=BACKENDS, default="loky",
                   help="loky: local processes; dask: a dask.distributed cluster (default loky)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="dask scheduler address (with --backend dask; default: a local cluster)")
    p.add_argument("--resume", action="store_true", help="finish an interrupted sweep in --out, skipping finished chunks")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_sweep)

    p = subparsers.add_parser("report", help="write the HTML balance report of a run folder (`sweep`, or `run --out`)")
    p.add_argument("run_dir", metavar="RUN_DIR")
    p.add_argument("--out", default=None, metavar="FILE", help="HTML file (default RUN_DIR/report.html)")
    p.set_defaults(func=cmd_report)


def cmd_sweep(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    out = Path(args.out) if args.out else Path("runs") / cfg.name
    t0 = time.perf_counter()
    try:
        run_sweep(cfg, out, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, resume=args.resume,
                  progress=not args.quiet)
    except KeyboardInterrupt:
        print(f"balancelab: interrupted; finished chunks are kept: resume with "
              f"`balancelab sweep {args.config} --out {out} --resume`", file=sys.stderr)
        raise
    run = open_run(out)
    games = len(run.points) * run.manifest["games_per_point"]
    played = run.manifest["sessions"][-1]["games"]
    if played:
        print(f"wrote {out}/: {len(run.points)} points, {games:,} games ({played:,} played now, "
              f"{time.perf_counter() - t0:.1f} s)")
    else:
        print(f"{out}/ already holds every game ({len(run.points)} points, {games:,} games): nothing played")
    print(f"next: balancelab report {out}  (writes {out}/report.html and follow-up configs in {out}/next-steps/)")
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    from reports.html import write_report
    run = open_run(args.run_dir)
    missing = run.missing()
    manifest = dict(run.manifest, _missing_chunks=len(missing))
    games = run.games()
    if games.height == 0:
        raise UserError("the run holds no finished games yet; run or resume the sweep first", file=str(args.run_dir))
    out = Path(args.out) if args.out else run.path / "report.html"
    if out.exists() and out.is_dir():
        raise UserError("is a folder; give a file name for the report", file=str(out))
    write_report(manifest, games, run.tallies(), out, tables=reference_tables(run))
    print_balance_table(run)
    print_targets(run)
    print_paired_checks(run, games)
    if missing:
        print(f"note: {len(missing)} chunks are unfinished; the report covers the games played so far", file=sys.stderr)
    print(f"wrote {out}")
    return 0


def reference_tables(run) -> dict:
    """The reference point's ruleset tables (for the verdict's next-step configs), {} if not stored."""
    import json
    points = run.manifest.get("points", [])
    ref = run.manifest.get("reference_point", 0)
    h = next((p.get("ruleset_hash") for p in points if p.get("index") == ref), None)
    path = run.path / "rulesets" / f"{h}.json"
    try:
        return json.loads(path.read_text()).get("tables", {}) if h else {}
    except (OSError, ValueError):
        return {}


def print_balance_table(run) -> None:
    """The headline balance table of a run, one line per point (ablation points left out)."""
    from experiments.api import headline, points
    head = headline(run)
    pts = points(run)
    fixed = {"point", "ablated", "base", "seed", "ruleset_hash", "ablation"}
    swept = [c for c in pts.columns if c not in fixed
             and (c not in ("players", "bots") or pts[c].n_unique() > 1)]
    head = head.filter(head["ablated"].is_null()) if "ablated" in head.columns else head
    label_w = max([len(", ".join(f"{c}={r[c]}" for c in swept)) for r in head.iter_rows(named=True)] + [5])
    print()
    print(f"{'point':<{label_w}}  {'games':>7}  {'rounds [95% CI]':>19}  {'balance [95% CI]':>20}  "
          f"{'seat 0 wins':>11}  {'fair':>5}  best / worst")
    for r in head.iter_rows(named=True):
        label = ", ".join(f"{c}={r[c]}" for c in swept) or "-"
        print(f"{label:<{label_w}}  {r['games']:>7}  {r['mean_rounds']:>6.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
              f"  {r['balance']:>6.3f} [{r['balance_low']:.3f}, {r['balance_high']:.3f}]"
              f"  {r['seat0_rate']:>11.3f}  {r['fair']:>5.3f}  {r['best']} / {r['worst']}")
    print("(fair = the fair share of wins, 1 / players)")


def print_targets(run) -> None:
    """The points ranked against the config's `[target]`, one line each (nothing without targets)."""
    from experiments.api import targets
    from reports.targets_section import bound_text
    ranked = targets(run)
    goal = run.manifest["config"].get("target") or {}
    if ranked.height == 0:
        return
    print("\ntargets (" + "; ".join(f"{k} {bound_text(k, v)}" for k, v in goal.items())
          + "): points ranked; met = the whole 95% interval inside, missed = wholly outside")
    for r in ranked.iter_rows(named=True):
        cells = [f"{k} {r[k]:.2f} [{r[k + '_low']:.2f}, {r[k + '_high']:.2f}] {r[k + '_mark']}" for k in goal]
        print(f"  {r['rank']}. {r['label']}: " + "; ".join(cells) + f"  (shortfall {r['shortfall']:.2f})")


def print_paired_checks(run, games) -> None:
    """One line per knockout/removal: the holders' paired effect, where it mattered, and what it may claim."""
    from reports.metrics import ablation_effects
    from reports.pairing import point_pairings
    abl = ablation_effects(games, run.points)
    if abl.height == 0:
        return
    grid = [a["name"] for a in run.manifest["config"].get("grid", [])]
    pr = {r["point"]: r for r in point_pairings(games, run.points, run.manifest.get("reference_point", 0),
                                                grid).iter_rows(named=True)}
    print(f"\npaired checks (effect on the {run.manifest.get('entity_kind', 'entity')}'s holders, pp, "
          "corrected 95% interval; mattered = games whose outcome changed)")
    for r in abl.sort(["base", "rank"]).iter_rows(named=True):
        p = pr.get(r["point"], {})
        verdict = "causal" if p.get("holds") else "association only (the pairing does not hold)"
        eff = "n/a" if r["effect"] != r["effect"] else \
            f"{r['effect'] * 100:+.1f} [{r['ci_low'] * 100:+.1f}, {r['ci_high'] * 100:+.1f}]"
        mattered = p.get("changed")
        print(f"  point {r['base']}: {r['entity']} ({p.get('kind', 'removal')}): {eff}, mattered in "
              f"{'n/a' if mattered is None else f'{mattered:.1%}'} of games: {verdict}")
