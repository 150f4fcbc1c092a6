"""Evo, the batch engine: compiled with numba, one game after another on one flat state
array per batch (docs/games/evo.md; setup and the first phases in batch_phases.py, the
board phases in batch_board.py, the loop in batch_game.py, the policy interface in
decisions.py, build and cache in jit.py).

Evo branches per game everywhere (auctions, movement, combat), so the compiled loop over
the games beats batch-wide numpy masks. Game k is the same in any batch: every draw comes
from the addressed streams (simcore.rng).
"""
from __future__ import annotations

import warnings
from contextlib import contextmanager

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from ...errors import UserError
from ...jit import compiled
from .. import seat_policies
from .codes import (DECISIONS, ERR_BAD_CHOICE, ERR_NO_PILE, ERR_ROUND_LIMIT, ERR_SCRIPT_EMPTY,
                    ERR_SCRIPT_KIND, PH_MUTATION, UNTIL_END, UNTIL_PHASE, UNTIL_ROUND, UNTIL_TURN)
from .state import (G_CURSOR, G_ENDED, G_ERR, G_PHASE, O_SCRIPT, O_SCRIPT_N, R_E, R_L, R_ROUNDS, SCRIPT_MAX,
                    Packed, new_packed)

# "turn": one phase, or up to the next seat's turn in the auction or the movement; a state
# before an auction gets its lab drawn into `draws` (the search protocol's decision points)
_UNTIL = {"phase": UNTIL_PHASE, "round": UNTIL_ROUND, "end": UNTIL_END, "turn": UNTIL_TURN}
_MISC = 11


