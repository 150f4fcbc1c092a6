"""A small real sweep with a planted imbalance, shared by the report tests.

Pelliccia (printed: no effect) is edited to "gain 4 Evolution points" - clearly too
strong - and the config asks for its causal check: a knockout (the same games with its
effect switched off).
"""
from __future__ import annotations

import pytest

PLANTED = """
name = "planted"
description = "Pelliccia made clearly too strong (gain 4 points); the report must flag it."
ruleset = "evolversi"
players = 4
games = 300
seed = 3
batch_size = 150
target_rounds = [8, 15]
edits = [ { table = "cards", where = { name = "Pelliccia" }, set = { effect = "gain_points", amount = 4 } } ]

[[grid]]
param = "fourth_card_space"
values = [3, 4]

[ablation]
kind = "knockout"
entities = ["Pelliccia", "Sonar"]
"""


@pytest.fixture(scope="session")
def planted_run(built_once):
    from experiments.store import open_run
    from experiments.sweep import run_sweep

    def make(folder):
        config = folder / "planted.toml"
        config.write_text(PLANTED)
        run_sweep(config, folder / "run", jobs=1)
    return open_run(built_once("planted", make) / "run")
