"""The benchmarks page generator, run small: it measures, and the page shows what it measured."""
from __future__ import annotations

import re

from experiments import benchmarks_page as page


def test_quick_page_shows_the_measured_ratio_first_and_the_machine(tmp_path):
    out = tmp_path / "benchmarks.md"
    assert page.main(["--quick", "--ruleset", "evolversi", "--no-compile", "--out", str(out)]) == 0
    text = out.read_text()
    sections = [line for line in text.splitlines() if line.startswith("## ")]
    assert sections[0].startswith("## Ratios")
    ratio_row = re.search(r"^\| evolversi \| ([\d,.]+)x \|$", text, re.M)
    batch = re.search(r"\| batch engine \| ([\d,]+) games/s per core \(([\d,]+) games\)", text)
    ref = re.search(r"\| reference engine \| ([\d,]+) games/s per core \(([\d,]+) games\)", text)
    assert ratio_row and batch and ref
    assert int(batch.group(2).replace(",", "")) == page.QUICK.games
    assert int(ref.group(2).replace(",", "")) == page.QUICK.ref_games
    ratio = float(ratio_row.group(1).replace(",", ""))
    rates = int(batch.group(1).replace(",", "")) / int(ref.group(1).replace(",", ""))
    assert abs(ratio - rates) <= 0.02 * rates + 0.1          # the rates are rounded on the page
    assert f"{page.QUICK.scale:,} games on {page.QUICK.jobs} workers" in text
    assert "speed probe" in text and "cores" in text
    assert "python -m experiments.benchmarks_page --quick --ruleset evolversi --no-compile" in text
