"""`balancelab run`: play many games of one configuration and print its balance table.

A one-point sweep: the sweep's writer and folder layout (experiments.sweep); the tables come
from reports.measures. `--out DIR` keeps the run folder that `balancelab report` reads;
nothing is written before every input has been checked, and a previous run's folder is
replaced only once the new one is complete.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

from reports.measures.coverage import coverage, coverage_summary, coverage_text
from reports.measures.metrics import point_summary
from simcore.errors import UserError
from simcore.runner import check_run_size

from ..config import one_point_config
from ..grid import expand
from ..store import foreign_files, open_run
from ..sweep import run_sweep
from .compare import BUILTIN_DATA, compare_sides
from .options import add_ruleset_options, csv_list, spec_of

NAME_KEEP = 64                # characters of an --out name kept in its scratch folder's name (<= 255 in all)

HELP = ("Play many games of one configuration (ruleset, variant, data, bots) and print a balance table: win "
        "rates per seat, faction and bot with 95% intervals, game length, end reasons, the cards winners "
        "bought. --out DIR writes a run folder that `balancelab report` reads.",
        ["balancelab run evolversi --games 20000 --jobs 2",
         "balancelab run capybara --bots greedy,random,random,random --out runs/capybara --format table",
         "balancelab run evolversi --data my-cards/ --compare"])


def register(subparsers) -> None:
    p = subparsers.add_parser("run", help="play many games and print a balance table")
    add_ruleset_options(p)
    p.add_argument("--out", default=None, metavar="DIR", help="write per-game parquet rows + manifest.json here")
    p.add_argument("--overwrite", action="store_true", help="replace a previous run's output in --out")
    p.add_argument("--format", choices=("table", "json"), default="table")
    p.add_argument("--trajectories", action="store_true",
                   help="also record each seat's standing after each round (the report's \"How the game "
                        "unfolds\" section; games whose engines record them)")
    p.add_argument("--compare", nargs="?", const=BUILTIN_DATA, default=None, metavar="DIR",
                   help="compare this run's data (--data) against DIR (default: the built-in data) on the same "
                        "games, as `balancelab compare`; --out then holds the comparison")
    p.set_defaults(func=cmd_run)


def check_out_folder(out: Path, overwrite: bool) -> Path:
    """An --out folder we may write: new, empty, or (with --overwrite) a previous run's output.

    Never the current folder, one of its parents, or the home folder.
    """
    resolved = out.expanduser().resolve()
    cwd = Path.cwd().resolve()
    if resolved == cwd or resolved in cwd.parents or resolved == Path.home().resolve():
        raise UserError("is the current folder, one of its parents or the home folder; give a new folder",
                        file=str(out))
    if resolved.exists():
        if not resolved.is_dir():
            raise UserError("exists and is not a folder", file=str(out))
        if any(resolved.iterdir()):
            manifest = resolved / "manifest.json"
            previous_run = False
            if manifest.is_file():
                try:
                    previous_run = json.loads(manifest.read_text()).get("command") == "run"
                except (ValueError, OSError, AttributeError):
                    previous_run = False
            if not previous_run:
                raise UserError("output folder is not empty and holds no previous `run` output; "
                                "choose another --out", file=str(out))
            if not overwrite:
                raise UserError("output folder holds a previous run; pass --overwrite to replace it, "
                                "or choose another --out", file=str(out))
            foreign = foreign_files(resolved)
            if foreign:
                shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
                raise UserError(f"--overwrite replaces only what balancelab wrote, and this folder also holds "
                                f"{shown}; move those away or choose another --out", file=str(out))
    return resolved


def replace_folder(new: Path, out: Path) -> None:
    """Put `new` at `out`; an old `out` is moved aside first and removed only afterwards."""
    old = None
    if out.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{out.name[:NAME_KEEP]}.old-", dir=out.parent))
        os.replace(out, old / "previous")
    os.replace(new, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _print_summary(d: dict, game, rs, spec, elapsed: float) -> None:
    print(f"{rs.id} (hash {rs.hash})  players {spec.players}  bots {','.join(b.name for b in spec.bots)}  seed {spec.seed}")
    print(f"{d['games']} games in {elapsed:.2f} s ({d['games'] / max(elapsed, 1e-9):,.0f} games/s)")
    print()
    # fair = the fair share, 1 / players: what every seat, animal and bot would win in a balanced game.
    fair = 1.0 / spec.players
    print(f"{'seat':<14}{'win rate':>9}{'fair':>7}   95% interval")
    for r in d["seats"]:
        print(f"{'seat ' + str(r['seat']):<14}{r['win_rate']:>9.3f}{fair:>7.3f}   [{r['ci_low']:.3f}, {r['ci_high']:.3f}]")
    print()
    print(f"{game.faction_label:<14}{'games':>8}{'win rate':>10}{'fair':>7}   95% interval")
    for r in d["factions"]:
        print(f"{r['faction']:<14}{r['games']:>8}{r['win_rate']:>10.3f}{fair:>7.3f}   [{r['ci_low']:.3f}, {r['ci_high']:.3f}]")
    if len(d["bots"]) > 1:
        print()
        for r in d["bots"]:
            print(f"bot {r['bot']:<10}{r['games']:>8}{r['win_rate']:>10.3f}{fair:>7.3f}   [{r['ci_low']:.3f}, {r['ci_high']:.3f}]")
    print()
    print(f"rounds: mean {d['mean_rounds']:.2f}, sd {d['sd_rounds']:.2f}")
    print("end reasons: " + ", ".join(f"{k} {v} ({v / max(d['games'], 1):.1%})" for k, v in d["end_reasons"].items()))
    print(f"balance (1 - largest {game.faction_label} win-rate gap): {d['balance']:.3f}")
    print(f"(fair = the fair share of wins, 1 / {spec.players} players)")


def _run_config(args, rs, spec, out: Path | None):
    """`run`'s options as the config of a one-point sweep (the run folder keeps it as config.toml)."""
    return one_point_config(
        rs.game, variant=rs.variant, data=args.data, overrides=dict(rs.overrides), players=spec.players,
        bots=[b.name for b in spec.bots], factions=csv_list(args.factions), games=args.games, seed=spec.seed,
        batch_size=args.batch_size, description="one point, written by `balancelab run`",
        file=str(out / "config.toml") if out is not None else "balancelab run", trajectories=spec.trajectories)


