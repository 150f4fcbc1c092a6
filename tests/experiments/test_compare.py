"""`balancelab compare`: paired changes of the same games on two data folders."""
from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from markupsafe import escape

from experiments.compare import CompareRequest, run_compare
from simcore.games import get_game

BUILTIN = Path(get_game("evolversi").data.data_dir)


def _stronger(folder: Path, card: str, **values) -> Path:
    """A copy of the built-in cards.csv with one card's columns changed."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(BUILTIN / "cards.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    hit = [r for r in rows if r["name"] == card]
    assert hit, card
    for r in hit:
        r.update({k: str(v) for k, v in values.items()})
    with open(folder / "cards.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return folder


def test_a_market_card_made_stronger_raises_its_acquirers_win_rate_with_a_paired_interval(tmp_path):
    data = _stronger(tmp_path / "mutazione", "Mutazione", amount=5)     # gain 5 points instead of 2
    c = run_compare(CompareRequest("evolversi", None, str(data), games=1500, seed=3))
    assert c.edit["rows"] == [{"table": "cards", "row": "Mutazione (evolution)", "column": "amount", "a": 2, "b": 5}]
    ent = {r["entity"]: r for r in c.tables["entities"].to_dicts()}
    row = ent["Mutazione"]
    assert row["changed"] and row["change"] > 0 and row["ci_low"] > 0 and row["ci_low"] < row["change"] < row["ci_high"]
    assert all(not r["changed"] for name, r in ent.items() if name != "Mutazione")
    # The pairing figures are reported so the reader sees how paired the two sides are.
    assert 0 <= c.tables["pairing"]["identical"] <= 1 and "correlation" in c.tables["pairing"]


def test_a_starting_card_made_stronger_raises_its_animals_win_rate(tmp_path):
    # Panda's starting card gains 2 Fury instead of 1 (measured: Panda +9 to +11 pp, seeds 3-5,
    # 4,000 games). Not Strength 6 as well: greedy then plays it above, where its effect never
    # fires, and the change (+0.6 to +4 pp) is too small for 4,000 games to show.
    data = _stronger(tmp_path / "occhiaie", "Occhiaie", amount=2)
    c = run_compare(CompareRequest("evolversi", None, str(data), games=4000, seed=3))
    fac = {r["faction"]: r for r in c.tables["factions"].to_dicts()}
    assert fac["Panda"]["change"] > 0 and fac["Panda"]["ci_low"] > 0
    assert fac["Panda"]["games_a"] == fac["Panda"]["games_b"]          # same games, same seats: truly paired
    others = [r["change"] for name, r in fac.items() if name != "Panda"]
    assert fac["Panda"]["change"] > max(others)
    assert "Occhiaie" in {r["entity"] for r in c.tables["entities"].to_dicts() if r["changed"]}


def test_the_same_data_on_both_sides_changes_nothing_on_any_row(tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(BUILTIN, copy)
    c = run_compare(CompareRequest("evolversi", None, str(copy), games=300, seed=5))
    assert c.edit["same"]
    for name in ("seats", "factions", "bots", "entities"):
        df = c.tables[name]
        assert df.height > 0
        assert (df["change"].fill_nan(0).abs() == 0).all(), name
        assert not df["excludes_zero"].any(), name
    assert c.tables["length"]["change"] == 0 and c.tables["balance"]["change"] == 0
    assert c.tables["pairing"]["identical"] == 1.0


def test_compare_command_prints_the_edit_and_writes_json_html_and_next_steps(tmp_path):
    data = _stronger(tmp_path / "mutazione", "Mutazione", amount=5)
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "compare", "evolversi", "--data", str(data),
                           "--games", "800", "--seed", "3", "--out", str(out)], capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert "cards: Mutazione (evolution): amount 2 -> 5" in proc.stdout
    assert "fair" in proc.stdout and "paired 95% interval" in proc.stdout and "pairing:" in proc.stdout
    doc = json.loads((out / "compare.json").read_text())
    assert doc["a"]["data"] == "built-in" and doc["games"] == 800
    html = (out / "compare.html").read_text()
    assert 'id="verdict"' in html and "Mutazione" in html and "-0.0" not in html
    said = proc.stdout.split("verdict (from causes only):\n")[1].split("\n\n")[0].splitlines()
    lines = [t.split(": ", 1)[1] for t in said if t.startswith("  too ")]
    assert lines and all(escape(t) in html for t in lines)            # the terminal's words are the page's
    for r in doc["factions"]:                    # an animal beyond the threshold after the edit is in the verdict
        gap = r["rate_b"] - r["fair"]
        beyond = abs(gap) > 0.03 and (r["b_low"] > r["fair"] if gap > 0 else r["b_high"] < r["fair"])
        assert not beyond or any(t.startswith(f"Animal {r['faction']}: ") for t in lines), (r, lines)
    from experiments.config import load_config
    from experiments.grid import expand
    steps = sorted((out / "next-steps").glob("*.toml"))
    assert steps and "next-mutazione-amount.toml" in {p.name for p in steps}
    for p in steps:
        expand(load_config(p))               # every next step is a config `balancelab sweep` accepts


@pytest.mark.parametrize("args,expect", [
    (["compare", "evolversi", "--games", "10"], "give one data folder"),
    (["compare", "evolversi", "--data", "/no/such/folder", "--games", "10"], "is not a folder"),
    (["compare", "--data", "."], "cannot tell which ruleset"),
])
def test_compare_input_mistakes_are_one_line(args, expect, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path if args[-1] == "." else None)
    assert proc.returncode == 2 and expect in proc.stderr and proc.stderr.count("\n") == 1


def test_run_with_compare_plays_the_same_comparison_as_compare(tmp_path):
    data = _stronger(tmp_path / "mutazione", "Mutazione", amount=5)
    args = ["--data", str(data), "--games", "200", "--seed", "4", "--format", "json"]
    run = subprocess.run([sys.executable, "-m", "experiments.cli", "run", "evolversi", *args, "--compare"],
                         capture_output=True, text=True, timeout=600)
    cmp = subprocess.run([sys.executable, "-m", "experiments.cli", "compare", "evolversi", *args],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and cmp.returncode == 0, run.stderr + cmp.stderr
    a, b = json.loads(run.stdout), json.loads(cmp.stdout)
    assert a["a"]["data"] == "built-in" and a["b"]["data"] == str(data)
    assert a["factions"] == b["factions"] and a["entities"] == b["entities"]
