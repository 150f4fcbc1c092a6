"""`balancelab ladder`: rate bots by a seat-rotated round-robin on common random numbers.

    balancelab ladder RULESET --bots random,greedy[,...] [--players N] [--games N] [--seed S]
                      [--jobs J] [--out DIR] [--overwrite]

Prints the ratings, the head-to-head table and how much skill matters; with --out also
writes ladder.csv/.parquet, headtohead.csv, matches.parquet, ladder.json and ladder.html.
"""
from __future__ import annotations

import time
from pathlib import Path

from simcore.errors import UserError
from simcore.games import GAMES, get_game

from ..provenance import versions
from .options import check_previous_out

HELP = ("", ["balancelab ladder capybara --bots random,greedy,rollout --games 2000 --jobs 2",
        "balancelab ladder evolversi --bots greedy,greedy:weights=trained.toml --games 8000"])


def register(subparsers) -> None:
    p = subparsers.add_parser("ladder", help="rate bots: seat-rotated round-robin on common random numbers",
                              description="Play every pair of bots, one alone against the other in every other "
                                          "seat, at every seat, on the same game indices; fit Bradley-Terry "
                                          "ratings with 95% intervals and say how much skill matters.")
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--bots", default=None, help="bots to rate, comma-separated (default: random and the game's default bot)")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--games", type=int, default=2000, help="games per pair of bots, over all seat rotations (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    p.add_argument("--out", default=None, metavar="DIR", help="write the tables, matches and ladder.html here")
    p.add_argument("--overwrite", action="store_true", help="replace a previous ladder's files in --out")
    p.add_argument("--blind-spot-games", type=int, default=200, metavar="N",
                   help="games per bot for the blind-spot list: entities and shipped variants' rule changes no "
                        "rated bot touches in 5%% of its games (default 200; 0 leaves the list out)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_ladder)


def cmd_ladder(args) -> int:
    # start-up: the command's library loads when the command runs, not for every --help; the
    # ladder's page draws with matplotlib
    from reports.measures import luck as L
    from reports.measures.blind_spots import blind_spots_text
    from reports.measures.bradley_terry import fit_ratings
    from reports.measures.ladder import head_to_head, skill_matters, with_predictions
    from reports.page.ladder import ladder_text, write_outputs

    from ..blind_spots import blind_spots, shippable
    from ..ladder import check, play_ladder, rotations
    from ..luck import luck_from_ladder

    game = get_game(args.ruleset)
    rs = game.data.load(args.variant, data_dir=args.data, overrides=args.set or [])
    bots = args.bots if args.bots is not None else ["random", game.default_bot]
    check(rs, bots, args.players, args.games, args.seed, args.jobs)
    if args.blind_spot_games < 0:
        raise UserError(f"must be 0 or more, got {args.blind_spot_games}", key="--blind-spot-games")
    out = Path(args.out) if args.out else None
    if out is not None:
        check_previous_out(out, args.overwrite, "ladder.json", "ladder")
    t0 = time.perf_counter()
    lad = play_ladder(rs, bots, args.players, args.games, args.seed, args.jobs, progress=not args.quiet)
    seconds = time.perf_counter() - t0
    ratings = fit_ratings(lad.matches, lad.bots, seed=args.seed)
    h2h = with_predictions(head_to_head(lad.matches, args.players), ratings, args.players)
    skill = skill_matters(ratings, h2h)
    # Luck against skill from the ladder's own tables: the best bot alone against the weakest,
    # against the weakest's mirror table (one more table, the same game indices).
    lrun = luck_from_ladder(lad, skill["best"], skill["weakest"], args.jobs)
    luck = dict(L.decompose(lrun.y, lrun.bots, seed=args.seed), field=lrun.field,
                words=None, mirror_seconds=lrun.seconds)
    luck["words"] = L.words(luck, lrun.field)
    tables = len(rotations("a", "b", args.players))
    manifest = {"ruleset": rs.game, "variant": rs.variant, "ruleset_hash": rs.hash, "players": args.players,
                "seed": args.seed, "bots": lad.bots, "games_per_table": lad.games_per_table,
                "tables_per_pair": tables, "games_per_pair": lad.games_per_table * tables, "seconds": seconds,
                "seconds_per_pair": lad.seconds, "jobs": args.jobs, "versions": versions()}
    print(ladder_text(manifest, ratings, h2h, skill))
    print(f"\nLuck and skill ({luck['games']:,} game indices x {luck['seats']} seats; the ladder's tables of "
          f"{skill['best']} alone against {skill['weakest']}, and {skill['weakest']} at every seat): {luck['words']}.")
    if args.blind_spot_games > 0:
        seen = shippable(rs.game, lad.bots)
        if seen:
            table = blind_spots(rs, seen, args.players, args.blind_spot_games, args.seed)
            print("\n" + blind_spots_text(table))
            if out is not None:
                out.mkdir(parents=True, exist_ok=True)
                table.write_csv(out / "blind_spots.csv")
    if out is not None:
        paths = write_outputs(out, manifest, ratings, h2h, skill, lad.matches, luck)
        print("\nwrote " + ", ".join(str(p) for p in paths))
    return 0
