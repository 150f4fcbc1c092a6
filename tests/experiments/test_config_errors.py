"""Bad configs give one clear error naming the file and key, exit code 2, nothing written."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from experiments import cli
from experiments.config import load_config
from experiments.grid import expand

GOOD = """
ruleset = "evolversi"
players = 3
games = 10
batch_size = 5
"""

CASES = {
    "unknown_key": (GOOD + "colour = 'red'\n", "colour", "unknown key"),
    "unknown_ruleset": (GOOD.replace('"evolversi"', '"chess"'), "ruleset", "unknown ruleset"),
    "unknown_parameter": (GOOD + "[[grid]]\nparam = 'fourth_card_spaces'\nvalues = [3]\n", "grid[0].param",
                          "unknown parameter"),
    "unknown_set_parameter": (GOOD + "set = { hand_sise = 3 }\n", "set.hand_sise", "unknown parameter"),
    "wrong_type": (GOOD.replace("games = 10", 'games = "many"'), "games", "whole number"),
    "wrong_value_type": (GOOD + "[[grid]]\nparam = 'fourth_card_space'\nvalues = [3, 'four']\n",
                         "grid[0].values[1]", "whole number"),
    "empty_grid": (GOOD + "[[grid]]\nparam = 'fourth_card_space'\nvalues = []\n", "grid[0].values", "empty"),
    "unknown_card_in_grid": (GOOD + "[[grid]]\ntable = 'cards'\nwhere = { name = 'Vampirsmo' }\n"
                                    "column = 'tokens'\nvalues = [1, 2]\n", "grid[0].where", "Vampirismo"),
    "unknown_card_in_ablation": (GOOD + "[ablation]\nkind = 'removal'\nentities = ['Mutazione', 'Nessuno']\n",
                                 "ablation.entities[1]", "no cards row"),
    "unknown_variant": (GOOD.replace("players = 3", "players = 3\nvariant = 'deluxe'"), "variant",
                        "unknown variant"),
    "bad_bot": (GOOD + "bots = 'genius'\n", "bots", "unknown bot"),
    "too_many_players": (GOOD.replace("players = 3", "players = 9"), "players", "between"),
    "bad_toml": ("ruleset = \n", None, "not valid TOML"),
    "starting_card_removed": (GOOD + "[ablation]\nkind = 'removal'\nentities = ['Zampe']\n", "ablation.entities[0]",
                              "starting cards"),
    "unknown_ablation_kind": (GOOD + "[ablation]\nkind = 'delete'\nentities = ['Sonar']\n", "ablation.kind",
                              "unknown kind 'delete'"),
    "ablation_where_with_a_list": (GOOD + "[ablation]\nentities = ['Sonar']\nwhere = { deck = 'evolution' }\n",
                                   "ablation.where", 'entities = "*" only'),
    "ablation_where_unknown_value": (GOOD + "[ablation]\nentities = '*'\nwhere = { deck = 'evolutoin' }\n",
                                     "ablation.where", "did you mean evolution"),
    "unknown_ablation_at": (GOOD + "[ablation]\nentities = ['Sonar']\nat = 'first'\n", "ablation.at",
                            "unknown value 'first'"),
    "knockout_with_a_table_edit": (GOOD + "[ablation]\nentities = ['Sonar']\nset = { copies = 0 }\n", "ablation.set",
                                   "not used by a knockout"),
    "knockout_of_a_kind_the_game_lacks": (GOOD + "[ablation]\nentity_kind = 'dragon'\nentities = ['Sonar']\n",
                                          "ablation.entity_kind", "cannot knock out a dragon: the kinds it can"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_config_names_file_and_key_and_writes_nothing(case, write_config, tmp_path, capsys):
    text, key, words = CASES[case]
    path = write_config(text)
    out = tmp_path / "run"
    code = cli.main(["sweep", str(path), "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert "Traceback" not in err
    assert str(path) in err
    if key is not None:
        assert f"key '{key}'" in err
    assert words.lower() in err.lower()
    assert not out.exists()


def test_bad_config_through_the_console_module(write_config, tmp_path):
    path = write_config(CASES["unknown_key"][0])
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "sweep", str(path), "--out", str(out)],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2], timeout=120)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert "key 'colour'" in proc.stderr and str(path) in proc.stderr
    assert not out.exists()


def test_missing_config_file(tmp_path, capsys):
    assert cli.main(["sweep", str(tmp_path / "nope.toml"), "--out", str(tmp_path / "r")]) == 2
    assert "no such config file" in capsys.readouterr().err


def test_bad_options_write_nothing(write_config, tmp_path, capsys):
    path = write_config(GOOD)
    assert cli.main(["sweep", str(path), "--out", str(tmp_path / "r"), "--jobs", "0"]) == 2
    assert cli.main(["sweep", str(path), "--out", str(tmp_path / "r"), "--scheduler", "tcp://x:1"]) == 2
    assert not (tmp_path / "r").exists()


# Sweep configs; the tuning configs (tune_*.toml) are checked by tests/tune.
SHIPPED = sorted(p for p in (Path(__file__).resolve().parents[2] / "experiments" / "configs").glob("*.toml")
                 if not p.name.startswith("tune_"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_shipped_configs_are_valid(path):
    from simcore.games import GAMES
    cfg = load_config(path)
    if cfg.ruleset not in GAMES:
        pytest.skip(f"ruleset {cfg.ruleset} is not in this build yet")
    from simcore.games import get_game
    game = get_game(cfg.ruleset)
    if cfg.ablation is not None and cfg.ablation.kind == "knockout" and \
            (cfg.ablation.entity_kind or game.entity_kind) not in (getattr(game, "knockout_targets", None) or {}):
        pytest.skip(f"{cfg.ruleset}'s knockouts are not in this build yet")
    points = expand(cfg)
    assert points and all(p.spec.seed >= 0 for p in points)


def test_an_edits_axis_without_labels_or_with_a_non_list_value_is_refused(tmp_path):
    from experiments.config import load_config
    from simcore.errors import UserError
    import pytest as _pytest
    base = 'ruleset = "evolversi"\ngames = 10\n[[grid]]\n'
    for body, key in (('edits = [[]]\n', "grid[0].labels"),
                      ('edits = [{ table = "cards" }]\nlabels = ["a"]\n', "grid[0].edits[0]")):
        path = tmp_path / "c.toml"
        path.write_text(base + body)
        with _pytest.raises(UserError) as e:
            load_config(path)
        assert e.value.key == key, e.value
