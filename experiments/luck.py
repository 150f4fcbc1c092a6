"""Luck against skill, played: the same deals with each bot at a seat, the field fixed.

    play_luck(rs, ["greedy", "random"], players=4, games=2000) -> LuckRun(y (G, S, 2), ...)

For bots A, B and a field bot F (default B): for every seat s, a table with A at s and F
in every other seat, and one with B at s and F elsewhere. Every table plays the same game
indices 0..g-1 of the same seed (common random numbers), so y[g, s, k], the seat's share
of game g's wins with bot k at seat s, differs between A and B only by the bot switch and
what it sets off. When a compared bot is the field bot its tables are one table (F at every
seat), which gives y for every seat at once. reports.measures.luck decomposes y.

The outcome y is `win` (the seat's share of the game's wins, the default) or `score`: the
seat's score margin, its score minus the mean score of the other seats, oriented so that
higher is better (a game whose score is "lower is better", like Capybara's fatigue, declares
`score_lower_is_better = True` on its adapter and the margin is negated), in the game's score
units. The ANOVA shares are ratios of variances, the same under any rescaling of y, so the
margin needs no other normalisation; the printed means are in score units.

From a ladder (`luck_from_ladder`): the ladder's tables "A alone against B at seat s" are
the A tables with field B; only the mirror table (B at every seat) is played in addition.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field as dc_field

import numpy as np
import polars as pl

from simcore.errors import UserError
from simcore.games import get_game
from simcore.runner import simulate

from .lineup import run_spec


@dataclass
class LuckRun:
    ruleset: object
    bots: list[str]              # the bots compared at a seat: [A, B]
    field: str                   # the bot in every other seat
    players: int
    seed: int
    games: int                   # game indices (deals per seat)
    y: np.ndarray                # (games, players, 2) the seat's outcome (win share: nan = nobody won)
    games_played: int
    seconds: float
    source: str = "luck"         # "luck" (played here) or "ladder" (lone tables taken from a ladder)
    tables: list = dc_field(default_factory=list)
    outcome: str = "win"         # "win" (win share) or "score" (score margin, higher is better)
    score_label: str = ""        # the game's score ("fatigue", "MP", ...)
    lower_is_better: bool = False


OUTCOMES = ("win", "score")


def score_direction(rs) -> tuple[str, bool]:
    """(the game's score label, whether a lower score is better) from its adapter."""
    game = get_game(rs.game)
    return game.score_label, bool(game.score_lower_is_better)


def parse_outcome(outcome) -> str:
    if outcome not in OUTCOMES:
        raise UserError(f"must be one of {', '.join(OUTCOMES)} (the seat's win share or its score margin), "
                        f"got {outcome!r}", key="--outcome")
    return outcome


def parse_bots(text) -> list[str]:
    names = [n.strip() for n in text.split(",")] if isinstance(text, str) else [str(n).strip() for n in text]
    if len(names) != 2 or not all(names):
        raise UserError(f"give two bots separated by a comma, the one tested and the baseline "
                        f"(e.g. greedy,random), got {text!r}", key="--bots")
    if names[0] == names[1]:
        raise UserError(f"the two bots are the same ({names[0]!r}); compare two different bots", key="--bots")
    return names


def tables(bots: list[str], field: str, players: int) -> list[tuple[int, int | None, tuple[str, ...]]]:
    """(bot index, seat or None = every seat, lineup) of every table to play."""
    out = []
    for k, bot in enumerate(bots):
        if bot == field:
            out.append((k, None, (field,) * players))
        else:
            out.extend((k, s, tuple(bot if i == s else field for i in range(players))) for s in range(players))
    return out


def seat_shares(games_df: pl.DataFrame, players: int) -> np.ndarray:
    """(G, P) each seat's share of the game's wins, nan for a game nobody won, in game order."""
    g = games_df.sort("game")
    share = np.column_stack([g[f"s{s}_share"].to_numpy() for s in range(players)]).astype(float)
    total = share.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, share / total, np.nan)


def seat_margins(games_df: pl.DataFrame, players: int, lower_is_better: bool = False) -> np.ndarray:
    """(G, P) each seat's score minus the mean of the other seats' scores, higher is better
    (negated for a lower-is-better score), in game order."""
    g = games_df.sort("game")
    score = np.column_stack([g[f"s{s}_score"].to_numpy() for s in range(players)]).astype(float)
    others = (score.sum(axis=1, keepdims=True) - score) / max(players - 1, 1)
    margin = score - others
    return -margin if lower_is_better else margin


