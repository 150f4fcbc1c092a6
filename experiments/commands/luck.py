"""`balancelab luck`: luck against skill, the outcome variance explained by the bot and by the deal.

    balancelab luck RULESET [--bots A,B] [--field F] [--players N] [--games N] [--seed S]
                    [--jobs J] [--bootstrap B] [--outcome win|score] [--out DIR] [--overwrite]

Plays the same deals with A and with B at each seat (the other seats F, default B) and
prints the share of the seat's outcome variance explained by the bot (skill), by the deal
(luck) and by their interaction, with 95% bootstrap intervals (reports.measures.luck). The outcome is
the seat's win share (default) or, with --outcome score, its score margin.
"""
from __future__ import annotations

import json
from pathlib import Path

from simcore.errors import UserError
from simcore.games import GAMES, get_game

from ..provenance import versions
from .options import check_previous_out

HELP = ("", ["balancelab luck evolversi --bots greedy,random --field greedy --games 4000",
        "balancelab luck evo --outcome score --out runs/luck-evo"])


def register(subparsers) -> None:
    p = subparsers.add_parser("luck", help="luck against skill: outcome variance explained by the bot vs by the deal",
                              description="Play the same deals (common random numbers) with bot A and with bot B at "
                                          "each seat, every other seat the field bot; split the variance of the "
                                          "seat's win share (or score margin, --outcome score) into the bot (skill), the deal (luck) and their "
                                          "interaction, with 95% bootstrap intervals (docs/metrics.md).")
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--bots", default=None, help="the bot tested and the baseline, A,B (default: the game's default "
                                                "bot and random)")
    p.add_argument("--field", default=None, help="the bot in every other seat (default: the baseline B)")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--games", type=int, default=2000, help="game indices (deals per seat) played with each bot "
                                                           "(default 2000)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--outcome", default="win", help="the seat's outcome: win (its share of the wins, default) or "
                                                     "score (its score minus the other seats' mean, oriented so "
                                                     "higher is better)")
    p.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for the intervals (default 1000)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    p.add_argument("--out", default=None, metavar="DIR", help="write luck.json and luck.csv here")
    p.add_argument("--overwrite", action="store_true", help="replace a previous luck run's files in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_luck)


def cmd_luck(args) -> int:
    # start-up: the command's library loads when the command runs, not for every --help; the
    # page module loads jinja2 and matplotlib
    from reports.measures import luck as L
    from reports.page.html import write_text_atomic

    from ..luck import check, manifest, play_luck

    game = get_game(args.ruleset)
    rs = game.data.load(args.variant, data_dir=args.data, overrides=args.set or [])
    bots = args.bots if args.bots is not None else [game.default_bot, "random"]
    check(rs, bots, args.field, args.players, args.games, args.seed, args.jobs, args.outcome)
    if args.bootstrap < 10:
        raise UserError(f"must be at least 10, got {args.bootstrap}", key="--bootstrap")
    out = Path(args.out) if args.out else None
    if out is not None:
        check_previous_out(out, args.overwrite, "luck.json", "luck run")
    run = play_luck(rs, bots, args.field, args.players, args.games, args.seed, args.jobs, progress=not args.quiet,
                    outcome=args.outcome)
    result = L.decompose(run.y, run.bots, bootstrap=args.bootstrap, seed=args.seed)
    man = manifest(run, {"versions": versions()})
    print(L.text(result, man))
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        L.share_table(result).write_csv(out / "luck.csv")
        write_text_atomic(out / "luck.json", json.dumps(dict(man, result=result), indent=2, default=str))
        print(f"\nwrote {out / 'luck.json'}, {out / 'luck.csv'}")
    return 0
