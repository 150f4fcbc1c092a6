"""Bad rollout specs: one clear line on stderr, exit 2, nothing written; a game
without the search protocol names what it lacks."""
import subprocess
import sys
from pathlib import Path

import numpy as np
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
                                          ("rollout:kinds=no_such_kind", ["decision kind", "no_such_kind"]),
                                          ("rollout:rank=score", ["rank", "win", "margin", "score"]),
                                          ("rollout:rank=3", ["rank", "win", "margin", "3"])])
def test_a_bad_rollout_spec_is_one_clear_line(game, spec, words, tmp_path):
    line = _run(tmp_path, game, spec)
    assert all(w in line for w in words), line


@pytest.mark.parametrize("game", PLAIN)
def test_rollout_for_a_game_without_the_search_protocol_names_what_is_missing(game, tmp_path):
    line = _run(tmp_path, game, "rollout")
    assert "search protocol" in line and "branch" in line and game in line, line


def test_rollout_defaults_come_from_the_games_table():
    """strategies/<game>/rollout.toml: Capybara's `rollout` with no options searches 32
    continuations on the trained greedy; every option the spec gives wins over the table."""
    from strategies.registry import make_bot
    plain = make_bot("capybara", "rollout")._impl()
    assert (plain.k, plain.base, plain.rank) == (32, "trained", "win")
    given = make_bot("capybara", "rollout:k=4,base=greedy,rank=margin")._impl()
    assert (given.k, given.base, given.rank) == (4, "greedy", "margin")
    assert make_bot("capybara", "rollout:k=8")._impl().base == "trained"
    assert make_bot("capybara", "rollout:base=random")._impl().k == 32
    evolution = make_bot("evolution", "rollout")._impl()
    assert (evolution.k, evolution.base) == (16, "trained")


@pytest.mark.parametrize("game", SEARCHABLE)
def test_every_shipped_rollout_table_is_valid(game):
    """Each game's table names only known keys and values a spec could give, and cites its source."""
    from strategies.registry import make_bot
    from strategies.rollout import defaults, defaults_file
    table = defaults(game)
    assert defaults_file(game).exists() and table["source"] and table["source"] != "built-in"
    bot = make_bot(game, "rollout")._impl()
    assert (bot.k, bot.base, bot.rank) == (table["k"], table["base"], table["rank"])


def test_a_bad_rollout_table_names_the_file_and_the_key(tmp_path, monkeypatch):
    from simcore.errors import UserError
    from strategies import rollout
    from strategies.registry import make_bot
    bad = tmp_path / "capybara" / "rollout.toml"
    bad.parent.mkdir()
    bad.write_text('[rollout]\nbase = "trained"\ndepth = 3\n')
    monkeypatch.setattr(rollout, "HERE", tmp_path)
    rollout.defaults.cache_clear()
    try:
        with pytest.raises(UserError, match="depth") as e:
            rollout.defaults("capybara")
        assert str(bad) in str(e.value)
        bad.write_text('[rollout]\nrank = "best"\n')
        rollout.defaults.cache_clear()
        with pytest.raises(UserError, match="rank must be one of win, margin"):
            make_bot("capybara", "rollout")
    finally:
        monkeypatch.undo()
        rollout.defaults.cache_clear()


def test_rank_margin_orders_by_the_mean_margin_first(monkeypatch):
    """rank=win takes the best win share (then margin); rank=margin the best mean margin."""
    from simcore.games import get_game
    from strategies import rollout
    from strategies.registry import make_bot
    # option 0 wins more often, option 1 by more on average (K = 2 continuations each)
    win = np.array([1.0, 1.0, 0.0, 0.5])
    margin = np.array([1.0, 1.0, -4.0, 20.0])
    monkeypatch.setattr(rollout, "result_of", lambda out, seat, sense: (win, margin))
    g = get_game("capybara")
    monkeypatch.setattr(g, "determinize", lambda rs, state, seat, key: state)
    monkeypatch.setattr(g, "branch", lambda *a, **k: None)
    state = {"seats": [0, 1, 2, 3]}
    by_win = make_bot("capybara", "rollout:k=2")._impl().choose(None, state, 0, "action", [0, 1], 0, 0)
    by_margin = make_bot("capybara", "rollout:k=2,rank=margin")._impl().choose(None, state, 0, "action", [0, 1], 0, 0)
    assert (by_win, by_margin) == (0, 1)


def test_rank_margin_plays_every_option_whole_where_a_game_prunes(monkeypatch):
    """A pruned branch (Evo's branch_pruned) drops options by win share only: under rank=margin
    the bot must play every option whole (branch), or a dropped option's margin would be lost."""
    from simcore.games import get_game
    from strategies import rollout
    from strategies.registry import make_bot
    g = get_game("evo")
    assert hasattr(g, "branch_pruned"), "evo no longer prunes: this test needs another game that does"
    calls = []
    win = np.array([1.0, 1.0, 0.0, 0.5])
    margin = np.array([1.0, 1.0, -4.0, 20.0])
    monkeypatch.setattr(rollout, "result_of", lambda out, seat, sense: (win, margin))
    monkeypatch.setattr(g, "determinize", lambda rs, state, seat, key: state)
    monkeypatch.setattr(g, "branch", lambda *a, **k: calls.append("branch"))

    def pruned(*a, **k):
        calls.append("pruned")
        return None, np.array([True, False])       # option 1 left out: its rows are not read
    monkeypatch.setattr(g, "branch_pruned", pruned)
    state = {"seats": [0, 1, 2, 3]}
    by_win = make_bot("evo", "rollout:k=2")._impl().choose(None, state, 0, "bid", [0, 1], 0, 0)
    by_margin = make_bot("evo", "rollout:k=2,rank=margin")._impl().choose(None, state, 0, "bid", [0, 1], 0, 0)
    assert calls == ["pruned", "branch"]
    assert (by_win, by_margin) == (0, 1)
