"""Bad rollout specs (issue 12): one clear line on stderr, exit 2, nothing written; a game
without the search protocol names what it lacks."""
import subprocess
import sys
from pathlib import Path

import pytest

from simcore.games import GAMES, get_game
from strategies.rollout import missing

ROOT = Path(__file__).resolve().parents[2]
SEARCHABLE = [g for g in GAMES if not missing(get_game(g))]
PLAIN = [g for g in GAMES if missing(get_game(g))]


def _run(tmp_path, game, spec):
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "experiments.cli", "run", game, "--bots", spec, "--games", "2",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2, proc.stderr
    lines = [ln for ln in proc.stderr.strip().splitlines() if "compiling" not in ln]
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert not out.exists()
    return lines[0]


@pytest.mark.parametrize("game", SEARCHABLE)
@pytest.mark.parametrize("spec, words", [("rollout:k=0", ["k", ">= 1", "0"]),
                                          ("rollout:k=-3", ["k", "-3"]),
                                          ("rollout:base=nobody", ["base bot", "nobody"]),
                                          ("rollout:kinds=no_such_kind", ["decision kind", "no_such_kind"])])
def test_a_bad_rollout_spec_is_one_clear_line(game, spec, words, tmp_path):
    line = _run(tmp_path, game, spec)
    assert all(w in line for w in words), line


@pytest.mark.parametrize("game", PLAIN)
def test_rollout_for_a_game_without_the_search_protocol_names_what_is_missing(game, tmp_path):
    line = _run(tmp_path, game, "rollout")
    assert "search protocol" in line and "branch" in line and game in line, line
