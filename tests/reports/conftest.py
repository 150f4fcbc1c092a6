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


SHIPPED_GAMES = 60      # games a point when a shipped config is played small for a report test


@pytest.fixture(scope="session")
def shipped_small(built_once):
    """(config path, shrink) -> the open run of that shipped config made small by `shrink` (config ->
    config; default: SHIPPED_GAMES games a point), built once per test session: tests that make a
    config equally small (the verdict and the layout tests) share its run."""
    import dataclasses

    from experiments.config import load_config
    from experiments.store import open_run
    from experiments.sweep import run_sweep

    def play(path, shrink=None):
        cfg = load_config(path)
        cfg = shrink(cfg) if shrink else dataclasses.replace(cfg, games=SHIPPED_GAMES, batch_size=SHIPPED_GAMES)
        name = f"shipped-{path.stem}-{cfg.digest()}"        # the same small config, the same folder
        return open_run(built_once(name, lambda f: run_sweep(cfg, f / "run", jobs=1)) / "run")
    return play
