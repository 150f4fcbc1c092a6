"""How the batch engine asks its policies (the batch bots' interface), and the helpers
every phase shares: the random streams (= simcore.rng), the species traits, the board.

A policy is one compiled C-callable function per seat, `jit.DECIDE_SIG`:

    decide(g, rk, kind, seat, n, h) -> option index in [0, n)

- `g`, `rk`: the game and the rules as flat int64 arrays (state.py: offsets rk[O_*],
  tables rk[X_*]); the seats' traits are rows of g at O_TRAIT (codes.T_*);
- `kind`: the decision kind (codes.D_*, contract section 7), asked also with one option;
- the options are the rows (w0, w1, w2) at g[rk[O_OPTS] + 3 k], k < n, in the contract's
  order: BID (column, value, -), ADRENALINE (position, -, -), EVENT (0 no | 1 play),
  SHIFT (shift, -, -), MOVE (codes.M_* kind, a, b; M_STOP row first), ESCAPE (zone, -, -),
  BIRTH (r or -1, t, -; row 0 = (-1, -1): no birth), DIE (zone, -, -);
- `h`: the decision's address key(seed, game, BOT, round, seat, d) (the random bot's draw);
- context words: g[G_INFO] = the event effect (EVENT), g[G_TOKEN_SHIFT] = the revealed
  token's shift (EVENT prescience, SHIFT).
A policy may write its own script position (O_SPOS) and the scratch g[rk[O_PTMP]:];
nothing else. It reports a scripted-choice mismatch by setting g[G_ERR] (codes.ERR_*).
"""
from __future__ import annotations

import numpy as np

from ...rng import BOT, CHANCE
from .codes import (E_ADRENALINE, E_ATTACK_HORNS, E_BIRTH_RANGE, E_CAVE, E_CHAMELEON, E_COASTAL,
                    E_DEFENCE_HORNS, E_EGGS, E_FLOOR, E_FUR, E_HORNS, E_KILLER, E_MOVE_POINTS, E_SIXTH,
                    E_THERMO, E_VIALS, E_WINGS, ERR_BAD_CHOICE, K_DIE, N_TRAITS, T_ADRENALINE, T_ATTACK,
                    T_CAVE, T_CHAMELEON, T_COASTAL, T_DEFENCE, T_EGGS, T_FLOOR, T_FUR, T_KILLER, T_MOVES,
                    T_RANGE, T_SIXTH, T_THERMO, T_VIALS, T_WINGS)
from .batch_bits import set_word, word, zone_in, zone_out
from .schema import GENE_EFFECTS
from .jit import kernel
from .state import (G_DICE_N, G_DICE_POS, G_DISC_N, G_ERR, G_EVENTS, G_GAME, G_ROLLS, G_ROUND, G_SECTOR,
                    O_COUNT, O_DCNT, O_DICE, O_DISC, O_HAND, O_HAND_N, O_HELD, O_OPTS, O_OWNER,
                    O_TMP, O_TRAIT, R_BASE_EGGS, R_BASE_FUR, R_BASE_HORNS, R_BASE_MOVES, R_BASE_THERMO,
                    R_BIRTH_RANGE, R_CAP, R_E, R_F, R_FLOOR, R_HORN_ADD, R_MIN_COST, R_NCL, R_NEV, R_NG, R_P, R_T,
                    UK_DIE, UK_GAME, UK_ROUND, UK_SEATS, UK_SEED,
                    X_EVACT, X_EVEFF, X_GACT, X_GAMT, X_GEFF, X_TERR, X_WHEEL)

# ------------------------------------------------------------------ random streams

from ...rng_jit import add, below, key3  # noqa: F401  (compiled simcore.rng, re-exported)


@kernel
def shuffle(g, u, h, at, n):
    """Order g[at:at+n] (uids) by key(h, uid) ascending, as rng.shuffle_order (stable on
    ties); an insertion sort on the scratch u[1:]: the piles are small."""
    for k in range(n):
        u[1 + k] = add(h, g[at + k])
    for k in range(1, n):
        kk, vv = u[1 + k], g[at + k]
        j = k - 1
        while j >= 0 and u[1 + j] > kk:
            u[2 + j] = u[1 + j]
            g[at + j + 1] = g[at + j]
            j -= 1
        u[2 + j] = kk
        g[at + j + 1] = vv


@kernel
def roll(g, rk, u):
    """The next die face uid of this round: a forced face first, else the K_DIE stream; the
    round's roll counter counts both (contract 2 and 15)."""
    n = g[G_ROLLS]
    g[G_ROLLS] = n + 1
    if g[G_DICE_POS] < g[G_DICE_N]:
        f = g[rk[O_DICE] + g[G_DICE_POS]]
        g[G_DICE_POS] += 1
        return f
    return below(add(u[round_keys(g, rk, u) + UK_DIE], n), rk[R_F])


