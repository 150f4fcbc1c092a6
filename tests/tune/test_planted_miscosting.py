"""Planted mis-costing: a shipped card made two steps too cheap (or too dear) is restored.

Mutazione ("gain 2 Evolution points, then discard") is planted at 4 points (too cheap for
what it gives) or 0 (too dear). Three values are free: its amount, the track length (which
could also pull the game length back, but not the card's impact) and Occhi Dolci's amount.
Targets: mean length in [12.5, 14] rounds and no card's impact beyond +-33 points, both met
by the shipped data (measured: 13.2 rounds, largest impact about 29 points). `tune` must
bring Mutazione back to within one step of 2, change nothing else, and meet the targets on
fresh games.
"""
from __future__ import annotations

import json

import pytest

from simcore.games import get_game

from .kit import HERE, run, write

SHIPPED = 2


@pytest.mark.slow
@pytest.mark.parametrize("planted", [4, 0], ids=["two-steps-too-cheap", "two-steps-too-dear"])
def test_tune_restores_a_planted_card_value_and_changes_nothing_else(planted, tmp_path, capsys):
    text = (HERE / "planted_cheap.toml").read_text().replace("set = { amount = 4 }", f"set = {{ amount = {planted} }}")
    assert f"amount = {planted} }}" in text
    cfg = write(tmp_path, text)
    out = tmp_path / "out"
    code, stdout, stderr = run([cfg, "--out", out, "--quiet"], capsys)
    assert code == 0, stderr
    summary = json.loads((out / "tune.json").read_text())
    names = [v["name"] for v in summary["variables"]]
    proposal = dict(zip(names, summary["proposal"]))
    current = dict(zip(names, summary["current"]))
    assert current["Mutazione amount"] == planted
    assert abs(proposal["Mutazione amount"] - SHIPPED) <= 1
    assert {n for n in names if proposal[n] != current[n]} == {"Mutazione amount"}
    assert summary["verdict"] == "met"
    assert all(summary["proof"]["proposal"]["met"].values())
    assert stdout.splitlines()[0] == f"Mutazione amount {planted} -> {proposal['Mutazione amount']}"
    # The data folder holds only the changed table, and it plays the proposal: every other row as shipped.
    assert sorted(p.name for p in (out / "data").iterdir()) == ["cards.csv"]
    game = get_game("evolversi")
    tuned = game.data.load("default", data_dir=out / "data")
    shipped = game.data.load("default")
    for a, b in zip(tuned.tables["cards"], shipped.tables["cards"]):
        if a["name"] == "Mutazione":
            assert a["amount"] == proposal["Mutazione amount"]
        else:
            assert {k: v for k, v in a.items() if k != "_row"} == {k: v for k, v in b.items() if k != "_row"}
    assert tuned.params == shipped.params
    assert (out / "report.html").read_text().count("Sensitivity") == 1
