"""Shared fixtures: configs written to tmp folders, and a stand-in engine for in-process tests.

`fake_engine` replaces Evolversi's play_batch in this process only with a cheap,
deterministic function of (seed, game index, ruleset): enough to test the store, the
grid and resume logic without the real engine. End-to-end tests use the real engine.
"""
from __future__ import annotations

import textwrap
import zlib

import numpy as np
import pytest

from simcore import rng
from simcore.games import get_game


def fake_play_batch(rs, players, bots, seed, games, factions=None) -> dict:
    games = np.asarray(games, dtype=np.int64)
    n_ent = len(get_game("evolversi").entities(rs))
    salt = zlib.crc32(rs.hash.encode())
    h = rng.key(seed, games, rng.CHANCE, 77, salt)
    winner_seat = (h % np.uint64(players)).astype(np.int64)
    winner = np.zeros((len(games), players), dtype=bool)
    winner[np.arange(len(games)), winner_seat] = True
    rounds = 5 + (h >> np.uint64(8)) % np.uint64(10)
    stalled = ((h >> np.uint64(20)) % np.uint64(50)) == 0
    winner[stalled] = False
    score = (rng.key(seed, games, rng.CHANCE, 78)[:, None] >> np.arange(players, dtype=np.uint64)) % np.uint64(20)
    score = np.where(winner, 20, score).astype(np.int64)
    acquired = np.zeros((len(games), players, n_ent), dtype=np.int64)
    for s in range(players):
        pick = (rng.key(seed, games, rng.CHANCE, 79, s) % np.uint64(n_ent)).astype(np.int64)
        acquired[np.arange(len(games)), s, pick] = 1
    faction = np.tile(np.arange(players), (len(games), 1))
    return {"score": score, "winner": winner, "rounds": rounds.astype(np.int64),
            "end_reason": stalled.astype(np.int64), "faction": faction, "acquired": acquired,
            "extra": {"fourth_round": np.zeros(len(games), dtype=np.int16)}}


@pytest.fixture
def fake_engine(monkeypatch):
    game = get_game("evolversi")
    monkeypatch.setattr(type(game), "play_batch", lambda self, *a, **k: fake_play_batch(*a, **k))
    return game


@pytest.fixture
def write_config(tmp_path):
    """write_config(text, name='c.toml') -> path of a config file in a fresh folder."""
    def write(text: str, name: str = "c.toml"):
        path = tmp_path / "configs" / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(textwrap.dedent(text))
        return path
    return write