@kernel(inline=True)
def round_keys(g, rk, u):
    """Where the round's keys start in u (state.u_keys), made first if their tag is not this
    seed, game and round (a copied u, a branch's own seed in u[0], a loaded state)."""
    at = rk[R_NG] + rk[R_NEV] + rk[R_NCL] + 2
    if (u[at + UK_ROUND] != np.uint64(g[G_ROUND]) or u[at + UK_GAME] != np.uint64(g[G_GAME])
            or u[at + UK_SEED] != u[0]):
        make_round_keys(g, rk, u, at)
    return at


@kernel
def make_round_keys(g, rk, u, at):
    """The address prefixes of the round (contract 2): key(seed, game, CHANCE, K_DIE, round)
    for the dice, key(seed, game, BOT, round, seat) per seat for the decisions: ask and roll
    then hash one part each, not six (a decision cost six splitmix rounds in a chain)."""
    bot = add(key3(u[0], g[G_GAME], BOT), g[G_ROUND])
    for s in range(rk[R_P]):
        u[at + UK_SEATS + s] = add(bot, s)
    u[at + UK_DIE] = add(add(key3(u[0], g[G_GAME], CHANCE), K_DIE), g[G_ROUND])
    u[at + UK_SEED] = u[0]
    u[at + UK_GAME] = np.uint64(g[G_GAME])
    u[at + UK_ROUND] = np.uint64(g[G_ROUND])


# ------------------------------------------------------------------ decisions

# The one-line helpers below are inlined (`kernel(inline=True)`): numba does not inline a
# compiled call by itself, and each call passes g and rk with reference counting.

@kernel
def ask(g, rk, u, pol, kind, seat, n):
    """Decision `kind` of `seat` among n options (rows at O_OPTS); contract 2's address."""
    d = g[rk[O_DCNT] + seat]
    g[rk[O_DCNT] + seat] = d + 1
    h = add(u[round_keys(g, rk, u) + UK_SEATS + seat], d)
    c = pol[seat](g, rk, kind, seat, n, h)
    if c < 0 or c >= n:
        if g[G_ERR] == 0:
            g[G_ERR] = ERR_BAD_CHOICE
        c = 0
    return c


@kernel(inline=True)
def opt(g, rk, c, j):
    return g[rk[O_OPTS] + 3 * c + j]


@kernel(inline=True)
def set_opt(g, rk, n, a, b, c):
    at = rk[O_OPTS] + 3 * n
    g[at] = a
    g[at + 1] = b
    g[at + 2] = c


@kernel
def yes_no(g, rk):
    """EVENT's two rows: 0 no, 1 play."""
    set_opt(g, rk, 0, 0, 0, 0)
    set_opt(g, rk, 1, 1, 0, 0)


# ------------------------------------------------------------------ traits and board

@kernel(inline=True)
def trait(g, rk, s, t):
    return g[rk[O_TRAIT] + s * N_TRAITS + t]


N_EFFECTS = len(GENE_EFFECTS)
_NONE = -(1 << 60)         # set_traits: the largest amount of an effect no held gene has


