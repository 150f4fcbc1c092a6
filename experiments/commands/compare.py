"""`balancelab compare`: the same games on two data folders, and the paired change of every win rate.

`run --data A --compare [B]` is the same comparison, entered from `run`.
"""
from __future__ import annotations

import json
from pathlib import Path

from simcore.errors import UserError
from simcore.games import GAMES, get_game
from simcore.ruleset import read_toml

from .options import add_lineup_options, csv_list

BUILTIN_DATA = "built-in"

HELP = ("", ["balancelab compare evolversi --data my-cards/ --games 20000",
        "balancelab compare --data before/ --data after/ --out runs/compare"])


def register(subparsers) -> None:
    p = subparsers.add_parser("compare", help="the same games on two data folders: paired changes of every win rate",
                       description="Play the same game indices on two sides (common random numbers) and print, per "
                                   "seat, faction and changed or affected entity, the change in win rate with a "
                                   "paired 95% interval, the change in game length and balance, and the edit itself. "
                                   "One --data: that folder (after) against the built-in data (before); two: the "
                                   "second (after) against the first (before).")
    p.add_argument("ruleset", nargs="?", default=None,
                   help=f"ruleset name ({', '.join(GAMES)}; default: the data folder's params.toml [game] name)")
    p.add_argument("--data", action="append", metavar="DIR", help="a data folder (give one or two)")
    p.add_argument("--variant", default="default", help="named variant, on both sides")
    add_lineup_options(p)
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter on both sides")
    p.add_argument("--games", type=int, default=10_000, help="games per side (default 10000)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--batch-size", type=int, default=20_000, help="games per chunk (default 20000)")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write compare.json, compare.html and the verdict's next-step configs here")
    p.add_argument("--overwrite", action="store_true", help="replace the compare files in a non-empty --out")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--until-decided", action="store_true",
                   help="play chunks until each seat's and faction's paired sequential test decides (no effect "
                        "|change| <= 0.5 pp, effect >= 2 pp, alpha = beta = 0.05; --games is then not used)")
    p.add_argument("--cap", type=int, default=None, metavar="N",
                   help="with --until-decided: games per side at most (default 100000)")
    p.set_defaults(func=cmd_compare)


def _ruleset_of(name: str | None, folders: list[str]) -> str:
    """The ruleset named on the command line, else the [game] name of a data folder's params.toml."""
    if name is not None:
        return name
    for folder in folders:
        path = Path(folder) / "params.toml"
        if path.is_file():
            table = read_toml(path, "parameter file params.toml").get("game", {})
            if isinstance(table, dict) and table.get("name"):
                return str(table["name"])
    raise UserError("cannot tell which ruleset to compare: give RULESET (e.g. `balancelab compare evolversi "
                    "--data my-cards/`) or a params.toml with [game] name", key="RULESET")


def compare_sides(args, before: str | None, after: str | None) -> int:
    """Play both sides on the same game indices; print (or --format json) and write --out."""
    # start-up: the command's library loads when the command runs, not for every --help
    from ..compare import CompareRequest, as_json, print_comparison, run_compare, write_outputs
    game = get_game(args.ruleset)
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and not out.is_dir():
        raise UserError("is a file; compare writes a folder (compare.json, compare.html): give a folder name",
                        file=str(out))
    if out is not None and out.exists() and any(out.iterdir()) and not args.overwrite:
        raise UserError("exists and is not empty; pass --overwrite to replace its compare files, or choose "
                        "another --out", file=str(out))
    req = CompareRequest(args.ruleset, before, after, variant=args.variant, players=args.players, bots=args.bots,
                         factions=None if args.factions is None else tuple(csv_list(args.factions)),
                         games=args.games, seed=args.seed, batch_size=args.batch_size, jobs=args.jobs,
                         overrides=tuple(args.set or ()), until_decided=bool(getattr(args, "until_decided", False)),
                         cap=getattr(args, "cap", None))
    comparison = run_compare(req)
    doc = as_json(comparison)
    written = write_outputs(comparison, out) if out is not None else []
    if args.format == "json":
        print(json.dumps(doc, indent=2, default=str))
    else:
        print_comparison(doc, game.faction_label, game.entity_kind)
        if written:
            print("\nwrote " + ", ".join(str(p) for p in written))
    return 0


def cmd_compare(args) -> int:
    """`compare [RULESET] --data A [--data B]`: B against A, or A against the built-in data."""
    folders = args.data or []
    if not folders or len(folders) > 2:
        raise UserError(f"give one data folder (compared against the built-in data) or two (the second "
                        f"against the first); got {len(folders)}", key="--data")
    for i, folder in enumerate(folders):
        if not Path(folder).is_dir():
            which = "" if len(folders) == 1 else (" (the first: before)", " (the second: after)")[i]
            raise UserError(f"data folder {folder!r}{which} does not exist or is not a folder; give a folder "
                            "holding the data files you changed (e.g. a copy of cards.csv)", key="--data")
    args.ruleset = _ruleset_of(args.ruleset, folders)
    before, after = (None, folders[0]) if len(folders) == 1 else (folders[0], folders[1])
    return compare_sides(args, before, after)
