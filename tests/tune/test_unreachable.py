"""An unreachable target: "not met", the closest candidate and its intervals, exit 0, nothing claimed."""
from __future__ import annotations

import json

from .kit import BASE, ONE_VAR, run, write

TINY = """
[budget]
games = 20000
[search]
first_games = 500
max_games = 1500
max_changes = 1
[proof]
games = 1000
"""


def test_unreachable_target_ends_not_met_with_the_closest_candidate(tmp_path, capsys):
    # A faction gap of 0 points cannot be shown by any finite sample: its interval always has width.
    cfg = write(tmp_path, BASE + ONE_VAR + "\n[targets]\nfaction_gap = 0.0\n" + TINY)
    out = tmp_path / "out"
    code, stdout, stderr = run([cfg, "--out", out, "--quiet"], capsys)
    assert code == 0, stderr
    summary = json.loads((out / "tune.json").read_text())
    assert summary["verdict"] == "not met"
    assert "NOT MET" in stdout and "nothing is claimed" in stdout
    proof = summary["proof"]["proposal"]
    est, lo, hi = proof["values"]["faction_gap"]
    assert lo <= est <= hi and hi > 0 and proof["met"] == {"faction_gap": False}
    # The closest candidate is the one with the smallest shortfall among those raced to the top rung.
    rows = [r for r in summary["trace"]]
    assert rows[-1]["best_shortfall"] == summary["search_best"]["shortfall"] > 0
    assert "not met" in (out / "report.html").read_text().lower()
    # Whether the best candidate beats the current data, said with the paired difference.
    d, lo, hi = summary["proof"]["against_original"]["faction_gap"]
    assert lo <= d <= hi
    assert not summary["diff"] or f"faction_gap: proposal - original {d:+.2f} [{lo:+.2f}, {hi:+.2f}]" in stdout
    helps = hi < 0
    assert ("better than the current data but misses the target" in stdout) == (helps and bool(summary["diff"]))
    assert ("nothing within the bounds helps" in stdout) == (not helps or not summary["diff"])
