"""Variance reduction of seat win rates with a faction-strength control fixed by a pilot run.

    faction_control(rs, games=20_000, pilot=5_000) -> one row per seat: the raw and the adjusted
    win rate with their 95% half-widths and the variance reduction factor (reports.measures.control).

The pilot (another run seed) measures each faction's win rate; that value of a seat's
faction, minus the mean over the game's seats, is the control. Factions are dealt the same
way to every seat, so the control has mean zero and the adjusted rate stays unbiased.
Games without factions have no such value before the game starts (`has_factions`).
"""
from __future__ import annotations

import numpy as np
import polars as pl

from reports.measures.control import adjusted_mean, coefficient, seat_control
from simcore.errors import UserError
from simcore.games import get_game
from simcore.runner import run_chunk

from .lineup import run_spec


def _seat_arrays(games: pl.DataFrame, players: int) -> tuple[np.ndarray, np.ndarray]:
    y = np.stack([games[f"s{s}_share"].cast(pl.Float64).to_numpy() for s in range(players)], axis=1)
    f = np.stack([games[f"s{s}_faction"].cast(pl.Utf8).to_numpy() for s in range(players)], axis=1)
    return y, f


def faction_control(rs, bots=None, players: int = 4, games: int = 20_000, pilot: int = 5_000, seed: int = 0) -> list[dict]:
    """Per seat: the win rate with and without the faction control (pilot on seed + 1)."""
    if not get_game(rs.game).has_factions:
        raise UserError(f"{rs.game} has no factions: no faction value to control for", key="ruleset")
    py, pf = _seat_arrays(run_chunk(run_spec(rs, bots, players, None, seed + 1), 0, pilot)[0], players)
    value = {name: float(py[pf == name].mean()) for name in np.unique(pf)}
    b = coefficient(py, seat_control(np.vectorize(value.get)(pf)))
    y, f = _seat_arrays(run_chunk(run_spec(rs, bots, players, None, seed), 0, games)[0], players)
    c = seat_control(np.vectorize(lambda n: value.get(n, 1.0 / players))(f))
    return [{"seat": s, "coefficient": b, **adjusted_mean(y[:, s], c[:, s], b)} for s in range(players)]
