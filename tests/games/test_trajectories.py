"""Every game that records trajectories (each seat's standing after each round): turning
them on adds the standing columns and changes nothing else, both engines record the same
standing round by round, the standing ends at the final score and reads as the game's facts
say (tests/data/games/<game>.toml, [trajectories]), and the report shows how games unfold."""
import numpy as np
import pytest

from experiments.cli import main
from experiments.lineup import run_spec
from simcore.errors import UserError
from simcore.games import GAMES, get_game
from simcore.runner import run_chunk

from .kit import facts, four_or_nearest, mixed_bots

RECORDING = [g for g in GAMES if get_game(g).standing_label is not None]


def _lineup(game: str) -> tuple[int, str]:
    players = four_or_nearest(game)
    return players, ",".join(b.name for b in mixed_bots(game, players))


def _table(game: str):
    """The game, its default data, the player count nearest 4 and the mixed line-up's bots."""
    players = four_or_nearest(game)
    return get_game(game), get_game(game).data.load(), players, mixed_bots(game, players)


def test_every_recording_game_states_how_its_standing_reads():
    assert RECORDING and all("trajectories" in facts(g) for g in RECORDING)


@pytest.mark.parametrize("game", RECORDING)
def test_turning_trajectories_on_adds_the_standing_columns_and_changes_nothing_else(game):
    rs = get_game(game).data.load()
    players, bots = _lineup(game)
    on, _ = run_chunk(run_spec(rs, bots, players, None, 9, trajectories=True), 0, 200)
    off, _ = run_chunk(run_spec(rs, bots, players, None, 9), 0, 200)
    assert [c for c in on.columns if c not in off.columns] == [f"s{s}_standing" for s in range(players)]
    assert on.select(off.columns).equals(off)


@pytest.mark.parametrize("game", RECORDING)
def test_the_last_rounds_standing_is_the_final_score_and_repeats_after_the_end(game):
    rs = get_game(game).data.load()
    players, bots = _lineup(game)
    fact = facts(game)["trajectories"]
    rows, _ = run_chunk(run_spec(rs, bots, players, None, 3, trajectories=True), 0, 200)
    st = np.stack([rows[f"s{s}_standing"].to_numpy() for s in range(players)], axis=2)
    rounds = rows["rounds"].to_numpy()
    final = fact["standing_per_score"] * np.stack([rows[f"s{s}_score"].to_numpy() for s in range(players)], axis=1)
    assert (rounds >= 1).all() and rounds.max() <= st.shape[1]
    assert (st[np.arange(len(rounds)), rounds - 1] == final).all()
    assert (st[:, -1] == final).all()                      # after the end: the final standing
    if fact["moves"] == "never rises":
        assert (np.diff(st, axis=1) <= 0).all() and (st[:, 0] > st[:, -1]).any()
    elif fact["moves"] == "rises in some game":
        assert (st[:, 0] < st[:, -1]).any()
    else:
        assert fact["moves"] == "both" and (st[:, 0] != st[:, -1]).any()
    if "lowest" in fact:
        assert (st >= fact["lowest"]).all()


@pytest.mark.parametrize("game", RECORDING)
def test_both_engines_record_the_same_standing_round_by_round(game):
    g, rs, players, bots = _table(game)
    out = g.play_batch(rs, players, bots, 21, np.arange(40), trajectories=True)
    for k in range(40):
        ref = g.play_one(rs, players, bots, 21, k, trajectories=True)
        r = int(np.asarray(out["rounds"])[k])
        assert r == int(ref["rounds"])
        assert (np.asarray(out["standing"])[k, :r] == np.asarray(ref["standing"])[:r]).all(), f"{game} game {k}"


@pytest.mark.parametrize("game", RECORDING)
def test_without_trajectories_neither_engine_returns_a_standing(game):
    g, rs, players, bots = _table(game)
    assert "standing" not in g.play_batch(rs, players, bots, 0, np.arange(3))
    assert "standing" not in g.play_one(rs, players, bots, 0, 0)


@pytest.mark.parametrize("game", RECORDING)
def test_a_run_with_trajectories_has_the_how_the_game_unfolds_section(game, tmp_path):
    players, bots = _lineup(game)
    out, plain = tmp_path / "run", tmp_path / "plain"
    common = ["run", game, "--games", "300", "--players", str(players), "--bots", bots]
    assert main([*common, "--trajectories", "--out", str(out)]) == 0
    assert main(["report", str(out)]) == 0
    html = (out / "report.html").read_text()
    assert 'id="flow"' in html and "Runaway leader" in html and get_game(game).standing_label in html
    assert main([*common, "--out", str(plain)]) == 0
    assert main(["report", str(plain)]) == 0
    assert 'id="flow"' not in (plain / "report.html").read_text()


def test_a_game_whose_engines_do_not_record_trajectories_says_so(capsys, monkeypatch):
    game = RECORDING[0]
    g = get_game(game)
    monkeypatch.setattr(g, "standing_label", None)        # stand in a game whose engines do not
    with pytest.raises(UserError) as e:
        run_spec(g.data.load(), g.default_bot, four_or_nearest(game), None, 0, trajectories=True)
    others = [x for x in GAMES if x != game and get_game(x).standing_label is not None]
    assert e.value.key == "trajectories" and all(x in e.value.message for x in others)
    assert main(["run", game, "--games", "10", "--trajectories"]) == 2
    assert "trajectories" in capsys.readouterr().err
