"""`balancelab plan`: from a short pilot, the games and time each check needs."""
from __future__ import annotations

import math

from experiments import cli
from experiments.plan import plan

CONFIG = """
name = "plan-test"
ruleset = "evolversi"
players = 4
bots = "greedy"
games = 5000
seed = 1
batch_size = 1000
[ablation]
kind = "removal"
entities = ["Mutazione"]
set = { copies = 0 }
"""


def test_each_check_gets_games_for_the_precision_a_fixed_count_and_until_decided(write_config):
    path = write_config(CONFIG)
    doc = plan(path, precision=1.0, pilot=400)
    base, removal = doc["rows"]
    assert base["check"] == "seat win rates" and removal["check"] == "removal of Mutazione"
    for r in doc["rows"]:
        assert r["precision_games"] == math.ceil(r["var"] * (1.959963984540054 / 0.01) ** 2)
        assert r["seconds"] >= 0
    assert 0.1 < base["var"] < 0.25                          # a win share's variance near p (1 - p)
    assert 0 < removal["expected_games"] <= 5000 and removal["fixed_games"] > 0
    finer = plan(path, precision=0.5, pilot=400)["rows"][0]
    assert abs(finer["precision_games"] / base["precision_games"] - 4) < 0.01
    assert doc["speed"] > 0 and doc["config_games"] == 2 * 5000


def test_a_bad_precision_is_one_clear_line(write_config, capsys):
    assert cli.main(["plan", str(write_config(CONFIG)), "--precision", "0"]) == 2
    assert "--precision" in capsys.readouterr().err
