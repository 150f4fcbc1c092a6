"""`balancelab sweep`: run an experiment config (a grid of variants) into a run folder, then
write its report (the answer and the verdict printed, the page beside the chunks).

An interrupted sweep keeps its finished chunks and resumes with --resume.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from simcore.errors import UserError

from ..config import load_config
from ..store import open_run
from ..sweep import BACKENDS, run_sweep
from .report import write_and_print

HELP = ("", ["balancelab sweep experiments/configs/quick.toml --out out/quick --jobs 2",
        "balancelab sweep experiments/configs/quick.toml --out out/quick --jobs 2 --resume"])


def register(subparsers) -> None:
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
    p.add_argument("--until-decided", action="store_true",
                   help="play each knockout/removal and each grid point against the reference in chunks until its "
                        "paired sequential test decides (the config's games are the cap; docs/metrics.md, "
                        "\"Deciding with fewer games\")")
    p.add_argument("--budget", type=int, default=None, metavar="N",
                   help="with --until-decided: games played at most, over all points (default: no limit)")
    p.set_defaults(func=cmd_sweep)


def cmd_sweep(args: argparse.Namespace) -> int:
    cfg = load_config(args.config)
    out = Path(args.out) if args.out else Path("runs") / cfg.name
    t0 = time.perf_counter()
    if getattr(args, "until_decided", False) or getattr(args, "budget", None) is not None:
        return _sweep_until_decided(args, cfg, out, t0)
    try:
        run_sweep(cfg, out, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler, resume=args.resume,
                  progress=not args.quiet)
    except KeyboardInterrupt as e:
        e.hint = (f"interrupted; finished chunks are kept: resume with "
                  f"`balancelab sweep {args.config} --out {out} --resume`")
        raise
    run = open_run(out)
    games = len(run.points) * run.manifest["games_per_point"]
    played = run.manifest["sessions"][-1]["games"]
    if played:
        print(f"wrote {out}/: {len(run.points)} points, {games:,} games ({played:,} played now, "
              f"{time.perf_counter() - t0:.1f} s)")
    else:
        print(f"{out}/ already holds every game ({len(run.points)} points, {games:,} games): nothing played")
    page = write_and_print(run, run.path / "report.html")
    print(f"page: {page}  (the tables in the terminal, and follow-up configs in {out}/next-steps/: "
          f"balancelab report {out})")
    return 0


def _sweep_until_decided(args, cfg, out: Path, t0: float) -> int:
    # start-up: the command's library loads when the command runs, not for every --help
    from ..until_decided import print_decision_summary, sweep_until_decided
    if not args.until_decided:
        raise UserError("is used with --until-decided only", key="--budget")
    if args.backend != "loky":
        raise UserError("--until-decided runs on local worker processes (--backend loky)", key="--until-decided")
    sweep_until_decided(cfg, out, budget=args.budget, jobs=args.jobs, progress=not args.quiet, resume=args.resume)
    run = open_run(out)
    now = run.manifest["sessions"][-1].get("played_now")
    if now == 0:
        print(f"{out}/ already holds every look ({len(run.points)} points): nothing played, each look read back")
    else:
        print(f"wrote {out}/: {len(run.points)} points ({now:,} games played now, {time.perf_counter() - t0:.1f} s)")
    print_decision_summary(run.manifest, sys.stdout.write)
    page = write_and_print(run, run.path / "report.html")
    print(f"page: {page}  (each check's decision, the tables in the terminal, and follow-up configs in "
          f"{out}/next-steps/: balancelab report {out})")
    return 0
