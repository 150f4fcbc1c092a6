"""Every game: any game of a run replays alone, with a readable log, as the same game."""
import pytest

from simcore.games import GAMES, get_game

from .kit import default_bots, four_or_nearest, outcome_row


@pytest.mark.parametrize("game", GAMES)
def test_replay_logs_the_game_and_gives_the_batch_result(game):
    g = get_game(game)
    rs = g.data.load()
    players = four_or_nearest(game)
    bots = default_bots(game, players)
    batch = g.play_batch(rs, players, bots, 5, list(range(40)))
    for k in (0, 17, 39):
        log: list[str] = []
        replayed = outcome_row(g.play_one(rs, players, bots, 5, k, log=log))
        assert replayed == outcome_row(batch, k)
        assert len(log) > 10 and all(isinstance(line, str) for line in log)
        again: list[str] = []
        g.play_one(rs, players, bots, 5, k, log=again)
        assert again == log                    # the same log, word for word
