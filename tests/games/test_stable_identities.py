"""Every game: a component's identity is what it is (its design, owner and copy), never its
row's position, so reversing the rows of a table whose order is not a rule plays the same
games on both engines, and each entity's tallies follow the entity, not the row. Which
tables those are is the game's fact (tests/data/games/<game>.toml, [stable_identities]);
each game's own test files check that removing a design keeps every other card's place."""
import csv
from pathlib import Path

import numpy as np
import pytest

from simcore.games import get_game

from .kit import facts, four_or_nearest, games_with, mixed_bots

KEYS = ("score", "winner", "rounds", "end_reason", "faction")
GAMES_PLAYED = 20


def _reversed_tables(game: str, folder: Path) -> Path:
    """A data folder holding the game's reorderable tables with their rows reversed."""
    data = get_game(game).data.data_dir
    for table in facts(game)["stable_identities"]["reorderable"]:
        with open(data / f"{table}.csv", newline="", encoding="utf-8") as fh:
            header, *rows = list(csv.reader(fh))
        with open(folder / f"{table}.csv", "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh, lineterminator="\n").writerows([header, *rows[::-1]])
    return folder


def _by_entity(g, rs, out) -> dict:
    """Each seat's tally per entity name (summed over copies of a name), game by game."""
    names = [str(n) for n in g.entities(rs)]
    acquired = np.asarray(out["acquired"])
    tally = {}
    for i, name in enumerate(names):
        tally[name] = tally.get(name, 0) + acquired[..., i]
    return {k: v.tolist() for k, v in tally.items()}


@pytest.mark.parametrize("game", games_with("stable_identities"))
def test_reversing_the_rows_of_a_table_plays_the_same_games_on_both_engines(game, tmp_path):
    g = get_game(game)
    rs, turned = g.data.load(), g.data.load(data_dir=_reversed_tables(game, tmp_path))
    players = four_or_nearest(game)
    bots = mixed_bots(game, players)
    games = np.arange(GAMES_PLAYED)
    base, other = g.play_batch(rs, players, bots, 3, games), g.play_batch(turned, players, bots, 3, games)
    for key in KEYS:
        assert np.array_equal(np.asarray(base[key]), np.asarray(other[key])), f"batch engine: {key}"
    assert _by_entity(g, rs, base) == _by_entity(g, turned, other)
    for k in games[:5]:
        a, b = g.play_one(rs, players, bots, 3, int(k)), g.play_one(turned, players, bots, 3, int(k))
        assert all(np.array_equal(np.asarray(a[key]), np.asarray(b[key])) for key in KEYS), f"reference engine, game {k}"
