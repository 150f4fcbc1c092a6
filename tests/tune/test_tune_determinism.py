"""The same config, seed and budget give the same proposal and the same evaluations with 1 or 2
workers, on loky or dask, and after a kill and `--resume`."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from .kit import BASE, run, write

CONFIG = BASE + """
[[variables]]
table = "cards"
where = { name = "Mutazione" }
column = "amount"
min = 0
max = 4
step = 1
[[variables]]
param = "track_length"
min = 11
max = 13
step = 1

[targets]
rounds = [13.5, 15.0]
faction_gap = 8.0

[budget]
games = 60000
[search]
first_games = 1000
max_games = 3000
max_changes = 2
beam = 1
[proof]
games = 2000
"""


def _result(out) -> tuple:
    summary = json.loads((out / "tune.json").read_text())
    return (summary["proposal"], summary["verdict"], summary["trace"], summary["proof"]["proposal"]["values"],
            (out / "evaluations.csv").read_text())


@pytest.mark.slow
def test_same_proposal_on_any_workers_backend_and_after_kill_and_resume(tmp_path, capsys):
    cfg = write(tmp_path, CONFIG)
    results = {}
    for label, extra in {"loky1": ["--jobs", "1"], "loky2": ["--jobs", "2"],
                         "dask2": ["--jobs", "2", "--backend", "dask"]}.items():
        out = tmp_path / label
        code, _, err = run([cfg, "--out", out, "--quiet", *extra], capsys)
        assert code == 0, err
        results[label] = _result(out)
    # A real kill: SIGKILL a tune process once it has written some chunks, then resume in-process.
    out = tmp_path / "killed"
    proc = subprocess.Popen([sys.executable, "-m", "experiments.cli", "tune", str(cfg), "--out", str(out), "--quiet"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and len(list((out / "evals").rglob("*.parquet"))) < 3:
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (out / "tune.json").exists(), "the kill came too late to test a resume"
    code, _, err = run([cfg, "--out", out, "--quiet", "--resume"], capsys)
    assert code == 0, err
    results["killed+resume"] = _result(out)
    first = results["loky1"]
    for label, r in results.items():
        assert r == first, label
