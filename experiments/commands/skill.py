"""`balancelab skill`: balance across skill, each entity's knockout effect per bot, bots placed by their ladder rating.

    balancelab skill RULESET --bots random,greedy,trained [--entities A,B] [--games N]
                     [--ladder DIR | --ladder-games N] [--players N] [--seed S] [--jobs J]
                     [--out DIR] [--overwrite]

Rates the bots on the ladder (or reads the ratings of a `balancelab ladder --out DIR`), plays
every entity's paired knockout with every seat the same bot, for each bot, and prints the sign
changes across skill. With --out writes skill_curve.csv, skill_curve.json and skill_curve.png;
`balancelab report` shows them when --out is a sweep's run folder.
"""
from __future__ import annotations

import base64
import json
import time
from pathlib import Path

from simcore.errors import UserError
from simcore.games import GAMES

from ..provenance import versions
from .options import csv_list, load_ruleset

HELP = ("", ["balancelab skill evolution --bots random,greedy,trained --games 2000 --out runs/skill",
             "balancelab skill evolversi --bots greedy,trained --entities Vampirismo,Letargo --games 1000"])

FILES = ("skill_curve.csv", "skill_curve.json", "skill_curve.png")


def register(subparsers) -> None:
    p = subparsers.add_parser("skill", help="balance across skill: each entity's knockout effect per bot, "
                                            "against the bots' ladder ratings",
                              description="For each bot, every seat that bot: play the same games with each entity's "
                                          "effect off (a paired knockout) and, in games with factions, each "
                                          "faction's win rate; place the bots by their ladder rating and flag an "
                                          "effect whose sign changes across skill (docs/metrics.md, "
                                          "\"Balance across skill\").")
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--bots", default=None,
                   help="bots, comma-separated, at least two (default: random and the game's default bot)")
    p.add_argument("--entities", default=None, help="entities to knock out, comma-separated (default: every one)")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--games", type=int, default=2000, help="games per bot and arm (base, each knockout) (default 2000)")
    p.add_argument("--ladder", default=None, metavar="DIR",
                   help="read the ratings from a `balancelab ladder --out DIR` of the same rules, players and bots")
    p.add_argument("--ladder-games", type=int, default=2000,
                   help="without --ladder: games per pair of bots for the ratings (default 2000)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write skill_curve.csv, .json and .png here (a new folder, a sweep's run folder, or "
                        "with --overwrite a previous skill curve's)")
    p.add_argument("--overwrite", action="store_true", help="replace a previous skill curve's files in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_skill)


def check_out(out: Path, overwrite: bool) -> None:
    """--out: new, empty, a sweep's run folder, or (with --overwrite) a previous skill curve's."""
    if not out.exists():
        return
    if not out.is_dir():
        raise UserError("is a file; give a folder", file=str(out), key="--out")
    if (out / FILES[1]).is_file() and not overwrite:
        raise UserError("holds a previous skill curve; pass --overwrite to replace it, or choose another --out",
                        file=str(out))
    if any(out.iterdir()) and not (out / "manifest.json").is_file() and not (out / FILES[1]).is_file():
        raise UserError("exists and holds neither a sweep's run nor a previous skill curve; choose another --out",
                        file=str(out))


def ratings_from(folder: Path, rs, players: int, bots: list[str]) -> dict[str, tuple]:
    """bot -> (rating, low, high) from a ladder's ladder.json, checked against the run asked for."""
    path = folder / "ladder.json"
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise UserError("holds no ladder.json; give the --out folder of `balancelab ladder`", file=str(folder),
                        key="--ladder") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise UserError(f"is not valid JSON: {e}", file=str(path)) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("ratings"), list):
        raise UserError("holds no ratings list; give the ladder.json written by `balancelab ladder`", file=str(path))
    want = {"ruleset_hash": rs.hash, "players": players}
    for key, value in want.items():
        if doc.get(key) != value:
            raise UserError(f"{key} is {doc.get(key)!r}, expected {value!r} (the rules and players asked for here)",
                            file=str(path), key=key)
    by_bot = {r.get("bot"): r for r in doc["ratings"] if isinstance(r, dict)}
    missing = [b for b in bots if b not in by_bot]
    if missing:
        raise UserError(f"rates no bot {', '.join(missing)}; it rates {', '.join(map(str, by_bot))}",
                        file=str(path), key="ratings")
    return {b: (by_bot[b]["rating"], by_bot[b]["ci_low"], by_bot[b]["ci_high"]) for b in bots}