def check(rs, bots, field, players: int, games: int, seed: int, jobs: int, outcome: str = "win"
          ) -> tuple[list[str], str]:
    parse_outcome(outcome)
    names = parse_bots(bots)
    field = names[1] if field is None else str(field).strip()
    if games < 2:
        raise UserError(f"must be at least 2 (the intervals resample game indices), got {games}", key="--games")
    if jobs < 1:
        raise UserError(f"must be at least 1, got {jobs}", key="--jobs")
    for name in dict.fromkeys(names + [field]):
        run_spec(rs, name, players, None, seed)          # unknown bot, player count, seed
    return names, field


def _play(rs, lineup, players, games, seed, jobs, batch_size, outcome: str = "win") -> np.ndarray:
    spec = run_spec(rs, list(lineup), players, None, seed)
    res = simulate(rs, spec.bots, players, games, seed, jobs, batch_size or max(1, math.ceil(games / jobs)))
    if outcome == "score":
        return seat_margins(res.games, players, score_direction(rs)[1])
    return seat_shares(res.games, players)


def play_luck(rs, bots, field: str | None = None, players: int = 4, games: int = 2000, seed: int = 0,
              jobs: int = 1, batch_size: int | None = None, progress: bool = False, outcome: str = "win") -> LuckRun:
    """Play every table (the same game indices in each) and collect y (games, seats, 2): the
    seat's win share (outcome "win") or its score margin (outcome "score")."""
    names, field = check(rs, bots, field, players, games, seed, jobs, outcome)
    plan = tables(names, field, players)
    y = np.full((games, players, 2), np.nan)
    bar = None
    if progress:
        from tqdm import tqdm  # start-up: tqdm, only when a progress bar is drawn
        bar = tqdm(total=len(plan), unit="table", desc="luck", leave=False)
    t0 = time.perf_counter()
    for k, seat, lineup in plan:
        shares = _play(rs, lineup, players, games, seed, jobs, batch_size, outcome)
        if seat is None:
            y[:, :, k] = shares
        else:
            y[:, seat, k] = shares[:, seat]
        if bar is not None:
            bar.update(1)
    if bar is not None:
        bar.close()
    label, lower = score_direction(rs)
    return LuckRun(rs, names, field, players, seed, games, y, games * len(plan), time.perf_counter() - t0,
                   tables=[list(t[2]) for t in plan], outcome=outcome, score_label=label, lower_is_better=lower)


def luck_from_ladder(lad, best: str, weakest: str, jobs: int = 1) -> LuckRun:
    """Luck against skill from a ladder: `best` alone against `weakest` at every seat (the
    ladder's tables), against the mirror table of `weakest` at every seat (played here on
    the same game indices)."""
    P, g = lad.players, lad.games_per_table
    m = lad.matches.filter((pl.col("a") == best) & (pl.col("b") == weakest)).sort(["seat", "game"])
    y = np.full((g, P, 2), np.nan)
    for s in range(P):
        rows = m.filter(pl.col("seat") == s)
        y[rows["game"].to_numpy(), s, 0] = rows["y"].fill_null(np.nan).to_numpy()
    t0 = time.perf_counter()
    y[:, :, 1] = _play(lad.ruleset, (weakest,) * P, P, g, lad.seed, jobs, None)
    return LuckRun(lad.ruleset, [best, weakest], weakest, P, lad.seed, g, y, g, time.perf_counter() - t0,
                   source="ladder", tables=[[weakest] * P])


def manifest(run: LuckRun, extra: dict | None = None) -> dict:
    rs = run.ruleset
    return {"ruleset": rs.game, "variant": rs.variant, "ruleset_hash": rs.hash, "players": run.players,
            "seed": run.seed, "bots": run.bots, "field": run.field, "games": run.games,
            "games_played": run.games_played, "seconds": run.seconds, "source": run.source,
            "tables": run.tables, "outcome": run.outcome, "score_label": run.score_label,
            "score_lower_is_better": run.lower_is_better, **(extra or {})}
