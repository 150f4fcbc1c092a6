"""`balancelab setup`: play a game's setup from a seed and print the state after it."""
from __future__ import annotations

import json

from strategies.registry import make_bots

from .options import add_ruleset_options, csv_list, load_ruleset

HELP = ("Play a game's setup from a seed and print the state after it, in the scenario state format, on "
        "either engine; a scenario file with \"until\": \"setup\" checks it (docs/scenarios.md).",
        ["balancelab setup capybara --players 3 --seed 1",
         "balancelab setup evo --players 5 --engine reference"])


def register(subparsers) -> None:
    p = subparsers.add_parser("setup", help="play a game's setup from a seed and print the state after it (scenario format)")
    add_ruleset_options(p, games=False)
    p.add_argument("--game", type=int, default=0, help="game index within the run (default 0)")
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(func=cmd_setup)


def cmd_setup(args) -> int:
    """Play a game's setup from a seed on either engine and print the state after it (the
    scenario state format; a scenario with "until": "setup" checks one)."""
    game, rs = load_ruleset(args)
    bots = make_bots(game.name, args.bots or game.default_bot, args.players, rs)
    state = game.new_state(rs, args.players, bots, args.seed, args.game, factions=csv_list(args.factions),
                           engine=args.engine)
    print(json.dumps(state, indent=2))
    return 0
