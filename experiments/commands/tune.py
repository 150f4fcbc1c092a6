"""`balancelab tune`: propose the smallest data edit that meets balance targets, proved on fresh games."""
from __future__ import annotations


HELP = ("Search for the fewest data edits (rule numbers, card values) that meet the config's balance "
        "targets, then replay the best on fresh games to prove it (docs/tune.md; every key: "
        "docs/config.md).",
        ["balancelab tune experiments/configs/tune_market.toml --out runs/tune-market --jobs 2",
         "balancelab tune experiments/configs/tune_market.toml --out runs/tune-market --jobs 2 --resume"])


def register(subparsers) -> None:
    p = subparsers.add_parser("tune", help="propose the smallest data edit that meets balance targets, proved on fresh games")
    p.add_argument("config", metavar="CONFIG", help="tuning config (TOML), e.g. experiments/configs/tune_market.toml")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (data/, evaluations, report.html)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="parallel workers (default 1)")
    p.add_argument("--backend", choices=("loky", "dask"), default="loky", help="loky or dask (default loky)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="dask scheduler address")
    p.add_argument("--resume", action="store_true", help="finish an interrupted search in --out")
    p.add_argument("--until-decided", action="store_true",
                   help="the proof plays in chunks until every target is decided (95%% confidence sequences), "
                        "[proof] games at most (as [proof] until_decided = true)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_tune)


def cmd_tune(args) -> int:
    # start-up: the command's library loads when the command runs, not for every --help
    from ..tune.run import proposal_text, tune
    try:
        summary = tune(args.config, args.out, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler,
                       resume=args.resume, progress=not args.quiet, until_decided=args.until_decided)
    except KeyboardInterrupt as e:
        again = " --until-decided" if args.until_decided else ""
        e.hint = (f"interrupted; finished games are kept: resume with "
                  f"`balancelab tune {args.config} --out {args.out}{again} --resume`")
        raise
    print(proposal_text(summary))
    print(f"wrote {args.out}/ (data/, evaluations.csv, report.html)")
    return 0