@kernel
def set_traits(g, rk, s):
    """Contract 1, species traits of seat s over its active genes (knockouts: contract 10).
    Each effect's amounts are summed (counted effects) and their largest kept (ranged ones,
    the flags, the horns of a kind) in the scratch O_TMP, with no branch on the genes: a
    branch per gene on whether it is held and on its effect was missed often."""
    E = rk[R_E]
    held, gact, geff, gamt = rk[O_HELD] + s * E, rk[X_GACT], rk[X_GEFF], rk[X_GAMT]
    tsum = rk[O_TMP]                  # N_EFFECTS sums, then N_EFFECTS largest amounts
    tmax = tsum + N_EFFECTS
    for x in range(N_EFFECTS):
        set_word(g, tsum + x, 0)
        set_word(g, tmax + x, _NONE)
    for e in range(E):
        n = word(g, held + e) * word(rk, gact + e)          # copies held, 0 if knocked out
        eff, amt = word(rk, geff + e), word(rk, gamt + e)
        set_word(g, tsum + eff, word(g, tsum + eff) + amt * n)
        set_word(g, tmax + eff, max(word(g, tmax + eff), _NONE + np.int64(n > 0) * (amt - _NONE)))
    at = rk[O_TRAIT] + s * N_TRAITS
    horns = rk[R_BASE_HORNS] + g[tsum + E_HORNS]
    if rk[R_HORN_ADD] == 1:
        g[at + T_ATTACK] = horns + g[tsum + E_ATTACK_HORNS]
        g[at + T_DEFENCE] = horns + g[tsum + E_DEFENCE_HORNS]
    else:
        g[at + T_ATTACK] = max(horns, max(0, g[tmax + E_ATTACK_HORNS]))
        g[at + T_DEFENCE] = max(horns, max(0, g[tmax + E_DEFENCE_HORNS]))
    g[at + T_MOVES] = rk[R_BASE_MOVES] + g[tsum + E_MOVE_POINTS]
    g[at + T_THERMO] = rk[R_BASE_THERMO] + g[tsum + E_THERMO]
    g[at + T_FUR] = rk[R_BASE_FUR] + g[tsum + E_FUR]
    g[at + T_EGGS] = rk[R_BASE_EGGS] + g[tsum + E_EGGS]
    g[at + T_VIALS] = g[tsum + E_VIALS]
    g[at + T_CAVE] = g[tsum + E_CAVE]
    g[at + T_RANGE] = max(rk[R_BIRTH_RANGE], g[tmax + E_BIRTH_RANGE])
    g[at + T_FLOOR] = max(rk[R_FLOOR], g[tmax + E_FLOOR])
    g[at + T_WINGS] = max(0, g[tmax + E_WINGS])
    g[at + T_COASTAL] = 1 if g[tmax + E_COASTAL] > _NONE else 0
    g[at + T_KILLER] = 1 if g[tmax + E_KILLER] > _NONE else 0
    g[at + T_SIXTH] = 1 if g[tmax + E_SIXTH] > _NONE else 0
    g[at + T_ADRENALINE] = 1 if g[tmax + E_ADRENALINE] > _NONE else 0
    g[at + T_CHAMELEON] = 1 if g[tmax + E_CHAMELEON] > _NONE else 0


@kernel(inline=True)
def protected(g, rk, x):
    """Contract 1: at or below its floor a clan cannot be attacked."""
    return g[rk[O_COUNT] + x] <= g[rk[O_TRAIT] + x * N_TRAITS + T_FLOOR]


@kernel(inline=True)
def reserve(g, rk, s):
    return rk[R_CAP] - g[rk[O_COUNT] + s]


@kernel(inline=True)
def place(g, rk, s, z):
    g[rk[O_OWNER] + z] = s
    g[rk[O_COUNT] + s] += 1
    zone_in(g, rk, s, z)


@kernel(inline=True)
def remove(g, rk, z):
    """The dinosaur on z goes back to its owner's reserve."""
    s = g[rk[O_OWNER] + z]
    g[rk[O_COUNT] + s] -= 1
    g[rk[O_OWNER] + z] = -1
    zone_out(g, rk, s, z)


@kernel(inline=True)
def zone_class(g, rk, sector, z):
    return rk[rk[X_WHEEL] + sector * rk[R_T] + rk[rk[X_TERR] + z]]


@kernel(inline=True)
def price(g, rk, s, v):
    """What seat s pays for a bid of v (contract 4.2)."""
    return max(rk[R_MIN_COST], v - g[rk[O_TRAIT] + s * N_TRAITS + T_VIALS])


# ------------------------------------------------------------------ event cards

@kernel
def event_card(g, rk, s, effect):
    """Position in s's hand of its lowest-uid active card with `effect`, or -1."""
    hand, eff, act = rk[O_HAND] + s * rk[R_NEV], rk[X_EVEFF], rk[X_EVACT]
    best, at = -1, -1
    for i in range(word(g, rk[O_HAND_N] + s)):
        c = word(g, hand + i)
        if word(rk, eff + c) == effect and word(rk, act + c) == 1 and (best < 0 or c < best):
            best, at = c, i
    return at


@kernel
def play_event(g, rk, s, i):
    """Card i of s's hand goes to the discard pile (tally `events`); returns its uid."""
    NEV = rk[R_NEV]
    base = rk[O_HAND] + s * NEV
    c = g[base + i]
    n = g[rk[O_HAND_N] + s]
    for j in range(i, n - 1):
        g[base + j] = g[base + j + 1]
    g[rk[O_HAND_N] + s] = n - 1
    g[rk[O_DISC] + g[G_DISC_N]] = c
    g[G_DISC_N] += 1
    g[G_EVENTS] += 1
    return c


@kernel(inline=True)
def current_class(g, rk, z):
    return zone_class(g, rk, g[G_SECTOR], z)
