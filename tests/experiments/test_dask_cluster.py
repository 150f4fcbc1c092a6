"""The cluster path as a user runs it: a real `dask scheduler`, two `dask worker` processes
(127.0.0.1 only), and `balancelab sweep --backend dask --scheduler tcp://...`.

The sweep must give the same rows as local processes (loky), every worker must have
played chunks, and the workers must load compiled engines from the build the sweep made
in its own process before fanning out (numba's cache), never compile them themselves.
The processes are torn down whatever happens (the fixture's finally).
"""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from experiments import store

REPO = Path(__file__).resolve().parents[2]
EVOLVERSI = """
ruleset = "evolversi"
players = 3
games = 240
seed = 11
batch_size = 20
[[grid]]
param = "fourth_card_space"
values = [3, 5]
"""
EVOLUTION = """
ruleset = "evolution"
players = 4
bots = ["greedy", "silly", "greedy", "silly"]
games = 400
seed = 5
batch_size = 50
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(procs: list[subprocess.Popen]) -> None:
    """Terminate each process group we started (a worker's nanny and its worker), then kill what is left."""
    for p in procs:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@contextlib.contextmanager
def dask_cluster(folder: Path, env: dict, procs: list | None = None):
    """A scheduler and two single-thread workers on 127.0.0.1; yields the scheduler address.
    `procs`, given, receives the processes started (the scheduler first)."""
    from distributed import Client
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [] if procs is None else procs

    def start(*args: str, log: str):
        with open(folder / log, "w") as err:     # the child keeps its own handle
            procs.append(subprocess.Popen([sys.executable, "-m", *args], cwd=folder, env=env,
                                          start_new_session=True, stdout=subprocess.DEVNULL, stderr=err))
    try:
        start("distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard",
              log="scheduler.log")
        for i in range(2):
            start("distributed.cli.dask_worker", address, "--host", "127.0.0.1", "--nworkers", "1",
                  "--nthreads", "1", "--no-dashboard", "--local-directory", str(folder / f"w{i}"),
                  log=f"worker{i}.log")
        deadline = time.monotonic() + 60
        while True:
            try:
                with Client(address, timeout="5s") as client:
                    client.wait_for_workers(2, timeout=60)
                break
            except (OSError, TimeoutError):
                if time.monotonic() > deadline or any(p.poll() is not None for p in procs):
                    raise
                time.sleep(0.5)
        yield address
    finally:
        _stop(procs)


def sweep(config: Path, out: Path, env: dict, *options: str) -> pl.DataFrame:
    """`balancelab sweep` in its own process, as a user types it; the run's rows in (point, game) order."""
    res = subprocess.run([sys.executable, "-m", "experiments.cli", "sweep", str(config), "--out", str(out),
                          "--quiet", *options], cwd=REPO, env=env, capture_output=True, text=True, timeout=1200)
    assert res.returncode == 0, res.stderr[-3000:]
    run = store.open_run(out)
    assert run.complete
    return run.games().with_columns(pl.col(pl.Categorical).cast(pl.Utf8)).sort(["point", "game"])


def worker_report():
    """A probe for client.run (defined inside a function so it travels by value, not by module name)."""
    def probe(dask_worker):
        import sys as _sys
        from numba.core.dispatcher import Dispatcher
        hits = misses = 0
        for name, module in list(_sys.modules.items()):
            if module is None or not name.startswith(("simcore.", "strategies.")):
                continue
            for obj in list(vars(module).values()):
                if isinstance(obj, Dispatcher):
                    hits += sum(obj.stats.cache_hits.values())
                    misses += sum(obj.stats.cache_misses.values())
        return {"chunks": dask_worker.state.executed_count, "cache_hits": hits, "cache_misses": misses}
    return probe


def run_on_cluster(tmp_path: Path, text: str, env: dict) -> tuple[pl.DataFrame, pl.DataFrame, list[dict]]:
    from distributed import Client
    config = tmp_path / "cluster.toml"
    config.write_text(text)
    with dask_cluster(tmp_path, env) as address:
        on_cluster = sweep(config, tmp_path / "dask", env, "--backend", "dask", "--scheduler", address)
        with Client(address, timeout="10s") as client:
            workers = list(client.run(worker_report()).values())
    manifest = store.read_manifest(tmp_path / "dask")
    assert manifest["sessions"][-1]["scheduler"] == address
    local = sweep(config, tmp_path / "loky", env, "--jobs", "2")
    return on_cluster, local, workers


def test_evolversi_sweep_on_a_dask_scheduler_with_two_workers_gives_the_loky_rows(tmp_path):
    on_cluster, local, workers = run_on_cluster(tmp_path, EVOLVERSI, dict(os.environ))
    assert on_cluster.height == 2 * 240
    assert on_cluster.equals(local)
    assert len(workers) == 2 and all(w["chunks"] > 0 for w in workers), workers


@pytest.mark.slow
def test_evolution_sweep_on_a_dask_cluster_loads_the_engine_the_parent_compiled(tmp_path):
    # A fresh numba cache shared by every process: had the sweep not built the engine before
    # fanning out, the workers would compile it themselves (cache misses).
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    on_cluster, local, workers = run_on_cluster(tmp_path, EVOLUTION, env)
    assert on_cluster.height == 400
    assert on_cluster.equals(local)
    assert len(workers) == 2 and all(w["chunks"] > 0 for w in workers), workers
    assert all(w["cache_hits"] > 0 and w["cache_misses"] == 0 for w in workers), workers


LONG = """
ruleset = "evolversi"
players = 3
games = 8000
seed = 4
batch_size = 20
"""


@pytest.mark.slow
def test_a_scheduler_lost_during_a_sweep_is_one_line_exit_3_and_a_local_resume_gives_the_clean_rows(tmp_path):
    config = tmp_path / "long.toml"
    config.write_text(LONG)
    env = dict(os.environ)
    out = tmp_path / "dask"
    procs: list[subprocess.Popen] = []
    with dask_cluster(tmp_path, env, procs) as address:
        run = subprocess.Popen([sys.executable, "-m", "experiments.cli", "sweep", str(config), "--out", str(out),
                                "--quiet", "--backend", "dask", "--scheduler", address], cwd=REPO, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while not list(out.glob("**/*.parquet")) and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert run.poll() is None, run.communicate()[1][-2000:]        # still playing: some chunks written
        os.killpg(procs[0].pid, signal.SIGKILL)                         # the scheduler goes away
        _, err = run.communicate(timeout=300)
    assert run.returncode == 3, err[-2000:]
    lines = err.strip().splitlines()
    assert "Traceback" not in err and len(lines) == 1, err[-2000:]
    assert "--scheduler" in lines[0] and "lost" in lines[0] and "--resume" in lines[0]
    done = store.open_run(out)
    assert not done.complete and 0 < done.games().height < 8000
    resumed = sweep(config, out, env, "--jobs", "2", "--resume")
    clean = sweep(config, tmp_path / "clean", env, "--jobs", "2")
    assert resumed.equals(clean)
