"""Ernesto Capybara, the batch engine: compiled with numba, one game after another on one
flat state array per chunk (docs/games/capybara.md; the rules in table.py, piles.py,
turn.py; the policy interface in decisions.py; build and cache in jit.py).

Capybara branches per game at every card (answers, cancels, Revolutions at different
times), so the compiled loop over the games beats batch-wide numpy masks. Game k is the
same in any batch: every draw comes from the addressed streams (simcore.rng).
"""
from __future__ import annotations

import numpy as np

from ...errors import UserError
from ...jit import compiled
from ..seat_policies import check_choice_error, check_players, write_scripts
from . import batch_io as state_io
from .codes import DECISIONS, ERR_BAD_CHOICE, ERR_SCRIPT_EMPTY, ERR_SCRIPT_KIND, ERR_TURN_LIMIT
from .state import (G_ERR, O_SCRIPT, O_SCRIPT_N, R_E, R_L, R_N, R_REV, R_S, SCRIPT_MAX, new_game_array, pack_rules,
                    round_cap)

_UNTIL = {"turn": 0, "round": 1, "end": 2}


def _check_players(rs, players, policies):
    check_players("capybara", rs, players, policies)


def _pack(rs, players, policies, seed):
    rk = pack_rules(rs, players)
    g = new_game_array(rk)
    write_scripts(g, policies, int(rk[O_SCRIPT]), int(rk[O_SCRIPT_N]), int(rk[R_L]), SCRIPT_MAX)
    n_u = 2 + 2 * int(rk[R_N] + rk[R_REV] + rk[R_S])
    u = np.zeros(n_u, np.uint64)
    u[0] = np.uint64(seed & 0xFFFFFFFFFFFFFFFF)
    pol = tuple(compiled(p.decide) for p in policies)
    return rk, g, u, pol


def check_error(err: int, game: int) -> None:
    check_choice_error(err, game, DECISIONS, ERR_SCRIPT_EMPTY, ERR_SCRIPT_KIND, ERR_BAD_CHOICE)
    if err == ERR_TURN_LIMIT:
        raise RuntimeError(f"capybara game {game} did not end (engine bug)")


def warmup(rs, players, policies) -> None:
    """Compile (or load from the cache) the engine by playing one game; a script that runs
    out just stops it (its error is not a user's here)."""
    from .turn import play_games
    rk, g, u, pol = _pack(rs, players, list(policies), 0)
    E = int(rk[R_E])
    z = np.zeros((1, players), np.int64)
    play_games(g, rk, u, pol, np.zeros(1, np.int64), z, z.copy(), z.copy(), np.zeros((1, players), np.bool_),
               np.zeros((1, players, E), np.int64), np.zeros((1, 5), np.int64), _NO_STANDING)


_NO_STANDING = np.zeros((0, 0, 0), np.int64)      # trajectories off: the engine records nothing


def play_batch(rs, players, policies, seed, games, trajectories: bool = False) -> dict:
    """Play games `games` (int64 game indices) to the end; contract section 11's outcome.
    `trajectories`: also "standing" (B, round_cap, P), each seat's -fatigue after each table
    round (rounds after a game's end left 0)."""
    from .turn import play_games
    policies = list(policies)
    _check_players(rs, players, policies)
    games = np.ascontiguousarray(games, dtype=np.int64)
    rk, g, u, pol = _pack(rs, players, policies, seed)
    B, P, E = len(games), players, int(rk[R_E])
    fat, left, nstr = (np.zeros((B, P), np.int64) for _ in range(3))
    win = np.zeros((B, P), np.bool_)
    played = np.zeros((B, P, E), np.int64)
    misc = np.zeros((B, 5), np.int64)
    standing = np.zeros((B, round_cap(rs, P), P), np.int64) if trajectories else _NO_STANDING
    play_games(g, rk, u, pol, games, fat, left, nstr, win, played, misc, standing)
    for b in np.flatnonzero(misc[:, 4]):
        check_error(int(misc[b, 4]), int(games[b]))
    turns = misc[:, 0]
    more = {"standing": standing} if trajectories else {}
    return {**more, "fatigue": fat, "winner": win, "rounds": -(-turns // P), "end_reason": misc[:, 3].copy(),
            "played": played, "turns": turns.copy(), "revolutions": misc[:, 1].copy(),
            "boxed": misc[:, 2].copy(), "tokens_left": left, "strikes": nstr,
            "faction": np.tile(np.arange(P), (B, 1))}


def initial_state(rs, players, policies, seed, game) -> dict:
    """The JSON state (contract 15) of game `game` of run `seed` right after setup (contract
    3), set up by the batch engine (the OPENING decisions asked of `policies`)."""
    from .turn import setup
    policies = list(policies)
    _check_players(rs, players, policies)
    rk, g, u, pol = _pack(rs, players, policies, seed)
    setup(g, rk, u, pol, game)
    check_error(int(g[G_ERR]), game)
    return state_io.dump(rs, rk, g, np.zeros(players, np.bool_))


def run_state(rs, state, policies, seed, game, until):
    """Play a JSON state (contract 15) forward to `until`; (state, outcome or None)."""
    from .turn import outcome, run
    if until not in _UNTIL:
        raise UserError(f"until must be one of {', '.join(_UNTIL)}, got {until!r}", key="until")
    policies = list(policies)
    players = state_io.players_of(state)
    _check_players(rs, players, policies)
    rk, g, u, pol = _pack(rs, players, policies, seed)
    state_io.load(rs, rk, g, state, game)
    run(g, rk, u, pol, _UNTIL[until], _NO_STANDING, 0)
    E = int(rk[R_E])
    arrs = [np.zeros((1, players), np.int64) for _ in range(3)]
    win = np.zeros((1, players), np.bool_)
    played = np.zeros((1, players, E), np.int64)
    misc = np.zeros((1, 5), np.int64)
    outcome(g, rk, 0, arrs[0], arrs[1], arrs[2], win, played, misc)
    check_error(int(misc[0, 4]), game)
    out = state_io.dump(rs, rk, g, win[0])
    if not out["ended"]:
        return out, None
    return out, {"fatigue": arrs[0][0], "winner": win[0], "rounds": -(-int(misc[0, 0]) // players),
                 "end_reason": int(misc[0, 3]), "played": played[0], "turns": int(misc[0, 0]),
                 "revolutions": int(misc[0, 1]), "boxed": int(misc[0, 2]), "tokens_left": arrs[1][0],
                 "strikes": arrs[2][0]}