def play_ratings(rs, bots: list[str], players: int, games: int, seed: int, jobs: int, quiet: bool) -> dict:
    from reports.measures.bradley_terry import fit_ratings

    from ..ladder import play_ladder
    lad = play_ladder(rs, bots, players, games, seed, jobs, progress=not quiet)
    r = fit_ratings(lad.matches, lad.bots, seed=seed)
    return {b: (x, lo, hi) for b, x, lo, hi in r.select("bot", "rating", "ci_low", "ci_high").iter_rows()}


def write_outputs(out: Path, manifest: dict, curve, flags) -> list[Path]:
    """skill_curve.png (the figure), skill_curve.csv (the table) and, last, skill_curve.json (the
    run and the flagged lines): a report reads a curve only once both its table and its json exist."""
    from reports.page.html import write_text_atomic
    from reports.page.skill import chart, title_of
    out.mkdir(parents=True, exist_ok=True)
    csv, js, png = (out / f for f in FILES)
    png.write_bytes(base64.b64decode(chart(curve, flags, title_of(manifest)).split(",", 1)[1]))
    write_text_atomic(csv, curve.write_csv())
    write_text_atomic(js, json.dumps(dict(manifest, flags=flags.to_dicts()), indent=2, default=str))
    return [csv, js, png]


def cmd_skill(args) -> int:
    # start-up: the command's library loads when the command runs, not for every --help
    from reports.measures.skill_curve import sign_changes
    from reports.page.skill import curve_text

    from ..ladder import check, parse_bots
    from ..skill_curve import knockout_entities, skill_curve

    game, rs = load_ruleset(args)
    bots = parse_bots(args.bots) if args.bots is not None else ["random", game.default_bot]
    if args.games < 2:
        raise UserError(f"must be at least 2, got {args.games}", key="--games")
    try:
        check(rs, bots, args.players, args.ladder_games, args.seed, args.jobs)
    except UserError as e:          # the ladder's games are this command's --ladder-games
        raise UserError(e.message, file=e.file, key="--ladder-games" if e.key == "--games" else e.key) from None
    knockout_entities(rs, csv_list(args.entities))
    out = Path(args.out) if args.out else None
    if out is not None:
        check_out(out, args.overwrite)
    t0 = time.perf_counter()
    if args.ladder is not None:
        ratings = ratings_from(Path(args.ladder), rs, args.players, bots)
    else:
        ratings = play_ratings(rs, bots, args.players, args.ladder_games, args.seed, args.jobs, args.quiet)

    def load(edits):
        return game.data.load(args.variant, data_dir=args.data, overrides=args.set or [], edits=edits)

    curve = skill_curve(load, bots, ratings, args.players, args.games, args.seed, csv_list(args.entities),
                        args.jobs, progress=not args.quiet)
    flags = sign_changes(curve)
    manifest = {"ruleset": rs.game, "variant": rs.variant, "ruleset_hash": rs.hash, "players": args.players,
                "seed": args.seed, "bots": bots, "games": args.games, "entity_kind": game.entity_kind,
                "ratings": {b: list(v) for b, v in ratings.items()},
                "ratings_from": str(args.ladder) if args.ladder else f"ladder of {args.ladder_games} games per pair",
                "seconds": time.perf_counter() - t0, "versions": versions()}
    print(curve_text(manifest, curve, flags))
    if out is not None:
        paths = write_outputs(out, manifest, curve, flags)
        print("\nwrote " + ", ".join(str(p) for p in paths))
    return 0
