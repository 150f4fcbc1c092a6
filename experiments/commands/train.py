"""`balancelab train`: fit the greedy bot's weights by self-play (CMA-ES).

    balancelab train RULESET [--players N] [--budget GAMES] [--out FILE] [--overwrite] [--seed S]
                     [--field SPEC] [--jobs J] [--popsize K] [--candidate-games N]

Fits the game's greedy weights by self-play with CMA-ES (experiments/train.py) and writes
them as a weights TOML with its provenance; `--bots greedy:weights=FILE` plays them.
"""
from __future__ import annotations

import time

from simcore.errors import UserError
from simcore.games import GAMES, get_game


HELP = ("", ["balancelab train capybara --budget 200000 --jobs 2 --out trained.toml"])


def register(subparsers) -> None:
    p = subparsers.add_parser("train", help="fit the greedy bot's weights by self-play (CMA-ES)",
                              description="CMA-ES over the weights of strategies/<game>/weights/default.toml: "
                                          "each candidate plays one seat against the field at every seat, on the "
                                          "same games as the other candidates of its generation; writes the "
                                          "final weights, scored on held-out games, as a TOML file.")
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--budget", type=int, default=20_000, help="games to play in all (default 20000)")
    p.add_argument("--out", default=None, metavar="FILE", help="weights file to write (default trained-GAME.toml)")
    p.add_argument("--overwrite", action="store_true", help="replace weights this command wrote at --out")
    p.add_argument("--seed", type=int, default=0, help="seed of the games and of CMA-ES (default 0)")
    p.add_argument("--field", default="greedy", metavar="SPEC", help="the bot in the other seats (default greedy)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--popsize", type=int, default=None, help="candidates per generation (default CMA-ES's)")
    p.add_argument("--candidate-games", type=int, default=None, metavar="N",
                   help="games per candidate over all seats (default min(2000, what the budget allows))")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_train)


def cmd_train(args) -> int:
    # start-up: the command's library loads when the command runs, not for every --help
    from strategies.weights import schema
    from ..train import check, default_out, plan, train, write
    game = get_game(args.ruleset)
    rs = game.data.load(args.variant, data_dir=args.data, overrides=args.set or [])
    out = args.out if args.out is not None else default_out(rs.game)
    check(rs, args.players, args.budget, args.seed, args.field, out, args.overwrite)
    for flag, v in (("--jobs", args.jobs), ("--popsize", args.popsize), ("--candidate-games", args.candidate_games)):
        if v is not None and v < 1:
            raise UserError(f"must be at least 1, got {v}", key=flag)
    plan(len(schema(rs.game).names), args.players, args.budget, args.popsize, args.candidate_games)
    t0 = time.perf_counter()
    res = train(rs, args.players, args.budget, args.seed, args.field, args.jobs, args.popsize,
                args.candidate_games, progress=not args.quiet)
    path = write(res, out)
    p = res.provenance
    lo, hi = p["eval_interval_95"]
    print(f"{rs.game}: {p['generations']} generations x {p['popsize']} candidates x {p['games_per_candidate']} games, "
          f"{p['games_played']:,} games in {time.perf_counter() - t0:.0f} s")
    print("weights: " + ", ".join(f"{n} = {v}" for n, v in res.weights.as_dict().items()))
    print(f"held-out score ({p['eval_games']:,} games, one seat against {p['field']} at every seat): win share "
          f"{p['eval_win_share']:.4f} [{lo:.4f}, {hi:.4f}], fair {p['fair_share']:.4f}")
    print(f"wrote {path}")
    return 0
