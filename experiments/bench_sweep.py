"""Fan-out overhead of the sweep runner: a sweep's games/s against a plain run_chunk loop.

    from experiments.bench_sweep import bench_fanout
    bench_fanout(games=40_000, jobs=2)   # -> dict of rates and overheads

Both sides play the same games (one point, the same chunks). The plain loop is the
single-process baseline; `overhead` compares the sweep with `jobs` workers against the
ideal, `jobs_used` times the loop's rate (jobs_used = min(jobs, CPU cores)), so it counts
what the fan-out costs per game: shipping rulesets and rows, parquet writes, the manifest,
the main process's share of the cores. Worker start-up (process spawn and imports, paid
once per sweep) is timed apart, as `worker_start_seconds`. `overhead_serial` is the same for a one-worker sweep (store costs
alone). Run: python -m experiments.bench_sweep [games] [jobs].
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from simcore.runner import chunk_bounds, run_chunk

from .config import load_config
from .grid import expand
from .sweep import run_sweep

CONFIG = """
name = "bench"
ruleset = "{ruleset}"
players = {players}
games = {games}
seed = 7
batch_size = {batch}
"""


def _warm_workers(spec, jobs: int) -> None:
    """Start the loky workers and load the engine in each (the pool is reused by the sweep)."""
    from joblib import Parallel, delayed  # start-up: joblib, only when timing the fan-out
    Parallel(n_jobs=jobs, backend="loky")(delayed(run_chunk)(spec, 0, 50) for _ in range(2 * jobs))


def bench_fanout(games: int = 40_000, jobs: int = 2, batch_size: int = 5_000, ruleset: str = "evolversi",
                 players: int = 4, backend: str = "loky") -> dict:
    """Time the same games three ways (loop, 1-worker sweep, `jobs`-worker sweep); return rates."""
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as tmp:
        path = Path(tmp) / "bench.toml"
        path.write_text(CONFIG.format(ruleset=ruleset, players=players, games=games, batch=batch_size))
        cfg = load_config(path)
        spec = expand(cfg)[0].spec
        run_chunk(spec, 0, min(200, games))                    # warm up imports and tables
        t0 = time.perf_counter()
        for a, b in chunk_bounds(0, games, batch_size):
            run_chunk(spec, a, b)
        loop = time.perf_counter() - t0
        t0 = time.perf_counter()
        run_sweep(cfg, Path(tmp) / "serial", jobs=1)
        serial = time.perf_counter() - t0
        t0 = time.perf_counter()
        if backend == "loky":
            _warm_workers(spec, jobs)
        warm = time.perf_counter() - t0
        t0 = time.perf_counter()
        run_sweep(cfg, Path(tmp) / "parallel", jobs=jobs, backend=backend)
        parallel = time.perf_counter() - t0
    used = max(1, min(jobs, os.cpu_count() or 1))
    rate = {k: games / v for k, v in (("loop", loop), ("serial", serial), ("parallel", parallel))}
    return {"ruleset": ruleset, "players": players, "games": games, "batch_size": batch_size, "jobs": jobs,
            "jobs_used": used, "backend": backend, "loop_games_per_s": rate["loop"],
            "sweep_1_worker_games_per_s": rate["serial"], "sweep_games_per_s": rate["parallel"],
            "speedup": rate["parallel"] / rate["loop"],
            "overhead": 1 - rate["parallel"] / (used * rate["loop"]),
            "overhead_serial": 1 - rate["serial"] / rate["loop"], "worker_start_seconds": warm}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    games = int(argv[0]) if argv else 40_000
    jobs = int(argv[1]) if len(argv) > 1 else 2
    r = bench_fanout(games=games, jobs=jobs)
    print(f"{r['games']:,} games of {r['ruleset']} ({r['players']} players), chunks of {r['batch_size']:,}")
    print(f"  run_chunk loop, 1 process   {r['loop_games_per_s']:>10,.0f} games/s")
    print(f"  sweep, 1 worker             {r['sweep_1_worker_games_per_s']:>10,.0f} games/s "
          f"(overhead {r['overhead_serial']:.1%})")
    print(f"  sweep, {r['jobs']} workers ({r['backend']})    {r['sweep_games_per_s']:>10,.0f} games/s "
          f"(speed-up {r['speedup']:.2f}x; overhead against {r['jobs_used']}x the loop: {r['overhead']:.1%})")
    print(f"  worker start-up (once per sweep)  {r['worker_start_seconds']:.2f} s")
    print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
