"""The fan-out benchmark runs and reports its figures (timings are not asserted)."""
from __future__ import annotations

import pytest

from experiments.bench_sweep import bench_fanout


@pytest.mark.slow
def test_bench_fanout_reports_rates_and_overheads():
    r = bench_fanout(games=2000, jobs=2, batch_size=500)
    for key in ("loop_games_per_s", "sweep_1_worker_games_per_s", "sweep_games_per_s", "overhead",
                "overhead_serial", "worker_start_seconds", "speedup"):
        assert r[key] == r[key] and r[key] is not None      # present and not NaN
    assert r["games"] == 2000 and r["jobs_used"] >= 1
