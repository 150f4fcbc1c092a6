"""The compiled game loop: phases in order until `until`, the outcome row of a game
(contract 8), and the loop over the games of a batch on one reused `g`.

`pol` is a tuple of one compiled policy per seat (jit.DECIDE_SIG, see decisions.py),
padded to the ruleset's `players_max` (rules.pack) so the engine compiles once for every
player count; `u` is the uint64 scratch (u[0] the seed).
"""
from __future__ import annotations

from .batch_board import birth, movement, survival
from .batch_phases import climate, initiative, mutation, setup
from .codes import (ERR_NO_PILE, ERR_ROUND_LIMIT, PH_BIRTH, PH_CLIMATE, PH_INITIATIVE, PH_MOVEMENT,
                    PH_MUTATION, UNTIL_PHASE, UNTIL_ROUND, UNTIL_TURN)
from .jit import kernel
from .state import (G_ATTACKS, G_BIRTHS, G_CDEATHS, G_ENDED, G_ERR, G_EVENTS, G_KILLS, G_PHASE, G_REASON,
                    G_ROUND, G_ROUNDS, G_SECTOR, G_TRAJ_N, O_COUNT, O_MP, O_TRAJ, O_WON, R_E, R_P, R_TRAJ)


@kernel
def run(g, rk, u, pol, until):
    """Play on until the end, the end of this phase (UNTIL_PHASE) or of this round; with
    UNTIL_TURN also before each seat's turn in the auction and the movement (G_CURSOR)."""
    turns = until == UNTIL_TURN
    while g[G_ENDED] == 0 and g[G_ERR] == 0:
        if g[G_TRAJ_N] >= rk[R_TRAJ]:
            g[G_ERR] = ERR_ROUND_LIMIT
            return
        ph = g[G_PHASE]
        if ph == PH_CLIMATE:
            if not climate(g, rk, u, pol):
                g[G_ERR] = ERR_NO_PILE
                return
        elif ph == PH_MUTATION:
            mutation(g, rk, u, pol, turns)
        elif ph == PH_INITIATIVE:
            initiative(g, rk, u, pol)
        elif ph == PH_MOVEMENT:
            movement(g, rk, u, pol, turns)
        elif ph == PH_BIRTH:
            birth(g, rk, u, pol)
        else:
            survival(g, rk, u, pol)
        if until == UNTIL_PHASE or turns or (until == UNTIL_ROUND and g[G_PHASE] == PH_CLIMATE):
            return


@kernel
def outcome(g, rk, b, score, dinos, win, won, misc, standing):
    """Contract 8: the row b of a batch's outputs (standing: up to its width in rounds)."""
    P, E = rk[R_P], rk[R_E]
    for s in range(P):
        score[b, s] = g[rk[O_MP] + s]
        dinos[b, s] = g[rk[O_COUNT] + s]
        for e in range(E):
            won[b, s, e] = g[rk[O_WON] + s * E + e]
    for s in range(P):
        best = True
        for x in range(P):
            if score[b, x] > score[b, s] or (score[b, x] == score[b, s] and dinos[b, x] > dinos[b, s]):
                best = False
        win[b, s] = best
    for r in range(min(g[G_TRAJ_N], standing.shape[1])):
        for s in range(P):
            standing[b, r, s] = g[rk[O_TRAJ] + r * P + s]
    misc[b, 0] = g[G_ROUNDS]
    misc[b, 1] = g[G_REASON]
    misc[b, 2] = g[G_SECTOR]
    misc[b, 3] = g[G_ATTACKS]
    misc[b, 4] = g[G_KILLS]
    misc[b, 5] = g[G_BIRTHS]
    misc[b, 6] = g[G_CDEATHS]
    misc[b, 7] = g[G_EVENTS]
    misc[b, 8] = g[G_ERR]
    misc[b, 9] = g[G_ENDED]
    misc[b, 10] = g[G_ROUND]


@kernel
def play_games(g, rk, u, pol, games, score, dinos, win, won, misc, standing):
    """Every game of `games` from setup to the end, one after the other on the same `g`."""
    for b in range(games.shape[0]):
        setup(g, rk, u, games[b])
        run(g, rk, u, pol, 2)
        outcome(g, rk, b, score, dinos, win, won, misc, standing)
