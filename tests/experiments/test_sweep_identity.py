"""Identical results, row for row, whatever the workers, the backend or the interruptions.

These use the real Evolversi batch engine.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

from experiments import store
from experiments.sweep import run_sweep
from simcore.runner import simulate

REPO = Path(__file__).resolve().parents[2]
CONFIG = """
ruleset = "evolversi"
players = 3
games = 120
seed = 9
batch_size = 20
[ablation]
kind = "removal"
entities = ["Sonar"]
set = { effect = "none", amount = 0 }
"""


def canonical(df: pl.DataFrame) -> pl.DataFrame:
    """Rows in (point, game) order with categoricals as text, so frames compare value by value."""
    return df.with_columns(pl.col(pl.Categorical).cast(pl.Utf8)).sort(["point", "game"])


def frames(out: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    run = store.open_run(out)
    assert run.complete
    return canonical(run.games()), run.tallies()


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> Path:
    """The config, playing a snapshot of the built-in data (immune to edits while tests run)."""
    from simcore.games.evolversi.schema import DATA_DIR
    folder = tmp_path_factory.mktemp("cfg")
    shutil.copytree(DATA_DIR, folder / "data")
    path = folder / "identity.toml"
    path.write_text('data = "data"\n' + CONFIG)
    return path


@pytest.fixture(scope="module")
def reference(config, tmp_path_factory):
    """The sweep run in this process, one chunk after another."""
    out = tmp_path_factory.mktemp("ref") / "run"
    run_sweep(config, out, jobs=1)
    return frames(out)


def test_reference_run_matches_the_runner(reference, config):
    games, _ = reference
    from experiments.config import load_config
    from experiments.grid import expand
    spec = expand(load_config(config))[0].spec
    direct = simulate(spec.ruleset, list(spec.bots), spec.players, 120, spec.seed, batch_size=120).games
    mine = games.filter(pl.col("point") == 0).drop("point")
    # The sweep adds per-seat acquisition columns (flags and totals) that the runner does not.
    mine = mine.select([c for c in mine.columns if "_has_" not in c and not c.endswith("_acquired")])
    assert mine.equals(direct.with_columns(pl.col(pl.Categorical).cast(pl.Utf8)))
    assert games.height == 240 and any("_has_" in c for c in games.columns)


def test_two_loky_workers_give_identical_rows(reference, config, tmp_path):
    run_sweep(config, tmp_path / "run", jobs=2, backend="loky")
    games, tallies = frames(tmp_path / "run")
    assert games.equals(reference[0])
    assert tallies.equals(reference[1])


def test_dask_local_cluster_gives_identical_rows(reference, config, tmp_path):
    run_sweep(config, tmp_path / "run", jobs=2, backend="dask", dask_processes=False)
    games, tallies = frames(tmp_path / "run")
    assert games.equals(reference[0])
    assert tallies.equals(reference[1])


@pytest.mark.slow
def test_dask_worker_processes_give_identical_rows(reference, config, tmp_path):
    run_sweep(config, tmp_path / "run", jobs=2, backend="dask", dask_processes=True)
    games, tallies = frames(tmp_path / "run")
    assert games.equals(reference[0])
    assert tallies.equals(reference[1])


def test_killed_sweep_resumes_to_identical_rows(reference, config, tmp_path):
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "sweep", str(config), "--out", str(out),
                             "--quiet"], cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if len(list(out.glob("chunks/*/*.parquet"))) >= 2:
            break
        time.sleep(0.01)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    landed = len(list(out.glob("chunks/*/*.parquet")))
    total = 2 * 6
    assert 0 < landed < total, f"the sweep should be killed midway ({landed} of {total} chunks landed)"
    assert store.open_run(out).manifest["status"] == "running"
    run_sweep(config, out, resume=True)
    games, tallies = frames(out)
    assert games.equals(reference[0])
    assert tallies.equals(reference[1])
