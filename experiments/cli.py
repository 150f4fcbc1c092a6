"""The `balancelab` command line: the roof that wires the layers together.

Nothing imports this module. Every user mistake (a UserError) prints one line on stderr
and exits with code 2; nothing is written on disk before the input has been checked.
"""
from __future__ import annotations

import argparse
import errno
import json
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path

from simcore.errors import EnvironmentFault, UserError
from simcore.games import GAMES, get_game
from simcore.runner import (MAX_BATCH, MAX_GAMES, MAX_HELD_GAMES, MAX_JOBS, MAX_PLAYERS, MAX_SEED, check_count,
                            check_run_size)
from strategies.registry import bot_names

EXIT_USER_ERROR = 2
MAX_BOOTSTRAP = 100_000        # bootstrap resamples (luck)
MAX_POPSIZE = 10_000           # candidates per generation (train)
OUTPUTS = ("out", "json")          # the options that name something a command writes
NAME_KEEP = 64                # characters of an --out name kept in its scratch folder's name (<= 255 in all)
EXIT_ENVIRONMENT = 3          # the machine failed the work: a full disk, an I/O error, a lost scheduler
EXIT_INTERRUPTED = 130        # Ctrl-C (SIGINT)
EXIT_TERMINATED = 143         # SIGTERM
# OS errors about a path the user gave (exit 2); any other OS error is the environment's (exit 3)
USER_ERRNOS = frozenset({errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT, errno.ENOTDIR, errno.EISDIR,
                         errno.ENAMETOOLONG, errno.EEXIST, errno.ENOTEMPTY, errno.ELOOP, errno.EXDEV})
BUILTIN_DATA = "built-in"


# ----------------------------------------------------------------------------- helpers

def _csv_list(text: str | None) -> list[str] | None:
    return None if text is None else [t.strip() for t in text.split(",")]


def load_ruleset(args):
    game = get_game(args.ruleset)
    return game, game.data.load(args.variant, data_dir=args.data, overrides=args.set or [])


def _add_ruleset_options(p: argparse.ArgumentParser, games=True) -> None:
    p.add_argument("ruleset", help=f"ruleset name ({', '.join(GAMES)})")
    p.add_argument("--variant", default="default", help="named variant (see `balancelab rulesets`)")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--bots", default=None, help="bot per seat, comma-separated, or one for all (default greedy)")
    p.add_argument("--animals", "--factions", dest="factions", default=None,
                   help="animal (faction) per seat, comma-separated; 'random' for a random one (default all random)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--set", action="append", metavar="NAME=VALUE", help="override a rule parameter (repeatable)")
    p.add_argument("--data", default=None, metavar="DIR", help="a designer's data folder replacing built-in files")
    if games:
        p.add_argument("--games", type=int, default=10_000, help="number of games (default 10000)")
        p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
        p.add_argument("--batch-size", type=int, default=20_000, help="games per chunk (default 20000)")


def _spec(args):
    from .lineup import run_spec
    game, rs = load_ruleset(args)
    return game, rs, run_spec(rs, args.bots, args.players, _csv_list(args.factions), args.seed,
                              getattr(args, "trajectories", False))


def _versions() -> dict:
    import importlib.metadata as md
    out = {"python": sys.version.split()[0]}
    for pkg in ("balancelab", "numpy", "polars", "pandas", "joblib"):
        try:
            out[pkg] = md.version(pkg)
        except md.PackageNotFoundError:
            out[pkg] = None
    return out


def _git_revision() -> str | None:
    import subprocess
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent,
                              capture_output=True, text=True, timeout=5).stdout.strip() or None
    except Exception:
        return None


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
            from .store import foreign_files
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


# ----------------------------------------------------------------------------- rulesets

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


# ----------------------------------------------------------------------------- run

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
    from .config import one_point_config
    return one_point_config(
        rs.game, variant=rs.variant, data=args.data, overrides=dict(rs.overrides), players=spec.players,
        bots=[b.name for b in spec.bots], factions=_csv_list(args.factions), games=args.games, seed=spec.seed,
        batch_size=args.batch_size, description="one point, written by `balancelab run`",
        file=str(out / "config.toml") if out is not None else "balancelab run", trajectories=spec.trajectories)


