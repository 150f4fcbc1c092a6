"""Evolversi's rules are split into modules by phase, no file over 600 lines (the
old rules.py was one 1,064-line class)."""
from pathlib import Path

import simcore.games.evolversi as pkg

MAX_LINES = 600


def test_no_module_of_the_evolversi_engines_is_over_600_lines():
    files = sorted(Path(pkg.__file__).parent.glob("*.py"))
    assert len(files) > 10                       # the package's modules were found
    long = {f.name: n for f in files if (n := len(f.read_text().splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"