def cmd_run(args) -> int:
    """A one-point sweep: the sweep's writer and folder layout; the tables come from reports.measures.metrics."""
    if getattr(args, "compare", None) is not None:
        # `run --data A --compare [B]`: this run's data against B (default: the built-in data).
        before = None if args.compare == BUILTIN_DATA else args.compare
        return compare_sides(args, before, args.data)
    game, rs, spec = spec_of(args)
    check_run_size(args.games, args.batch_size, "--games", "--batch-size")
    out = check_out_folder(Path(args.out), args.overwrite) if args.out else None
    cfg = _run_config(args, rs, spec, out)
    expand(cfg)                          # every check before anything is written
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{out.name[:NAME_KEEP]}.partial-" if out else "balancelab-run-",
                                    dir=out.parent if out else None))
    try:
        t0 = time.perf_counter()
        run_sweep(cfg, scratch, jobs=args.jobs, progress=True, command="run")
        elapsed = time.perf_counter() - t0
        finished = open_run(scratch)
        summary = point_summary(finished.scan_games(0))   # streamed: flat memory
        acquirable = getattr(game, "acquirable_entities", None)      # a game that deals some entities
        names = game.entities(rs) if acquirable is None else acquirable(rs, spec.players)
        cov = coverage(finished.scan_games(0), finished.tallies(), names)
        if out is not None:
            os.chmod(scratch, 0o755)
            replace_folder(scratch, out)
            scratch = None
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    if args.format == "json":
        d = summary
        print(json.dumps({"ruleset": rs.game, "variant": rs.variant, "ruleset_hash": rs.hash, "seed": spec.seed,
                          "players": spec.players, "bots": [b.name for b in spec.bots], "games": d["games"],
                          "seats": d["seats"], "factions": d["factions"], "bots_table": d["bots"],
                          "mean_rounds": d["mean_rounds"], "sd_rounds": d["sd_rounds"],
                          "end_reasons": d["end_reasons"], "balance": d["balance"],
                          "coverage": [{k: v for k, v in c.items() if k != "point"} for c in coverage_summary(cov)],
                          "games_per_second": d["games"] / max(elapsed, 1e-9)}, indent=2))
    else:
        _print_summary(summary, game, rs, spec, elapsed)
        print()
        print("\n".join(coverage_text(cov, game.entity_kind)))
        if args.out:
            print(f"\nwrote {args.out}/ (chunks/, manifest.json, config.toml, rulesets/); "
                  f"report: balancelab report {args.out}")
    return 0
