"""`balancelab kingmaking`: the share of games where a player who cannot win decides who wins.

    balancelab kingmaking RULESET [--variant V] [--players N] [--games N] [--bots A,B,...]
                          [--playouts K] [--hopeless P] [--swing S] [--seed S] [--out FILE]

For each bot (every seat played by it), the share of games in which a seat that can no
longer win made a decision that moved another seat's win chance by at least the swing
(experiments/kingmaking.py, docs/metrics.md "Kingmaking"), with its 95% Wilson interval.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from simcore.games import GAMES
from strategies.registry import make_bot, split_specs

from ..kingmaking import ALPHA, HOPELESS, PLAYOUTS, SWING, check, forcing_bot, kingmaking, text
from .options import load_ruleset

HELP = ("", ["balancelab kingmaking evolution --players 4 --games 40 --bots greedy,trained",
        "balancelab kingmaking capybara --players 3 --games 20"])


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "kingmaking", help="share of games where a player who cannot win decides who wins",
        description="At every searchable decision of every seat, branch the decision over its options "
                    "(K playouts each, the same streams for every option); a decision by a seat whose best option "
                    "wins less than --hopeless that moves another seat's win share by at least --swing is "
                    "kingmaking. Prints the share of games with one, per bot, with a 95% Wilson interval "
                    "(docs/metrics.md).")
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    p.add_argument("--players", type=int, default=4, help="number of players, 3 or more (default 4)")
    p.add_argument("--games", type=int, default=40, help="games per bot (default 40)")
    p.add_argument("--bots", default=None, help="comma-separated bots, each playing every seat in its own games "
                                                "(default: the game's default bot)")
    p.add_argument("--playouts", type=int, default=PLAYOUTS, help=f"playouts per option (default {PLAYOUTS})")
    p.add_argument("--hopeless", type=float, default=HOPELESS,
                   help=f"a seat whose best option's win share is below this cannot win (default {HOPELESS})")
    p.add_argument("--swing", type=float, default=SWING,
                   help=f"the least change of another seat's win share that decides the winner (default {SWING})")
    p.add_argument("--alpha", type=float, default=ALPHA,
                   help=f"a swing counts when chance among the playouts gives it at most this often (default {ALPHA})")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    p.add_argument("--out", default=None, metavar="FILE", help="write the results as JSON here")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=cmd_kingmaking)


def cmd_kingmaking(args) -> int:
    game, rs = load_ruleset(args)
    check(args.ruleset, rs, args.players, args.games, args.playouts, args.hopeless, args.swing, args.alpha)
    names = split_specs(args.bots) if args.bots else [game.default_bot]
    for name in names:                               # a bad bot: one line, before any game
        make_bot(args.ruleset, name, rs)
        forcing_bot(args.ruleset, name)
    rows = []
    for name in names:
        def tick(done, total, name=name):
            if not args.quiet:
                print(f"\r{name}: {done}/{total} games", end="", file=sys.stderr, flush=True)
        rows.append(kingmaking(args.ruleset, rs, args.players, name, args.games, args.seed, args.playouts,
                               args.hopeless, args.swing, progress=tick, alpha=args.alpha))
        if not args.quiet:
            print(file=sys.stderr)
    print(text(rows))
    if args.out:
        keep = [{k: v for k, v in r.items() if k != "scans"} for r in rows]
        Path(args.out).write_text(json.dumps(keep, indent=2))
        print(f"\nwrote {args.out}")
    return 0
