"""Every game that provides the search protocol (docs/rollout.md): the rollout bot is as
reproducible as any other bot, and it does not see what its seat cannot see."""
import numpy as np
import polars as pl
import pytest

from simcore.games import GAMES, get_game
from simcore.runner import check_spec, iter_chunks, play
from strategies.registry import make_bots
from strategies.rollout import missing

from .kit import decision_points, four_or_nearest, outcome_row, rows

SEARCHABLE = [g for g in GAMES if not missing(get_game(g))]
K = 4                              # continuations per option: enough to test, fast


def _lineup(game, players, spec=f"rollout:k={K}"):
    base = get_game(game).default_bot
    return make_bots(game, [spec] + [base] * (players - 1), players)


def _state_at_search(game, players, seed=2, game_index=1, skip=2):
    """A saved state where seat `seat` takes a searched decision, `skip` such points in."""
    g = get_game(game)
    rs = g.data.load()
    seen = 0
    for state, point in decision_points(game, players, seed, game_index):
        if len(set(map(str, g.legal_options(rs, state, *point)))) > 1:
            if seen == skip:
                return rs, state, point
            seen += 1
    raise AssertionError("no searchable decision in the game")


def test_search_protocol_is_checked():
    assert "capybara" in SEARCHABLE


@pytest.mark.parametrize("game", SEARCHABLE)
def test_rollout_game_replays_identically_on_both_engines(game):
    g = get_game(game)
    rs = g.data.load()
    players = four_or_nearest(game)
    bots = _lineup(game, players)
    batch = play(g, rs, players, bots, 5, np.arange(3))
    for k in range(3):
        log: list[str] = []
        ref = play(g, rs, players, bots, 5, [k], engine="reference", log=log)
        assert outcome_row(ref, 0) == outcome_row(batch, k)
        assert any(line.startswith("rollout seat 0") for line in log)
    again = play(g, rs, players, bots, 5, np.arange(3))
    assert all(outcome_row(again, k) == outcome_row(batch, k) for k in range(3))


@pytest.mark.parametrize("game", SEARCHABLE)
def test_rollout_rows_identical_across_batch_sizes_and_workers(game):
    players = four_or_nearest(game)
    bots = _lineup(game, players)
    whole = rows(game, "default", players, bots, 3, 0, 8)
    spec = check_spec(get_game(game).data.load(), bots, players, None, 3)
    chunked = pl.concat([c for _, _, c, _ in iter_chunks(spec, 8, batch_size=3, jobs=2)])
    assert chunked.equals(whole)
    alone = rows(game, "default", players, bots, 3, 6, 7)
    assert alone.equals(whole.filter(pl.col("game") == 6))


@pytest.mark.parametrize("game", SEARCHABLE)
def test_determinize_keeps_what_the_seat_saw_and_hides_the_rest(game):
    g = get_game(game)
    players = four_or_nearest(game)
    rs, state, (seat, kind) = _state_at_search(game, players)
    other_world = g.determinize(rs, state, seat, 987654321)
    assert g.legal_options(rs, other_world, seat, kind) == g.legal_options(rs, state, seat, kind)
    # the re-deal depends on what the seat saw, not on the hidden cards' places
    for key in (1, 2, 3):
        assert g.determinize(rs, state, seat, key) == g.determinize(rs, other_world, seat, key)
    worlds = [g.determinize(rs, state, seat, key) for key in range(6)]
    assert any(w != state for w in worlds)                   # something hidden was re-dealt


@pytest.mark.parametrize("game", SEARCHABLE)
def test_rollout_choice_unchanged_when_only_hidden_information_changes(game):
    g = get_game(game)
    players = four_or_nearest(game)
    rs, state, (seat, kind) = _state_at_search(game, players)
    rollout = make_bots(game, f"rollout:k={K}", 1)[0]._impl()
    options = list(range(len(g.legal_options(rs, state, seat, kind))))
    choice = rollout.choose(rs, state, seat, kind, options, 2, 1)
    for key in (11, 12, 13):
        world = g.determinize(rs, state, seat, key)
        assert world != state
        assert rollout.choose(rs, world, seat, kind, options, 2, 1) == choice


@pytest.mark.slow
@pytest.mark.parametrize("game", SEARCHABLE)
def test_rollout_beats_random(game):
    g = get_game(game)
    rs = g.data.load()
    players = four_or_nearest(game)
    bots = make_bots(game, [f"rollout:k={K}"] + ["random"] * (players - 1), players)
    out = play(g, rs, players, bots, 9, np.arange(40))
    winner = np.asarray(out["winner"], bool)
    share = (winner[:, 0] / winner.sum(axis=1).clip(1)).mean()
    assert share > 1.5 / players


@pytest.mark.parametrize("game", SEARCHABLE)
def test_each_searched_decision_of_a_game_has_its_own_keys(game, monkeypatch):
    """Continuation keys are addressed by the decision's place in the game, not by a state
    field: Evo's state has no turn counter, and keys made from it repeated for every
    decision of a seat (the same dice in every search of the game)."""
    from strategies.rollout import Rollout
    seen = []
    choose = Rollout.choose

    def spy(self, rs, state, seat, kind, options, seed, game_index, n=0):
        seen.append(tuple(self.keys(seed, game_index, n, seat)))
        return choose(self, rs, state, seat, kind, options, seed, game_index, n)

    monkeypatch.setattr(Rollout, "choose", spy)
    g = get_game(game)
    rs = g.data.load()
    players = four_or_nearest(game)
    play(g, rs, players, _lineup(game, players, "rollout:k=2"), 5, np.arange(1))
    assert len(seen) >= 3, f"only {len(seen)} searched decisions in the game"
    assert len(set(seen)) == len(seen), "two searched decisions share their continuation keys"
