"""Every game: a game's row is the same whatever the batch size, chunking or worker count."""
import polars as pl
import pytest

from simcore.games import GAMES, get_game
from simcore.runner import check_spec, iter_chunks

from .kit import four_or_nearest, mixed_bots, rows


@pytest.mark.parametrize("game", GAMES)
def test_rows_identical_across_batch_sizes_and_workers(game):
    players = four_or_nearest(game)
    bots = mixed_bots(game, players)
    whole = rows(game, "default", players, bots, 3, 0, 900)
    spec = check_spec(get_game(game).data.load(), bots, players, None, 3)
    chunked = pl.concat([g for _, _, g, _ in iter_chunks(spec, 900, batch_size=77, jobs=2)])
    assert whole.height == 900
    assert chunked.equals(whole)
    # a game alone is the same game as inside a batch
    alone = rows(game, "default", players, bots, 3, 456, 457)
    assert alone.equals(whole.filter(pl.col("game") == 456))