@contextmanager
def _quiet():
    """The policies are first-class functions, an 'experimental' numba feature: no warning
    per call (pytest resets the filter jit.py sets at import)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaExperimentalFeatureWarning)
        yield


def check_players(rs, players, policies) -> None:
    seat_policies.check_players("evo", rs, players, policies)


def pack(rs, players, policies, seed, traj_rows: int = 0) -> tuple[Packed, tuple]:
    """The packed arrays (scripts written in) and the policy tuple, padded to the ruleset's
    `players_max` seats: numba compiles the engine once per tuple width, so every player
    count of a ruleset shares one build (the default data: 5 wide, as before)."""
    pk = new_packed(rs, players, seed, traj_rows)
    rk = pk.rk
    seat_policies.write_scripts(pk.g, policies, int(rk[O_SCRIPT]), int(rk[O_SCRIPT_N]), int(rk[R_L]), SCRIPT_MAX)
    pol = [compiled(p.decide) for p in policies]
    pol += [pol[0]] * (rs["players_max"] - len(pol))
    return pk, tuple(pol)


_POLICIES: dict = {}
_CACHE_MAX = 256            # (ruleset, bot) pairs kept: a sweep over many rulesets stays flat


def policies_of(rs, bots) -> list:
    """Each bot's batch policy, built once per (ruleset content, bot) in a process (a
    search driver asks for the same bots' policies at every turn); a bot that is not
    hashable (a script's choices) is built each time."""
    out = []
    for b in bots:
        try:
            p = _POLICIES.get((rs.hash, b))
        except TypeError:
            out.append(b.batch_policy(rs))
            continue
        if p is None:
            if len(_POLICIES) >= _CACHE_MAX:
                _POLICIES.clear()
            p = _POLICIES[(rs.hash, b)] = b.batch_policy(rs)
        out.append(p)
    return out


def check_error(err: int, game: int) -> None:
    seat_policies.check_choice_error(err, game, DECISIONS, ERR_SCRIPT_EMPTY, ERR_SCRIPT_KIND, ERR_BAD_CHOICE)
    if err == ERR_NO_PILE:
        raise UserError(f"game {game}: the climate pile ran out without a meteorite", key="climate_pile")
    if err == ERR_ROUND_LIMIT:
        raise RuntimeError(f"evo game {game} did not end (engine bug)")


def _outputs(B, P, E, R):
    return (np.zeros((B, P), np.int64), np.zeros((B, P), np.int64), np.zeros((B, P), np.bool_),
            np.zeros((B, P, E), np.int64), np.zeros((B, _MISC), np.int64), np.zeros((B, R, P), np.int64))


def _rows(score, dinos, win, won, misc, standing, trajectories) -> dict:
    out = {"score": score, "winner": win, "rounds": misc[:, 0].copy(), "end_reason": misc[:, 1].copy(),
           "won": won, "dinosaurs": dinos, "sector": misc[:, 2].copy(), "attacks": misc[:, 3].copy(),
           "kills": misc[:, 4].copy(), "births": misc[:, 5].copy(), "climate_deaths": misc[:, 6].copy(),
           "events": misc[:, 7].copy(), "faction": np.tile(np.arange(score.shape[1]), (score.shape[0], 1))}
    if trajectories:
        out["standing"] = standing
    return out


def warmup(rs, players, policies) -> None:
    """Compile (or load from the cache) the engine by playing one game; a script that runs
    out just stops it (its error is not a user's here)."""
    from .batch_game import play_games
    pk, pol = pack(rs, players, list(policies), 0)
    with _quiet():
        play_games(pk.g, pk.rk, pk.u, pol, np.zeros(1, np.int64),
                   *_outputs(1, players, int(pk.rk[R_E]), int(pk.rk[R_ROUNDS])))


def play_batch(rs, players, policies, seed, games, trajectories=False) -> dict:
    """Play games `games` (int64 game indices) to the end; contract section 8's outcome."""
    from .batch_game import play_games
    policies = list(policies)
    check_players(rs, players, policies)
    games = np.ascontiguousarray(games, dtype=np.int64)
    pk, pol = pack(rs, players, policies, seed)
    outs = _outputs(len(games), players, int(pk.rk[R_E]), int(pk.rk[R_ROUNDS]))
    with _quiet():
        play_games(pk.g, pk.rk, pk.u, pol, games, *outs)
    misc = outs[4]
    for b in np.flatnonzero(misc[:, 8]):
        check_error(int(misc[b, 8]), int(games[b]))
    return _rows(*outs, trajectories)


def initial_state(rs, players, seed, game) -> dict:
    """The JSON state (contract 15) of game `game` right after setup (contract 3)."""
    from . import batch_io
    from .batch_phases import setup
    if not isinstance(players, int) or not rs["players_min"] <= players <= rs["players_max"]:
        raise UserError(f"evo plays with {rs['players_min']} to {rs['players_max']} players, got {players}",
                        key="players")
    pk = new_packed(rs, players, seed)
    setup(pk.g, pk.rk, pk.u, game)
    return batch_io.dump(rs, pk)


def run_state(rs, state, policies, seed, game, until):
    """Play a JSON state (contract 15) forward to `until`; (state, outcome or None)."""
    from . import batch_io
    from .batch_game import outcome, run
    from .batch_phases import draw_lab
    if until not in _UNTIL:
        raise UserError(f"until must be one of {', '.join(_UNTIL)}, got {until!r}", key="until")
    policies = list(policies)
    players = batch_io.players_of(state)
    check_players(rs, players, policies)
    pk, pol = pack(rs, players, policies, seed, batch_io.rounds_needed(state))
    batch_io.load(rs, pk, state, game)
    with _quiet():
        run(pk.g, pk.rk, pk.u, pol, _UNTIL[until])
        if (until == "turn" and pk.g[G_ENDED] == 0 and pk.g[G_ERR] == 0 and pk.g[G_PHASE] == PH_MUTATION
                and pk.g[G_CURSOR] == 0):
            draw_lab(pk.g, pk.rk, pk.u)
    R = batch_io.trajectory_rows(pk)
    outs = _outputs(1, players, int(pk.rk[R_E]), max(R, 1))
    outcome(pk.g, pk.rk, 0, *outs)
    check_error(int(outs[4][0, 8]), game)
    out = batch_io.dump(rs, pk)
    if not out["ended"]:
        return out, None
    rows = _rows(*outs, True)
    one = {k: (v[0] if isinstance(v, np.ndarray) else v) for k, v in rows.items()}
    for k in ("rounds", "end_reason", "sector", "attacks", "kills", "births", "climate_deaths", "events"):
        one[k] = int(one[k])
    one["standing"] = one["standing"][:R]
    return out, one

