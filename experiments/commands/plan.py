"""`balancelab plan`: the games and the time each check of a config needs, from a short pilot."""
from __future__ import annotations

import sys

from ..plan import plan, print_plan

HELP = ("", ["balancelab plan experiments/configs/quick.toml",
        "balancelab plan experiments/configs/quick.toml --precision 1.0 --pilot 500"])


def register(subparsers) -> None:
    p = subparsers.add_parser("plan", help="games and time each check of a config needs, from a short pilot",
                              description="Play a short pilot of every point of an experiment config, then print per "
                                          "check the games for a stated precision, for a fixed-count decision and "
                                          "with --until-decided, and the time at the measured speed. Writes nothing.")
    p.add_argument("config", metavar="CONFIG", help="experiment config (TOML)")
    p.add_argument("--precision", type=float, default=0.5, metavar="PP",
                   help="half-width of the 95%% interval wanted, in percentage points (default 0.5)")
    p.add_argument("--pilot", type=int, default=1000, metavar="N", help="pilot games per point (default 1000)")
    p.set_defaults(func=cmd_plan)


def cmd_plan(args) -> int:
    print_plan(plan(args.config, args.precision, args.pilot), sys.stdout.write)
    return 0
