"""One billion Evolversi games planned and started with flat memory: the first chunks run,
the sweep is interrupted, resumed, and interrupted again; the manifest stays small (chunk
bounds are generated, not listed) and the process stays far below 1 GB."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from experiments import store
from tests.reliability.kit import peak_kib, with_peak

BILLION = 10**9
FAKE_CLI = Path(__file__).with_name("fake_cli.py")
CONFIG = f'ruleset = "evolversi"\nplayers = 4\ngames = {BILLION}\nbatch_size = 20000\nseed = 1\n'


def play_a_few_chunks(argv, out: Path, chunks: int, env=None, seconds: float = 600) -> subprocess.CompletedProcess:
    """Start the sweep, wait until `chunks` chunks are recorded, Ctrl-C it; return the finished
    process, its own peak memory (KiB) asserted below 1 GB."""
    peak = out.parent / f".peak-kib-{out.name}"
    proc = subprocess.Popen(with_peak(argv, peak), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})
    t0 = time.monotonic()
    while len(store.read_ledger(out)) < chunks:
        if proc.poll() is not None or time.monotonic() - t0 > seconds:
            proc.kill()
            raise AssertionError(proc.communicate()[1][-3000:])
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert peak_kib(peak) < 1024 * 1024, "the sweep's peak memory reached 1 GB"      # KiB
    return subprocess.CompletedProcess(argv, proc.returncode, "", err)


def check_billion(argv_of, out: Path, env=None):
    first = play_a_few_chunks(argv_of(resume=False), out, 2, env)
    assert first.returncode == 130 and "--resume" in first.stderr
    done = len(store.read_ledger(out))
    second = play_a_few_chunks(argv_of(resume=True), out, done + 2, env)
    assert second.returncode == 130
    run = store.open_run(out)
    assert run.manifest["games_per_point"] == BILLION
    assert (out / store.MANIFEST).stat().st_size < 200_000                          # no 50,000-chunk list
    good = len(store.read_ledger(out))
    assert good >= done + 2 and run.damaged() == []
    assert len(run.missing()) == BILLION // 20000 - good
    games = run.games(columns=["game"])["game"]
    assert games.n_unique() == games.len() == good * 20000


def test_a_billion_games_start_interrupt_and_resume_with_the_stand_in_engine(write_config, tmp_path):
    cfg = write_config(CONFIG)
    out = tmp_path / "billion"

    def argv(resume):
        return [sys.executable, str(FAKE_CLI), "sweep", str(cfg), "--out", str(out), "--quiet",
                *(["--resume"] if resume else [])]
    check_billion(argv, out)


@pytest.mark.slow
def test_a_billion_evolversi_games_start_interrupt_and_resume(write_config, tmp_path):
    cfg = write_config(CONFIG)
    out = tmp_path / "billion"

    def argv(resume):
        return [sys.executable, "-m", "experiments.cli", "sweep", str(cfg), "--out", str(out), "--quiet",
                *(["--resume"] if resume else [])]
    check_billion(argv, out, env={"PYTHONPATH": str(Path(__file__).resolve().parents[2])})
