"""`balancelab warmup`: build each game's compiled engine and default bots now, and time it."""
from __future__ import annotations

import time

from simcore.games import GAMES, get_game

from ..lineup import run_spec

HELP = ("Build each game's compiled engine and default bots now (once per source version; the build is "
        "cached in ~/.cache/balancelab or $BALANCELAB_CACHE_DIR) and print the seconds each took.",
        ["balancelab warmup", "balancelab warmup evo"])


def register(subparsers) -> None:
    p = subparsers.add_parser("warmup", help="compile each game's batch engine and default bots now; seconds per game")
    p.add_argument("ruleset", nargs="?", default=None)
    p.set_defaults(func=cmd_warmup)


def cmd_warmup(args) -> int:
    """Build each game's batch engine with its default bots (compile, or load the cache)."""
    names = [args.ruleset] if args.ruleset else list(GAMES)
    for name in names:
        game = get_game(name)
        rs = game.data.load("default")
        lo, hi = game.player_range(rs)
        spec = run_spec(rs, None, min(max(4, lo), hi), None, 0)
        t0 = time.perf_counter()
        game.warmup(rs, spec.bots)
        print(f"{name}: {time.perf_counter() - t0:.1f} s")
    return 0
