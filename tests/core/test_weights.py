"""Greedy weights as data: strategies/<game>/weights/default.toml, `greedy:weights=FILE`.

A bad weights file is one UserError naming the file and the key (the CLI: one line, exit 2);
a new weights file changes the games without compiling anything."""
from __future__ import annotations

import numpy as np
import pytest

from experiments.cli import main
from simcore.errors import UserError
from simcore.games import get_game
from strategies import weights as W
from strategies.registry import make_bot, make_bots

TRAINABLE = ["capybara", "evolversi", "evolution", "evo"]          # games whose greedy reads strategies/<game>/weights/


@pytest.mark.parametrize("game", TRAINABLE)
def test_default_file_names_every_weight_with_a_comment_and_bounds_around_it(game):
    s = W.schema(game)
    notes = W.comments(game)
    assert s.names and set(notes) == set(s.names)
    for v, (lo, hi) in zip(s.defaults, s.bounds):
        assert lo <= v <= hi and lo < hi


@pytest.mark.parametrize("game", TRAINABLE)
def test_a_file_with_some_weights_keeps_the_defaults_of_the_rest(game, tmp_path):
    s = W.schema(game)
    name, (_, hi) = s.names[0], s.bounds[0]
    f = tmp_path / "w.toml"
    f.write_text(f"[weights]\n{name} = {hi}\n")
    w = W.load(game, f)
    assert w[name] == hi
    assert w.values[1:] == s.defaults[1:]


def _write(tmp_path, text):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    return f


@pytest.mark.parametrize("game", TRAINABLE)
@pytest.mark.parametrize("case,expect", [
    ("missing", "weights file not found"),
    ("unknown", "unknown weight 'no_such_weight'"),
    ("type", "expected a whole number"),
    ("range", "expected a value from"),
    ("toml", "not valid TOML"),
    ("table", "expected a [weights] table"),
])
def test_a_bad_weights_file_is_a_user_error_naming_the_file_and_key(game, case, expect, tmp_path):
    s = W.schema(game)
    name, (_, hi) = s.names[0], s.bounds[0]
    text = {"unknown": "[weights]\nno_such_weight = 1\n",
            "type": f'[weights]\n{name} = "high"\n',
            "range": f"[weights]\n{name} = {hi + 100}\n",
            "toml": "[weights\n",
            "table": "weights = 3\n"}
    f = tmp_path / "nope.toml" if case == "missing" else _write(tmp_path, text[case])
    with pytest.raises(UserError) as e:
        make_bot(game, f"greedy:weights={f}")
    assert expect in e.value.message and str(f) in e.value.render()
    if case in ("unknown", "type", "range"):
        assert e.value.key.startswith("weights.")


@pytest.mark.parametrize("game", TRAINABLE)
def test_the_cli_answers_a_missing_weights_file_with_one_line_and_exit_2(game, tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["run", game, "--games", "10", "--bots", f"greedy:weights={tmp_path / 'nope.toml'}",
                 "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "nope.toml" in err[0] and "not found" in err[0]
    assert not out.exists()


def _engine_signatures(game) -> int:
    """How many compiled versions the game's batch engine holds (a new one = a recompile)."""
    if game == "capybara":
        from simcore.games.capybara.turn import play_games
        return len(play_games.signatures)
    if game == "evolution":
        from simcore.games.evolution import jit as evolution_jit
        return sum(1 + len(m.rounds.signatures) for m in evolution_jit._ENGINES.values())    # builds, versions
    if game == "evo":
        from simcore.games.evo.batch_game import play_games
        return len(play_games.signatures)
    if game == "evolversi":
        return 0                     # numpy engine: nothing compiled, the weights are Python values
    raise AssertionError(game)


@pytest.mark.parametrize("game", TRAINABLE)
def test_a_new_weights_file_changes_the_games_without_recompiling(game, tmp_path):
    """Compiled faces read the weights at run time (not module globals numba would freeze)."""
    g = get_game(game)
    rs = g.data.load()
    games = np.arange(300)
    plain = g.play_batch(rs, 4, make_bots(game, "greedy", 4, rs), 5, games)
    before = _engine_signatures(game)
    s = W.schema(game)
    f = tmp_path / "moved.toml"
    f.write_text("[weights]\n" + "".join(f"{n} = {hi if d != hi else lo}\n"
                                           for n, d, (lo, hi) in zip(s.names, s.defaults, s.bounds)))
    moved = g.play_batch(rs, 4, make_bots(game, f"greedy:weights={f}", 4, rs), 5, games)
    assert _engine_signatures(game) == before
    assert (np.asarray(plain["score"]) != np.asarray(moved["score"])).any()


@pytest.mark.parametrize("game", TRAINABLE)
def test_an_edited_weights_file_is_read_again(game, tmp_path):
    """load() keeps a file's weights per version (a reference run asks every game): an edit
    to the file is seen at once, never the cached values."""
    s = W.schema(game)
    name, (lo, hi) = s.names[0], s.bounds[0]
    f = tmp_path / "w.toml"
    f.write_text(f"[weights]\n{name} = {hi}\n")
    assert W.load(game, f)[name] == hi
    assert W.load(game, f) is W.load(game, f)
    f.write_text(f"[weights]\n{name} = {lo}\n\n")
    assert W.load(game, f)[name] == lo