def cmd_run(args) -> int:
    """A one-point sweep: the sweep's writer and folder layout; the tables come from reports.metrics."""
    from experiments.grid import expand
    from experiments.store import open_run
    from experiments.sweep import run_sweep
    from reports.coverage import coverage, coverage_summary, coverage_text
    from reports.metrics import point_summary

    if getattr(args, "compare", None) is not None:
        # `run --data A --compare [B]`: this run's data against B (default: the built-in data).
        before = None if args.compare == BUILTIN_DATA else args.compare
        return _compare(args, before, args.data)
    game, rs, spec = _spec(args)
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


# ----------------------------------------------------------------------------- compare

def _ruleset_of(name: str | None, folders: list[str]) -> str:
    """The ruleset named on the command line, else the [game] name of a data folder's params.toml."""
    from simcore.ruleset import read_toml
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


def _compare(args, before: str | None, after: str | None) -> int:
    """Play both sides on the same game indices; print (or --format json) and write --out."""
    from .compare import CompareRequest, as_json, print_comparison, run_compare, write_outputs
    game = get_game(args.ruleset)
    out = Path(args.out) if args.out else None
    if out is not None and out.exists() and not out.is_dir():
        raise UserError("is a file; compare writes a folder (compare.json, compare.html): give a folder name",
                        file=str(out))
    if out is not None and out.exists() and any(out.iterdir()) and not args.overwrite:
        raise UserError("exists and is not empty; pass --overwrite to replace its compare files, or choose "
                        "another --out", file=str(out))
    req = CompareRequest(args.ruleset, before, after, variant=args.variant, players=args.players, bots=args.bots,
                         factions=None if args.factions is None else tuple(_csv_list(args.factions)),
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
    return _compare(args, before, after)


# ----------------------------------------------------------------------------- replay

def cmd_replay(args) -> int:
    import numpy as np
    game, rs, spec = _spec(args)
    if args.game < 0:
        raise UserError(f"must be >= 0, got {args.game}", key="--game")
    log: list[str] = []
    fac = None if spec.factions is None else list(spec.factions)
    from simcore.runner import driver, play
    ref = play(game, rs, spec.players, list(spec.bots), spec.seed, [args.game], fac, "reference", log)
    if driver(spec.bots) is not None:               # a search bot's game: rows of one game
        ref = {k: v[0] for k, v in ref.items() if k != "extra"}
    for line in log:
        print(line)
    batch = play(game, rs, spec.players, list(spec.bots), spec.seed, np.array([args.game]), fac)
    same = (list(np.asarray(batch["score"][0])) == list(ref["score"])
            and list(np.asarray(batch["winner"][0])) == list(ref["winner"])
            and int(batch["rounds"][0]) == int(ref["rounds"]))
    names = game.factions(rs)
    winners = [f"seat {s} ({names[int(ref['faction'][s])]})" for s in range(spec.players) if ref["winner"][s]]
    print()
    print(f"Result (reference engine): {', '.join(winners) or 'no winner'}; "
          f"{game.score_label}s {list(map(int, ref['score']))}; rounds {int(ref['rounds'])}; "
          f"end {game.end_reasons[int(ref['end_reason'])]}")
    print(f"Batch engine, game {args.game}: {game.score_label}s {list(map(int, batch['score'][0]))}; "
          f"rounds {int(batch['rounds'][0])} -> {'the same result' if same else 'A DIFFERENT RESULT'}")
    return 0 if same else 1


# ----------------------------------------------------------------------------- bench

REF_WARMUP_GAMES = 20       # untimed reference games before the timed ones (see cmd_bench)


def cmd_bench(args) -> int:
    import numpy as np
    from .lineup import run_spec
    for flag, value in (("--games", args.games), ("--ref-games", args.ref_games),
                        ("--batch-size", args.batch_size), ("--jobs", args.jobs)):
        if value < 1:
            raise UserError(f"must be at least 1, got {value}", key=flag)
    if args.scale < 0 or args.fanout < 0:
        raise UserError("must be >= 0", key="--scale/--fanout")
    names = [args.ruleset] if args.ruleset else list(GAMES)
    rows = []
    for name in names:
        game = get_game(name)
        rs = game.data.load(args.variant)
        spec = run_spec(rs, args.bots, args.players, None, args.seed)
        bots = list(spec.bots)
        from simcore.runner import driver
        if driver(bots) is not None:          # a search bot plays the games: its own figures
            from .bench_search import bench_search, print_search
            print_search(bench_search(game, rs, spec, args.games, args.ref_games, args.seed))
            continue
        game.play_batch(rs, spec.players, bots, args.seed, np.arange(200))  # warm up
        t0 = time.process_time()
        w0 = time.perf_counter()
        done = 0
        while done < args.games:
            n = min(args.batch_size, args.games - done)
            game.play_batch(rs, spec.players, bots, args.seed, np.arange(done, done + n))
            done += n
        batch_cpu = time.process_time() - t0
        batch_wall = time.perf_counter() - w0
        traj_rate = None
        if getattr(args, "trajectories", False) and game.standing_label is not None:
            # the same games again, recording each seat's standing after each round
            t0 = time.process_time()
            for a in range(0, args.games, args.batch_size):
                game.play_batch(rs, spec.players, bots, args.seed, np.arange(a, min(a + args.batch_size, args.games)),
                                trajectories=True)
            traj_rate = args.games / max(time.process_time() - t0, 1e-9)
        # warm up the reference engine too: a process's first reference games pay one-off
        # costs (measured: Evolversi's games 0-99 at 383 games/s in a fresh process, 429-446
        # when played again), which would flatter the ratio on a small --ref-games
        for g in range(REF_WARMUP_GAMES):
            game.play_one(rs, spec.players, bots, args.seed + 1, g)
        t0 = time.process_time()
        for g in range(args.ref_games):
            game.play_one(rs, spec.players, bots, args.seed, g)
        ref_cpu = time.process_time() - t0
        b_rate = args.games / max(batch_cpu, 1e-9)
        r_rate = args.ref_games / max(ref_cpu, 1e-9)
        rows.append({"ruleset": name, "variant": args.variant, "players": spec.players, "bots": [b.name for b in bots],
                     "batch_games": args.games, "batch_size": args.batch_size,
                     "batch_games_per_cpu_second": b_rate, "batch_wall_seconds": batch_wall,
                     "reference_games": args.ref_games, "reference_games_per_cpu_second": r_rate,
                     "ratio": b_rate / max(r_rate, 1e-9), "trajectories_games_per_cpu_second": traj_rate})
    for r in rows:
        print(f"{r['ruleset']}/{r['variant']}: {r['players']} players, bots {','.join(r['bots'])}")
        print(f"  batch engine     {r['batch_games_per_cpu_second']:>12,.0f} games/s per core "
              f"({r['batch_games']} games, batch {r['batch_size']})")
        print(f"  reference engine {r['reference_games_per_cpu_second']:>12,.0f} games/s per core "
              f"({r['reference_games']} games)")
        print(f"  ratio            {r['ratio']:>12,.1f}x")
        if r["trajectories_games_per_cpu_second"] is not None:
            t = r["trajectories_games_per_cpu_second"]
            print(f"  with trajectories {t:>11,.0f} games/s per core "
                  f"(cost {r['batch_games_per_cpu_second'] / max(t, 1e-9):.2f}x the time)")
    if args.scale:
        import resource
        from simcore.runner import iter_chunks
        for name in names:
            game = get_game(name)
            rs = game.data.load(args.variant)
            spec = run_spec(rs, args.bots, args.players, None, args.seed)
            w0 = time.perf_counter()
            n = 0
            for a, b, g, t in iter_chunks(spec, args.scale, args.batch_size, args.jobs):
                n += g.height
            wall = time.perf_counter() - w0
            peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            peak_kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
            if args.jobs > 1:
                # loky keeps its workers alive: ask them (the same reused pool) for their peak.
                from joblib import Parallel, delayed
                peaks = Parallel(n_jobs=args.jobs)(delayed(_peak_rss_mib)() for _ in range(4 * args.jobs))
                peak_kids = max([peak_kids, *peaks])
            print(f"{name}: {n:,} games with {args.jobs} jobs in {wall:.1f} s wall "
                  f"({n / wall:,.0f} games/s); peak RSS: main {peak_self:.0f} MiB, largest worker {peak_kids:.0f} MiB")
            rows.append({"scale": {"ruleset": name, "games": n, "jobs": args.jobs, "wall_seconds": wall,
                                   "peak_main_mib": peak_self, "peak_worker_mib": peak_kids}})
    if args.fanout:
        from experiments.bench_sweep import bench_fanout
        for name in names:
            r = bench_fanout(games=args.fanout, jobs=args.jobs, batch_size=min(args.batch_size, 5_000),
                             ruleset=name, players=args.players)
            print(f"{name}: sweep fan-out, {r['games']:,} games in chunks of {r['batch_size']:,}")
            print(f"  single run (run_chunk loop, 1 process) {r['loop_games_per_s']:>10,.0f} games/s")
            print(f"  sweep, 1 worker                        {r['sweep_1_worker_games_per_s']:>10,.0f} games/s "
                  f"(overhead {r['overhead_serial']:.1%})")
            print(f"  sweep, {r['jobs']} workers ({r['backend']})             {r['sweep_games_per_s']:>10,.0f} games/s "
                  f"(overhead against {r['jobs_used']}x the single run: {r['overhead']:.1%})")
            rows.append({"fanout": r})
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


def cmd_warmup(args) -> int:
    """Build each game's batch engine with its default bots (compile, or load the cache)."""
    from .lineup import run_spec
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


def _peak_rss_mib() -> float:
    import resource
    time.sleep(0.05)   # let every worker take a share of the probes
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# ----------------------------------------------------------------------------- validate

def cmd_validate(args) -> int:
    """Check a designer's data folder: every problem of every file (experiments.validate)."""
    from .validate import validate_folder
    return validate_folder(args.dir, args.ruleset)


# ----------------------------------------------------------------------------- setup

def cmd_setup(args) -> int:
    """Play a game's setup from a seed on either engine and print the state after it (the
    scenario state format; a scenario with "until": "setup" checks one)."""
    from strategies.registry import make_bots
    game, rs = load_ruleset(args)
    bots = make_bots(game.name, args.bots or game.default_bot, args.players, rs)
    state = game.new_state(rs, args.players, bots, args.seed, args.game, factions=_csv_list(args.factions),
                           engine=args.engine)
    print(json.dumps(state, indent=2))
    return 0


# ----------------------------------------------------------------------------- scenario

def cmd_scenario(args) -> int:
    path = Path(args.file)
    try:
        doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise UserError("no such file", file=str(path)) from None
    except json.JSONDecodeError as e:
        raise UserError(f"is not valid JSON: {e}", file=str(path)) from None
    from experiments.scenario import run_scenario
    result, mismatches = run_scenario(doc, args.engine, str(path))

    def plain(o):
        import numpy as np
        if isinstance(o, np.generic):
            return o.item()
        if isinstance(o, np.ndarray):
            return o.tolist()
        return str(o)
    print(json.dumps(result, indent=2, default=plain))
    for m in mismatches:
        print(f"expectation failed: {m}", file=sys.stderr)
    return 1 if mismatches else 0


# ----------------------------------------------------------------------------- conformance

def cmd_conformance(args) -> int:
    if args.suite != "cs4500":
        raise UserError(f"unknown conformance suite {args.suite!r}; known: cs4500", key="suite")
    try:
        from simcore.games.evolution.conformance import main as harness_main
    except ImportError:
        raise UserError("the Evolution ruleset (cs4500 harness) is not installed in this build") from None
    from strategies.registry import make_bot
    return harness_main(args.harness, args.engine, sys.stdin, sys.stdout, make_bot("evolution", "silly"))


def cmd_tune(args) -> int:
    from experiments.tune.run import proposal_text, tune
    try:
        summary = tune(args.config, args.out, jobs=args.jobs, backend=args.backend, scheduler=args.scheduler,
                       resume=args.resume, progress=not args.quiet)
    except KeyboardInterrupt as e:
        e.hint = (f"interrupted; finished games are kept: resume with "
                  f"`balancelab tune {args.config} --out {args.out} --resume`")
        raise
    print(proposal_text(summary))
    print(f"wrote {args.out}/ (data/, evaluations.csv, report.html)")
    return 0


# ----------------------------------------------------------------------------- main

def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="balancelab", description="Monte Carlo balance lab for tabletop games.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("rulesets", help="list rulesets, variants, player counts and parameters")
    p.set_defaults(func=cmd_rulesets)

    p = sub.add_parser("run", help="play many games and print a balance table")
    _add_ruleset_options(p)
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

    p = sub.add_parser("compare", help="the same games on two data folders: paired changes of every win rate",
                       description="Play the same game indices on two sides (common random numbers) and print, per "
                                   "seat, faction and changed or affected entity, the change in win rate with a "
                                   "paired 95% interval, the change in game length and balance, and the edit itself. "
                                   "One --data: that folder (after) against the built-in data (before); two: the "
                                   "second (after) against the first (before).")
    p.add_argument("ruleset", nargs="?", default=None,
                   help=f"ruleset name ({', '.join(GAMES)}; default: the data folder's params.toml [game] name)")
    p.add_argument("--data", action="append", metavar="DIR", help="a data folder (give one or two)")
    p.add_argument("--variant", default="default", help="named variant, on both sides")
    p.add_argument("--players", type=int, default=4, help="number of players (default 4)")
    p.add_argument("--bots", default=None, help="bot per seat, comma-separated, or one for all (default greedy)")
    p.add_argument("--animals", "--factions", dest="factions", default=None,
                   help="animal (faction) per seat, comma-separated; 'random' for a random one (default all random)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
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

    p = sub.add_parser("replay", help="the readable log of one game (reference engine), checked against the batch engine")
    _add_ruleset_options(p, games=False)
    p.add_argument("--game", type=int, required=True, help="game index K")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("bench", help="games per second per core: batch engine vs reference engine")
    p.add_argument("ruleset", nargs="?", default=None)
    p.add_argument("--variant", default="default")
    p.add_argument("--trajectories", action="store_true",
                   help="also time the batch engine recording trajectories (games that record them)")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--bots", default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--games", type=int, default=50_000, help="batch-engine games (default 50000)")
    p.add_argument("--ref-games", type=int, default=300, help="reference-engine games (default 300)")
    p.add_argument("--batch-size", type=int, default=20_000)
    p.add_argument("--scale", type=int, default=0, metavar="N",
                   help="also run N games through the runner with --jobs workers; report wall time and peak memory")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--fanout", type=int, default=0, metavar="N",
                   help="also measure the sweep fan-out overhead on N games (sweep vs a single run)")
    p.add_argument("--json", default=None, metavar="FILE", help="also write the figures as JSON")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser("warmup", help="compile each game's batch engine and default bots now; seconds per game")
    p.add_argument("ruleset", nargs="?", default=None)
    p.set_defaults(func=cmd_warmup)

    p = sub.add_parser("validate", help="check a designer's data folder and report every problem")
    p.add_argument("dir")
    p.add_argument("--ruleset", default=None, help="which ruleset the folder is for (default: params.toml [game] name)")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("setup", help="play a game's setup from a seed and print the state after it (scenario format)")
    _add_ruleset_options(p, games=False)
    p.add_argument("--game", type=int, default=0, help="game index within the run (default 0)")
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(func=cmd_setup)

    p = sub.add_parser("scenario", help="run a scenario file (a game state, scripted choices) and print the result")
    p.add_argument("file")
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(func=cmd_scenario)

    p = sub.add_parser("conformance", help="external conformance harnesses (JSON on stdin -> JSON on stdout)")
    p.add_argument("suite", help="cs4500")
    p.add_argument("harness", choices=("xattack", "xfeed", "xstep", "xstep4", "xsilly"))
    p.add_argument("--engine", choices=("batch", "reference"), default="batch")
    p.set_defaults(func=cmd_conformance)

    p = sub.add_parser("tune", help="propose the smallest data edit that meets balance targets, proved on fresh games")
    p.add_argument("config", metavar="CONFIG", help="tuning config (TOML), e.g. experiments/configs/tune_market.toml")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder (data/, evaluations, report.html)")
    p.add_argument("--jobs", type=int, default=1, metavar="J", help="parallel workers (default 1)")
    p.add_argument("--backend", choices=("loky", "dask"), default="loky", help="loky or dask (default loky)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="dask scheduler address")
    p.add_argument("--resume", action="store_true", help="finish an interrupted search in --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_tune)

    from experiments.map_cli import register as register_map
    register_map(sub)

    try:
        from experiments.sweep_cli import register
    except ImportError:
        register = None
    if register is not None:
        register(sub)
    from experiments.ladder_cli import register as register_ladder
    register_ladder(sub)
    from experiments.luck_cli import register as register_luck
    register_luck(sub)
    from experiments.kingmaking_cli import register as register_kingmaking
    register_kingmaking(sub)
    from experiments.train_cli import register as register_train
    register_train(sub)
    from experiments.plan import register as register_plan
    register_plan(sub)
    for name, p in sub.choices.items():
        description, examples = COMMAND_HELP[name]
        p.description = p.description or description
        p.epilog = "examples:\n" + "\n".join("  " + e for e in examples)
        p.formatter_class = _ExamplesFormatter
    return ap


class _ExamplesFormatter(argparse.HelpFormatter):
    """Wraps the description as usual, and keeps each indented example line as written."""

    def _fill_text(self, text, width, indent):
        return "\n".join(line if line.startswith("  ") else super(_ExamplesFormatter, self)._fill_text(line, width, indent)
                         for line in text.splitlines())


# Each command's --help: a description (where its parser has none) and examples that run as written.
COMMAND_HELP = {
    "rulesets": ("List every ruleset with its variants and player counts, and every rule parameter with its "
                 "value and source (rulebook, inferred or default).",
                 ["balancelab rulesets"]),
    "run": ("Play many games of one configuration (ruleset, variant, data, bots) and print a balance table: win "
            "rates per seat, faction and bot with 95% intervals, game length, end reasons, the cards winners "
            "bought. --out DIR writes a run folder that `balancelab report` reads.",
            ["balancelab run evolversi --games 20000 --jobs 2",
             "balancelab run capybara --bots greedy,random,random,random --out runs/capybara --format table",
             "balancelab run evolversi --data my-cards/ --compare"]),
    "compare": ("", ["balancelab compare evolversi --data my-cards/ --games 20000",
                     "balancelab compare --data before/ --data after/ --out runs/compare"]),
    "replay": ("Print the readable log of one game from the reference engine, then check that the batch engine "
               "played the same game (exit code 1 if not).",
               ["balancelab replay evolversi --seed 0 --game 3",
                "balancelab replay evo --bots rollout:k=8,greedy,greedy,greedy --game 0"]),
    "bench": ("Time the batch engine against the reference engine on the same games (CPU seconds per process, "
              "so games/s per core and their ratio); --scale adds the wall time and peak memory of N games on "
              "--jobs workers. docs/benchmarks.md is regenerated by python -m experiments.benchmarks_page.",
              ["balancelab bench evolversi --games 50000 --ref-games 300",
               "balancelab bench evo --games 2000 --ref-games 10 --scale 1000000 --jobs 2"]),
    "warmup": ("Build each game's compiled engine and default bots now (once per source version; the build is "
               "cached in ~/.cache/balancelab or $BALANCELAB_CACHE_DIR) and print the seconds each took.",
               ["balancelab warmup", "balancelab warmup evo"]),
    "validate": ("Check a designer's data folder (params.toml, card tables, variants) against the ruleset's "
                 "schema and print every problem with its file, row and column; exit code 2 if there is one.",
                 ["balancelab validate my-cards/ --ruleset evolversi"]),
    "scenario": ("Load a game state from a scenario file, play it forward with the scripted choices on one "
                 "engine and check the expected result (docs/scenarios.md).",
                 ["balancelab scenario tests/scenarios/evo/meteorite_tie_on_mp_and_dinosaurs_is_a_shared_win.json",
                  "balancelab scenario tests/scenarios/evo/meteorite_tie_on_mp_and_dinosaurs_is_a_shared_win.json "
                  "--engine reference"]),
    "conformance": ("Answer one case of Evolution's cs4500 conformance harnesses: a JSON value on stdin, the "
                    "answer as JSON on stdout, on either engine.",
                    ["balancelab conformance cs4500 xfeed < case.json",
                     "balancelab conformance cs4500 xstep --engine reference < case.json"]),
    "tune": ("Search for the fewest data edits (rule numbers, card values) that meet the config's balance "
             "targets, then replay the best on fresh games to prove it (docs/tune.md; every key: "
             "docs/config.md).",
             ["balancelab tune experiments/configs/tune_market.toml --out runs/tune-market --jobs 2",
              "balancelab tune experiments/configs/tune_market.toml --out runs/tune-market --jobs 2 --resume"]),
    "map": ("Draw a game's board from its map data (zones by terrain, coasts, adjacency, starting areas) "
            "into a PNG file; a designer's maps in --data are checked and drawn the same way.",
            ["balancelab map evo", "balancelab map evo --players 5 --out board-5p.png"]),
    "sweep": ("", ["balancelab sweep experiments/configs/quick.toml --out out/quick --jobs 2",
                   "balancelab sweep experiments/configs/quick.toml --out out/quick --jobs 2 --resume"]),
    "report": ("Print the balance table of a run folder (from `sweep`, or `run --out`) and write its "
               "self-contained HTML report: the answer first, then the evidence.",
               ["balancelab report out/quick", "balancelab report out/quick --out quick.html"]),
    "ladder": ("", ["balancelab ladder capybara --bots random,greedy,rollout --games 2000 --jobs 2",
                    "balancelab ladder evolversi --bots greedy,greedy:weights=trained.toml --games 8000"]),
    "luck": ("", ["balancelab luck evolversi --bots greedy,random --field greedy --games 4000",
                  "balancelab luck evo --outcome score --out runs/luck-evo"]),
    "train": ("", ["balancelab train capybara --budget 200000 --jobs 2 --out trained.toml"]),
    "setup": ("Play a game's setup from a seed and print the state after it, in the scenario state format, on "
              "either engine; a scenario file with \"until\": \"setup\" checks it (docs/scenarios.md).",
              ["balancelab setup capybara --players 3 --seed 1",
               "balancelab setup evo --players 5 --engine reference"]),
    "plan": ("", ["balancelab plan experiments/configs/quick.toml",
                  "balancelab plan experiments/configs/quick.toml --precision 1.0 --pilot 500"]),
    "kingmaking": ("", ["balancelab kingmaking evolution --players 4 --games 40 --bots greedy,trained",
                        "balancelab kingmaking capybara --players 3 --games 20"]),
}


def check_counts(args) -> None:
    """Every count given on the command line within its documented limit (docs/reliability.md),
    before any work: one line and exit 2 for --games 10^30. `run` streams its games into chunk
    files (flat memory), so it may ask for up to MAX_GAMES; the commands that hold every game's
    rows (compare, ladder, luck, train, bench) up to MAX_HELD_GAMES."""
    streamed = getattr(args.func, "__name__", "") == "cmd_run" and getattr(args, "compare", None) is None
    limits = {"games": (1, MAX_GAMES if streamed else MAX_HELD_GAMES), "budget": (1, MAX_HELD_GAMES),
              "ref_games": (1, MAX_HELD_GAMES), "scale": (0, MAX_GAMES), "fanout": (0, MAX_HELD_GAMES),
              "game": (0, MAX_GAMES - 1), "players": (1, MAX_PLAYERS), "jobs": (1, MAX_JOBS),
              "batch_size": (1, MAX_BATCH), "seed": (0, MAX_SEED), "bootstrap": (1, MAX_BOOTSTRAP),
              "popsize": (1, MAX_POPSIZE)}
    for attr, (lo, hi) in limits.items():
        value = getattr(args, attr, None)
        if isinstance(value, int) and not isinstance(value, bool):
            check_count(value, "--" + attr.replace("_", "-"), lo, hi)


def check_output_path(path: str | Path, flag: str, folder_must_exist: bool = False) -> None:
    """An output path we can create, checked before any work: every name short enough for the
    file system, and the nearest existing folder on the way a writable folder (the parent
    folder itself when `folder_must_exist`: a writer that creates no folders)."""
    path = Path(path).expanduser().absolute()
    chain = [path, *path.parents]
    existing = next(p for p in chain if _exists(p))
    limit = os.pathconf(existing if existing.is_dir() else existing.parent, "PC_NAME_MAX")
    long = next((part for part in path.parts if len(part.encode()) > limit), None)
    if long is not None:
        raise UserError(f"the name {long[:40]}... has {len(long.encode())} bytes; the file system allows {limit}",
                        file=str(path), key=flag)
    if existing != path and not existing.is_dir():
        raise UserError(f"{existing} is a file, not a folder", file=str(path), key=flag)
    if folder_must_exist and existing not in (path, path.parent):
        raise UserError(f"the folder {path.parent} does not exist", file=str(path), key=flag)
    folder = existing if existing.is_dir() else existing.parent
    if not os.access(folder, os.W_OK | os.X_OK):
        why = "is on a read-only file system" if _read_only(folder) else "is not writable"
        raise UserError(f"the folder {folder} {why}; choose another place", file=str(path), key=flag)


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:                       # e.g. a name too long to look up
        return False


def _read_only(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False




class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the process is, so that every cleanup (scratch folders, the run
    folder's lock) runs as on Ctrl-C."""


def _on_sigterm(signum, frame):
    raise Terminated()


def os_error_line(e: OSError) -> tuple[str, int]:
    """One line for an OS error and its exit code: 2 for a path the user gave, 3 for the machine."""
    where = e.filename if e.filename is not None else ""
    what = e.strerror or str(e)
    if e.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        what += " (free some space; a sweep keeps its finished chunks: resume it with --resume)"
    line = f"{where}: {what}" if where else what
    return line, EXIT_USER_ERROR if e.errno in USER_ERRNOS else EXIT_ENVIRONMENT


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:                   # not the main thread (an embedding program): leave SIGTERM alone
        previous = None
    try:
        check_counts(args)
        for attr in OUTPUTS:
            if isinstance(getattr(args, attr, None), str):
                check_output_path(getattr(args, attr), "--" + attr, folder_must_exist=attr == "json")
        return int(args.func(args) or 0)
    except UserError as e:
        print(f"balancelab: error: {e.render()}", file=sys.stderr)
        return EXIT_USER_ERROR
    except EnvironmentFault as e:
        print(f"balancelab: error: {e.message}", file=sys.stderr)
        return EXIT_ENVIRONMENT
    except OSError as e:
        if isinstance(e, BrokenPipeError):       # the reader (e.g. `| head`) went away: stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        line, code = os_error_line(e)
        print(f"balancelab: error: {line}", file=sys.stderr)
        return code
    except KeyboardInterrupt as e:
        print(f"balancelab: {getattr(e, 'hint', None) or 'interrupted'}", file=sys.stderr)
        return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


if __name__ == "__main__":
    sys.exit(main())
