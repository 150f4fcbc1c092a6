"""'Did you mean' for animals on the command line and in configs, and for entities in configs."""
import subprocess
import sys

import pytest


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)


@pytest.mark.parametrize("animals,expect", [
    ("Pandaa", "unknown animal 'Pandaa' for seat 0; did you mean 'Panda'?"),
    ("random,Mantiss,random,random", "unknown animal 'Mantiss' for seat 1; did you mean 'Mantis'?"),
    ("Zzzzq", "unknown animal 'Zzzzq' for seat 0; animals: Panda"),
])
def test_a_misspelt_animal_is_named_as_unknown_with_the_closest_name(animals, expect):
    proc = _cli("run", "evolversi", "--animals", animals, "--games", "5")
    assert proc.returncode == 2
    assert expect in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_misspelt_animal_in_a_config_is_named_with_the_closest_name(tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('ruleset = "evolversi"\nplayers = 4\ngames = 10\nfactions = ["Pandaa", "random", "random", "random"]\n')
    proc = _cli("sweep", str(cfg), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "unknown animal 'Pandaa'" in proc.stderr and "did you mean 'Panda'?" in proc.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("section,expect", [
    ('[[grid]]\ntable = "cards"\nwhere = { name = "Mutazion" }\ncolumn = "amount"\nvalues = [1, 2]\n',
     "no cards row has name = 'Mutazion'; did you mean Mutazione?"),
    ('[ablation]\nkind = "removal"\nentities = ["Vampirsmo"]\n', "did you mean Vampirismo?"),
])
def test_a_misspelt_entity_in_a_config_is_named_with_the_closest_name(tmp_path, section, expect):
    cfg = tmp_path / "c.toml"
    cfg.write_text('ruleset = "evolversi"\nplayers = 4\ngames = 10\n' + section)
    proc = _cli("sweep", str(cfg), "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and expect in proc.stderr, proc.stderr
