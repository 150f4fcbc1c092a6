"""Bad tuning configs: one line naming the file and the key, exit code 2, nothing written."""
from __future__ import annotations

import pytest

from .kit import BASE, ONE_VAR, SMALL, run, write

TARGET = "\n[targets]\nrounds = [8, 15]\n"

CASES = {
    "unknown parameter": (BASE + "[[variables]]\nparam = \"trak_length\"\nmin = 10\nmax = 12\nstep = 1\n" + TARGET + SMALL,
                          "variables[0].param", "did you mean track_length"),
    "unknown card": (BASE + ONE_VAR.replace("Mutazione", "Mutaziona") + TARGET + SMALL,
                     "variables[0].where", "Mutazione"),
    "bound outside the parameter's range": (
        BASE + "[[variables]]\nparam = \"track_length\"\nmin = 11\nmax = 500\nstep = 1\n" + TARGET + SMALL,
        "variables[0].max", "outside track_length's range"),
    "bound the game rejects": (
        BASE + "[[variables]]\nparam = \"track_length\"\nmin = 5\nmax = 12\nstep = 1\n" + TARGET + SMALL,
        "variables[0].min", "pressure_spaces"),
    "card bound outside the column's range": (BASE + ONE_VAR.replace("max = 3", "max = 120") + TARGET + SMALL,
                                              "variables[0].max", "amount"),
    "step 0": (BASE + ONE_VAR.replace("step = 1", "step = 0") + TARGET + SMALL, "variables[0].step", "above 0"),
    "target on a metric that does not exist": (BASE + ONE_VAR + "\n[targets]\nbalnce = 3\n" + SMALL,
                                               "targets.balnce", "no such metric"),
    "no variables": (BASE + TARGET + SMALL, "variables", "no decision variables"),
    "no targets": (BASE + ONE_VAR + SMALL, "targets", "no target"),
    "unknown top-level key": ("varables = 1\n" + BASE + ONE_VAR + TARGET + SMALL, "varables", "unknown key"),
    "list parameter without index": (
        BASE + "[[variables]]\nparam = \"market_costs\"\nmin = 0\nmax = 3\nstep = 1\n" + TARGET + SMALL,
        "variables[0].index", "index"),
    "until_decided as text": (BASE + ONE_VAR + TARGET + SMALL + "until_decided = \"yes\"\n",
                              "proof.until_decided", "true or false"),
    "until_decided as a number": (BASE + ONE_VAR + TARGET + SMALL + "until_decided = 1\n",
                                  "proof.until_decided", "true or false"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_bad_config_is_one_line_naming_file_and_key_and_writes_nothing(case, tmp_path, capsys):
    text, key, words = CASES[case]
    cfg = write(tmp_path, text)
    out = tmp_path / "out"
    code, stdout, stderr = run([cfg, "--out", out, "--quiet"], capsys)
    assert code == 2
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert str(cfg) in lines[0] and f"key '{key}'" in lines[0] and words in lines[0], lines[0]
    assert not out.exists()
