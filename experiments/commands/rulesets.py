"""`balancelab rulesets`: every ruleset with its variants, player counts, bots and parameters."""
from __future__ import annotations

from simcore.games import GAMES, get_game
from strategies.registry import bot_names

HELP = ("List every ruleset with its variants and player counts, and every rule parameter with its "
        "value and source (rulebook, inferred or default).",
        ["balancelab rulesets"])


def register(subparsers) -> None:
    p = subparsers.add_parser("rulesets", help="list rulesets, variants, player counts and parameters")
    p.set_defaults(func=cmd_rulesets)


def cmd_rulesets(args) -> int:
    for name in GAMES:
        game = get_game(name)
        rs = game.data.load()
        lo, hi = game.player_range(rs)
        print(f"{name}: {game.title}  players {lo}-{hi}  bots {', '.join(bot_names(name))}  hash {rs.hash}")
        print(f"  variants: {', '.join(rs.variants)}")
        print(f"  {game.faction_label}s: {', '.join(game.factions(rs))}")
        print("  parameters (value, source):")
        for n, p in rs.specs.items():
            val = list(p.value) if isinstance(p.value, tuple) else p.value
            print(f"    {n:24s} {str(val):24s} {p.source:9s} {p.doc}")
    return 0
