"""How a game unfolds: lead changes, decisiveness, runaway leaders, comebacks, drama, uncertainty.

Input: trajectories, one standing per seat after every round, as arrays over G games

    standing: (G, R, P) float   seat standings after rounds 1..R; rounds past a game's end ignored
    rounds:   (G,) int          rounds each game lasted (1..R)
    winner:   (G, P) bool       the game's winners (a shared win marks every winner)

`standing` is the game's own progress measure, higher is better (an adapter whose score
is "lower is better", like fatigue, negates it first). Every metric is defined in
docs/metrics.md with a worked example; the per-game functions return one value per game,
and `summary` aggregates them with 95% intervals (Wilson for rates, normal for means).

Conventions (the same in every function):
- the leader after round r is the seat with the highest standing; when several seats
  share the highest standing there is no single leader that round, and the lead stays
  with whoever held it last (a tie neither takes nor changes the lead);
- "the winner" of a shared win is any of the winners (the first for per-seat reads, the
  most favourable for "was the winner ever ...").
"""
from __future__ import annotations

import numpy as np
import polars as pl

from .metrics import max_seats
from .stats import mean_interval, wilson

NO_LEADER = -1


def _live(rounds: np.ndarray, R: int) -> np.ndarray:
    """(G, R) bool: round r (0-based) was played."""
    return np.arange(R)[None, :] < np.asarray(rounds)[:, None]


def sole_leader(standing: np.ndarray) -> np.ndarray:
    """(G, R) int: the seat alone at the top after each round, or NO_LEADER on a tie."""
    top = standing.max(axis=2, keepdims=True)
    at_top = standing == top                             # (G, R, P)
    alone = at_top.sum(axis=2) == 1
    return np.where(alone, at_top.argmax(axis=2), NO_LEADER)


