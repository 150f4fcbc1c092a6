"""A misspelt name on the command line is named as unknown, with the closest known name."""
import subprocess
import sys

import pytest


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "experiments.cli", *args], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.parametrize("args,expect", [
    (["run", "evolversi", "--set", "track_lenght=24"], "key 'track_lenght': unknown parameter; did you mean track_length?"),
    (["run", "evolution", "--bots", "gredy"], "unknown bot 'gredy' for evolution; bots for evolution: "),
    (["run", "evolution", "--bots", "gredy"], "; did you mean 'greedy'?\n"),
    (["run", "evolversii"], "unknown ruleset 'evolversii'; known rulesets: "),
    (["run", "evolversii"], "; did you mean 'evolversi'?\n"),
    (["run", "evolution", "--variant", "second-printin"], "; did you mean 'second-printing'?\n"),
    (["run", "evolversi", "--seed", "99999999999999999999999"], "--seed': must be a whole number from 0 to 9,223,372,036,854,775,807"),
])
def test_a_misspelt_or_out_of_range_input_is_named_with_what_is_accepted(args, expect):
    proc = _cli(*args, "--games", "5")
    assert proc.returncode == 2
    assert expect in proc.stderr and proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_far_off_parameter_name_lists_the_known_ones():
    proc = _cli("run", "evolversi", "--set", "zzzzqqq=1", "--games", "5")
    assert proc.returncode == 2 and "known parameters:" in proc.stderr and "track_length" in proc.stderr


@pytest.mark.parametrize("args", [["run", "evolution", "--bots", "gredy"], ["run", "evolversii"],
                                  ["run", "evolution", "--variant", "second-printin"]])
def test_no_doubled_punctuation_in_a_hint(args):
    err = _cli(*args, "--games", "5").stderr
    assert not any(p in err for p in ("?;", "?.", ";;", "..", "%%"))
