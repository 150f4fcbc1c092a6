"""`balancelab map`: draw a game's board from its data.

    balancelab map evo [--players N] [--out FILE.png] [--overwrite] [--data DIR] [--variant V] [--set NAME=VALUE]

Zones coloured by terrain, coastal zones outlined, adjacency lines, starting areas marked
with their seat; the layout comes from the zones' x/y columns. A designer's own map in
`--data` (maps/<P>/zones.csv and adjacency.csv) is checked and drawn the same way.
"""
from __future__ import annotations

import importlib
from pathlib import Path

from simcore.errors import UserError

from .. import store

# Rulesets that have a board, and the package holding its data (schema.py) and maps.py.
MAP_GAMES = {"evo": "simcore.games.evo"}
DEFAULT_PLAYERS = 4

HELP = ("Draw a game's board from its map data (zones by terrain, coasts, adjacency, starting areas) "
        "into a PNG file; a designer's maps in --data are checked and drawn the same way.",
        ["balancelab map evo", "balancelab map evo --players 5 --out board-5p.png"])


def register(subparsers) -> None:
    p = subparsers.add_parser("map", help="draw a board from the ruleset's map data into a PNG file")
    p.add_argument("ruleset", help=f"ruleset with a board ({', '.join(MAP_GAMES)})")
    p.add_argument("--players", type=int, default=None,
                   help=f"player count (each count has its own map; default {DEFAULT_PLAYERS}, or the nearest the game plays)")
    p.add_argument("--out", default=None, metavar="FILE.png",
                   help="PNG file to write (default RULESET-board-Np.png in the current folder)")
    p.add_argument("--overwrite", action="store_true", help="replace a board this command drew at --out")
    p.add_argument("--variant", default="default", help="named variant")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder (e.g. maps/<P>/*.csv)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.set_defaults(func=cmd_map)


def cmd_map(args) -> int:
    if args.ruleset not in MAP_GAMES:
        raise UserError(f"ruleset {args.ruleset!r} has no board to draw; rulesets with maps: {', '.join(MAP_GAMES)}",
                        key="ruleset")
    package = MAP_GAMES[args.ruleset]
    data = importlib.import_module(f"{package}.schema").GAME_DATA
    rs = data.load(args.variant, data_dir=args.data, overrides=args.set or [])
    lo, hi = rs["players_min"], rs["players_max"]
    players = min(max(DEFAULT_PLAYERS, lo), hi) if args.players is None else args.players
    out = Path(args.out if args.out is not None else f"{args.ruleset}-board-{players}p.png")
    if out.suffix.lower() != ".png":
        raise UserError("the map is written as PNG: give a file name ending in .png", file=str(out))
    if not out.parent.expanduser().resolve().is_dir():
        raise UserError("the folder of the output file does not exist", file=str(out))
    from reports.page.map import drew_map, save_map       # start-up: matplotlib, only when drawing
    store.check_output_file(out, args.overwrite, drew_map, "board map")
    maps = importlib.import_module(f"{package}.maps")
    if not lo <= players <= hi:
        raise UserError(f"{args.ruleset} plays with {lo} to {hi} players, got {players}", key="players")
    board = maps.load_map(rs, players)
    zones, edges = maps.plot_data(rs, board)
    store.write_with(out, lambda tmp: save_map(zones, edges, rs["terrains"], tmp,
                                               title=f"{args.ruleset}: the {players}-player board"))
    print(f"wrote {out} ({len(zones)} zones, {len(edges)} adjacencies, "
          f"{sum(z['start'] >= 0 for z in zones)} starting areas)")
    return 0
