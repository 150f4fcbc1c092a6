"""The skill ladder: seat-rotated round-robin matches on common random numbers.

For every pair of bots A, B the ladder plays tables of P seats with one bot alone and the
other filling the rest: A alone at seat 0, 1, ..., P-1, then B alone at each seat (a table
that two rotations share, as with two players, is played once). Every rotation plays the
same game indices 0..g-1 of the same seed, so the deals (and the chance stream) are the
same across rotations and pairs: differences between bots are paired, not drowned in the
luck of the draw (common random numbers).

    play_ladder(rs, ["random", "greedy"], players=4, games=2000) -> Ladder(matches, ...)

`matches` has one row per game of one table: a (the lone bot), b (the field's bot),
n_a = 1, n_b = P - 1, seat (where the lone bot sat), game, y (the lone seat's share of the
game's wins; null when nobody won). reports.measures.bradley_terry fits ratings from it.
"""
from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np
import polars as pl

from simcore.errors import UserError
from simcore.runner import simulate
from strategies.registry import split_specs      # commas inside a spec's options stay with it

from .lineup import run_spec


@dataclass(frozen=True)
class Table:
    """One seat rotation of one pair: `lone` at `seat`, `field` in every other seat."""

    lone: str
    field: str
    seat: int
    lineup: tuple[str, ...]


@dataclass
class Ladder:
    ruleset: object
    bots: list[str]
    players: int
    seed: int
    games_per_table: int
    matches: pl.DataFrame
    seconds: dict = field(default_factory=dict)     # "a vs b" -> wall seconds of that pair


def rotations(a: str, b: str, players: int) -> list[Table]:
    """Every table of the pair: each bot alone at each seat, the other bot in the rest."""
    tables, seen = [], set()
    for lone, other in ((a, b), (b, a)):
        for seat in range(players):
            lineup = tuple(lone if s == seat else other for s in range(players))
            if lineup not in seen:           # with two players "A alone at 0" is "B alone at 1"
                seen.add(lineup)
                tables.append(Table(lone, other, seat, lineup))
    return tables


def parse_bots(text) -> list[str]:
    names = split_specs(text) if isinstance(text, str) else [str(n).strip() for n in text]
    if any(not n for n in names):
        raise UserError(f"give bot names separated by commas, got {text!r}", key="--bots")
    if len(names) < 2:
        raise UserError(f"a ladder needs at least two bots, got {', '.join(names) or 'none'}", key="--bots")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise UserError(f"bot {dup!r} is listed twice; list each bot once", key="--bots")
    return names


MIN_GAMES_PER_TABLE = 10     # fewer leave a pair with no decided game: a rating of nan


def games_per_table(games_per_pair: int, players: int) -> int:
    """Games per rotation so that each pair plays at least `games_per_pair` games in all."""
    return max(1, math.ceil(games_per_pair / len(rotations("a", "b", players))))


def check(rs, bots, players: int, games: int, seed: int, jobs: int) -> list[str]:
    """Every input check, before a game is played (UserError on a bad one)."""
    names = parse_bots(bots)
    for flag, value in (("--games", games), ("--jobs", jobs)):
        if not isinstance(value, int) or value < 1:
            raise UserError(f"must be at least 1, got {value}", key=flag)
    for name in names:
        run_spec(rs, name, players, None, seed)          # unknown bot, player count, seed
    tables = len(rotations("a", "b", players))
    if games < MIN_GAMES_PER_TABLE * tables:
        raise UserError(f"a rating needs at least {MIN_GAMES_PER_TABLE * tables} games per pair ({MIN_GAMES_PER_TABLE} "
                        f"per table x {tables} seat rotations of {players} players), got {games}", key="--games")
    return names


def _table_matches(t: Table, games_df: pl.DataFrame, players: int) -> pl.DataFrame:
    share = np.column_stack([games_df[f"s{s}_share"].to_numpy() for s in range(players)]).astype(float)
    total = share.sum(axis=1)
    decided = total > 0                                   # games that hit the round cap have no winner
    y = np.where(decided, share[:, t.seat] / np.where(decided, total, 1.0), np.nan)
    n = games_df.height
    return pl.DataFrame({
        "a": [t.lone] * n, "b": [t.field] * n,
        "n_a": np.ones(n, np.int8), "n_b": np.full(n, players - 1, np.int8),
        "seat": np.full(n, t.seat, np.int8), "game": games_df["game"].to_numpy(),
        "y": pl.Series(y).fill_nan(None),
    })


def play_ladder(rs, bots, players: int = 4, games: int = 2000, seed: int = 0, jobs: int = 1,
                batch_size: int | None = None, progress: bool = False) -> Ladder:
    """Play every pair's rotations (at least `games` games per pair) and return the matches."""
    names = check(rs, bots, players, games, seed, jobs)
    g = games_per_table(games, players)
    batch = batch_size or max(1, math.ceil(g / jobs))    # one chunk per worker
    pairs = list(itertools.combinations(names, 2))
    bar = None
    if progress:
        from tqdm import tqdm  # start-up: tqdm, only when a progress bar is drawn
        bar = tqdm(total=sum(len(rotations(a, b, players)) for a, b in pairs), unit="table", desc="ladder",
                   leave=False)
    frames, seconds = [], {}
    for a, b in pairs:
        t0 = time.perf_counter()
        for t in rotations(a, b, players):
            spec = run_spec(rs, list(t.lineup), players, None, seed)
            res = simulate(rs, spec.bots, players, g, seed, jobs, batch)
            frames.append(_table_matches(t, res.games, players))
            if bar is not None:
                bar.update(1)
        seconds[f"{a} vs {b}"] = time.perf_counter() - t0
    if bar is not None:
        bar.close()
    return Ladder(rs, names, players, seed, g, pl.concat(frames), seconds)
