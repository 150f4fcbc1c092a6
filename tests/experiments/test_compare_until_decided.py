"""`compare --until-decided`: chunks of paired games until each seat's and faction's check is decided."""
from __future__ import annotations

import subprocess
import sys

from experiments.compare import CompareRequest, as_json, run_compare
from tests.experiments.test_compare import _stronger

CAP = 3000


def test_each_check_says_how_many_games_decided_it_and_play_stops_when_all_are_decided(tmp_path):
    data = _stronger(tmp_path / "mutazione", "Mutazione", amount=5)
    c = run_compare(CompareRequest("evolversi", None, str(data), seed=3, until_decided=True, cap=CAP))
    seq = as_json(c)["sequential"]
    rows = {r["check"]: r for r in seq["rows"]}
    assert {f"seat {s}" for s in range(4)} <= set(rows) and len(rows) > 4      # seats and animals
    chunk = seq["design"]["chunk"]
    played = c.games_a.height
    assert played == c.games_b.height == max(r["games"] for r in rows.values()) <= CAP
    for r in rows.values():
        if r["decided_after"] is None:
            assert r["decision"] == "undecided at the cap" and r["games"] == CAP
        else:
            assert r["decided_after"] % chunk == 0 and r["decided_after"] == r["games"]
            assert r["decision"] in ("effect (up)", "effect (down)", "no effect")
        assert r["cs_low"] <= r["effect"] <= r["cs_high"]
    if played < CAP:     # play stopped early: every check was decided by then
        assert all(r["decided_after"] is not None for r in rows.values())
    decided = [r for r in rows.values() if r["decided_after"] is not None]
    assert decided and min(r["decided_after"] for r in decided) < CAP


def test_cap_without_until_decided_is_one_clear_line(tmp_path):
    data = _stronger(tmp_path / "m", "Mutazione", amount=5)
    p = subprocess.run([sys.executable, "-m", "experiments.cli", "compare", "evolversi", "--data", str(data),
                        "--cap", "500"], capture_output=True, text=True)
    assert p.returncode == 2 and "--cap" in p.stderr and "Traceback" not in p.stderr