def lead_holder(standing: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """(G, R) int: who holds the lead after each round (a tie keeps the last sole leader)."""
    sole = sole_leader(standing)
    sole = np.where(_live(rounds, standing.shape[1]), sole, NO_LEADER)
    holder = sole.copy()
    for r in range(1, holder.shape[1]):                  # carry forward over ties: a loop over rounds
        holder[:, r] = np.where(holder[:, r] == NO_LEADER, holder[:, r - 1], holder[:, r])
    return np.where(_live(rounds, standing.shape[1]), holder, NO_LEADER)


def lead_changes(standing: np.ndarray, rounds: np.ndarray) -> np.ndarray:
    """(G,) int: times the lead passed from one seat to another."""
    h = lead_holder(standing, rounds)
    changed = (h[:, 1:] != h[:, :-1]) & (h[:, 1:] != NO_LEADER) & (h[:, :-1] != NO_LEADER)
    return changed.sum(axis=1)


def _winner_at_top(standing: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """(G, R) bool: some winner has the highest standing (alone or shared) after round r."""
    top = standing.max(axis=2, keepdims=True)
    return ((standing == top) & winner[:, None, :]).any(axis=2)


def decisiveness(standing: np.ndarray, rounds: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """(G,) float in (0, 1]: the share of the game played when a winner reached the top for
    good (r*/R, r* the first round from which a winner is at the top in every later round).
    Low: decided early. nan for a game without winner, 1.0 when a winner only tops the last round."""
    G, R, _ = standing.shape
    live = _live(rounds, R)
    top = _winner_at_top(standing, winner) | ~live      # rounds past the end do not break "for good"
    # for good from r: every round r..R at the top; scan from the end
    good = np.flip(np.logical_and.accumulate(np.flip(top, axis=1), axis=1), axis=1)
    good &= live
    first = np.where(good.any(axis=1), good.argmax(axis=1) + 1, np.asarray(rounds))
    out = first / np.maximum(np.asarray(rounds), 1)
    return np.where(winner.any(axis=1), out, np.nan)


def leader_wins(standing: np.ndarray, rounds: np.ndarray, winner: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per round r: (sole leader exists after r, that leader won (its win share)), both (G, R).

    P(win | leading after round r) is wins[:, r].sum() / leads[:, r].sum(): the runaway-leader
    curve, to read against 1/players."""
    sole = np.where(_live(rounds, standing.shape[1]), sole_leader(standing), NO_LEADER)
    leads = sole != NO_LEADER
    share = winner / np.maximum(winner.sum(axis=1, keepdims=True), 1)   # (G, P)
    won = np.take_along_axis(share, np.maximum(sole, 0), axis=1)        # (G, R)
    return leads, np.where(leads, won, 0.0)


def halfway(rounds: np.ndarray) -> np.ndarray:
    """(G,) the halfway round, 1-based: ceil(rounds / 2)."""
    return (np.asarray(rounds) + 1) // 2


def comeback(standing: np.ndarray, rounds: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """(G,) bool: a winner was alone at the bottom after the halfway round."""
    G = standing.shape[0]
    h = halfway(rounds) - 1
    at_half = standing[np.arange(G), h]                  # (G, P)
    bottom = at_half == at_half.min(axis=1, keepdims=True)
    alone = bottom.sum(axis=1) == 1
    return alone & (bottom & winner).any(axis=1)


def drama(standing: np.ndarray, rounds: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """(G,) float: the largest gap, in standing, between the top and the best-placed winner
    over the rounds played (0: a winner was never behind). nan for a game without winner."""
    live = _live(rounds, standing.shape[1])
    best_winner = np.where(winner[:, None, :], standing, -np.inf).max(axis=2)    # (G, R)
    gap = np.where(live, standing.max(axis=2) - best_winner, 0.0)
    out = gap.max(axis=1)
    return np.where(winner.any(axis=1), out, np.nan)


def late_swap(standing: np.ndarray, rounds: np.ndarray, winner: np.ndarray) -> np.ndarray:
    """(G,) bool: the final round changed who won: before it, no winner was at the top
    (alone or shared). Games of one round count as not swapped."""
    G = standing.shape[0]
    r = np.asarray(rounds)
    before = standing[np.arange(G), np.maximum(r - 2, 0)]              # after round R-1
    at_top = before == before.max(axis=1, keepdims=True)
    return (r >= 2) & ~(at_top & winner).any(axis=1)


def per_game(standing, rounds, winner) -> pl.DataFrame:
    """One row per game: every per-game metric."""
    standing = np.asarray(standing, dtype=float)
    rounds = np.asarray(rounds, dtype=np.int64)
    winner = np.asarray(winner, dtype=bool)
    return pl.DataFrame({
        "rounds": rounds,
        "lead_changes": lead_changes(standing, rounds),
        "decisiveness": decisiveness(standing, rounds, winner),
        "comeback": comeback(standing, rounds, winner),
        "drama": drama(standing, rounds, winner),
        "late_swap": late_swap(standing, rounds, winner),
    })


def summary(standing, rounds, winner) -> pl.DataFrame:
    """One row per metric: estimate and 95% interval over the games."""
    df = per_game(standing, rounds, winner)
    rows = []
    for name in ("lead_changes", "decisiveness", "drama"):
        v = df[name].drop_nans().to_numpy()
        m, lo, hi = mean_interval(v)
        rows.append({"metric": name, "kind": "mean", "value": m, "lo": lo, "hi": hi, "games": len(v)})
    for name in ("comeback", "late_swap"):
        v = df[name].to_numpy()
        p, lo, hi = wilson(v.sum(), len(v))
        rows.append({"metric": name, "kind": "rate", "value": float(p), "lo": float(lo), "hi": float(hi),
                     "games": len(v)})
    return pl.DataFrame(rows)


def runaway_curve(standing, rounds, winner) -> pl.DataFrame:
    """P(win | sole leader after round r) for each round r, with Wilson intervals and the fair share."""
    standing = np.asarray(standing, dtype=float)
    rounds = np.asarray(rounds, dtype=np.int64)
    winner = np.asarray(winner, dtype=bool)
    leads, won = leader_wins(standing, rounds, winner)
    n = leads.sum(axis=0)
    s = won.sum(axis=0)
    p, lo, hi = wilson(s, n)
    players = standing.shape[2]
    return pl.DataFrame({"round": np.arange(1, standing.shape[1] + 1), "games": n, "p_win": p,
                         "lo": lo, "hi": hi, "fair_share": np.full(len(n), 1 / players)}
                        ).filter(pl.col("games") > 0)


__all__ = ["sole_leader", "lead_holder", "lead_changes", "decisiveness", "leader_wins", "comeback",
           "drama", "late_swap", "per_game", "summary", "runaway_curve", "halfway", "NO_LEADER"]


def has_trajectories(games: pl.DataFrame) -> bool:
    """Whether the rows carry each seat's standing after every round (`s{seat}_standing`)."""
    return "s0_standing" in games.columns


def arrays(games: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(standing (G, R, P), rounds (G,), winner (G, P)) of rows of one player count."""
    seats = [s for s in range(max_seats(games)) if games[f"s{s}_standing"].null_count() == 0]
    standing = np.stack([games[f"s{s}_standing"].to_numpy() for s in seats], axis=2).astype(float)
    winner = np.stack([games[f"s{s}_win"].to_numpy() for s in seats], axis=1).astype(bool)
    return standing, games["rounds"].to_numpy().astype(np.int64), winner


def factions(games: pl.DataFrame) -> np.ndarray | None:
    """(G, P) each seat's faction (as text), or None when no seat ever changes faction (a game
    without factions: the faction is the seat, and its table would be the seat table) or the
    column is absent."""
    seats = [s for s in range(max_seats(games)) if games[f"s{s}_standing"].null_count() == 0]
    if not all(f"s{s}_faction" in games.columns for s in seats):
        return None
    f = np.stack([games[f"s{s}_faction"].cast(pl.Utf8).to_numpy() for s in seats], axis=1).astype(str)
    return None if (f == f[:1]).all() else f
