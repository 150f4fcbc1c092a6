"""Options and argument parsing shared by several commands: a ruleset, its variant, data and
overrides, a line-up of bots and factions, and the games to play."""
from __future__ import annotations

import argparse
from pathlib import Path

from simcore.errors import UserError
from simcore.games import GAMES, get_game

from ..lineup import run_spec


def csv_list(text: str | None) -> list[str] | None:
    """A comma-separated option as a list of stripped names (None when not given)."""
    return None if text is None else [t.strip() for t in text.split(",")]


def load_ruleset(args):
    """The game and ruleset named by the ruleset options (`ruleset`, `--variant`, `--data`, `--set`)."""
    game = get_game(args.ruleset)
    return game, game.data.load(args.variant, data_dir=args.data, overrides=args.set or [])


def add_lineup_options(p: argparse.ArgumentParser) -> None:
    """Who plays: the player count, the bot and animal per seat, and the run seed."""
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--bots", default=None, help="bot per seat, comma-separated, or one for all (default greedy)")
    p.add_argument("--animals", "--factions", dest="factions", default=None,
                   help="animal (faction) per seat, comma-separated; 'random' for a random one (default all random)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")


def add_ruleset_options(p: argparse.ArgumentParser, games=True) -> None:
    """The ruleset, its line-up and (with `games`) how many games to play and how."""
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    add_lineup_options(p)
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    if games:
        p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
        p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
        p.add_argument("--batch-size", type=int, default=20_000, help="games per chunk (default 20000)")


def check_previous_out(out: Path, overwrite: bool, marker: str, what: str) -> None:
    """An --out folder that is new, empty, or (with --overwrite) holds a previous `what`, known
    by its `marker` file."""
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        if not out.is_dir() or not (out / marker).is_file():
            raise UserError(f"exists and holds no previous {what}; choose another --out", file=str(out))
        if not overwrite:
            raise UserError(f"holds a previous {what}; pass --overwrite to replace it, or choose another --out",
                            file=str(out))


def spec_of(args):
    """The game, ruleset and run spec (bots, factions, seed) of the ruleset options."""
    game, rs = load_ruleset(args)
    return game, rs, run_spec(rs, args.bots, args.players, csv_list(args.factions), args.seed,
                              getattr(args, "trajectories", False))
