"""Zone sets as bit masks for the compiled board phases (state.py: zone z is bit z % ZBITS
of word z // ZBITS; `words(rk)` words a set). The tables of rk hold each zone's
neighbours (X_NBM), balls (X_BALLM: the zones within d steps) and the coast (X_COASTM);
each seat's zones are a set of g (O_ZSETS, kept by decisions.place / remove: every
change of O_OWNER goes through them, or through zone_in / zone_out); `board_bits` writes
a seat's view of the board into the scratch O_BITS. X_CLASSM: each sector's hot, cold and
deadly zones (survival). A set's zones
are read in ascending order (`first`, `drop_first`): the order of the option rows.

Why: the option lists scanned every zone, and every neighbour and ball of each owned
zone, to find a handful of targets; with sets a zone's free neighbours are one AND."""
from __future__ import annotations

import numpy as np
from numba.core import types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from .codes import N_TRAITS, T_FLOOR
from .jit import kernel
from .state import O_BITS, O_COUNT, O_TRAIT, O_ZSETS, R_P, R_Z, X_BALLM, X_CLASSM, ZBITS

# the sets board_bits writes, in words(rk)-word slots of O_BITS (state.BITS_WORDS of
# them); birth_options adds the zones near one of s's, and near two
B_OCC, B_MINE, B_OPEN, B_OTHERS, B_NEAR, B_NEAR2 = range(6)


@kernel(inline=True)
def word(a, i):
    """a[i] for an index i >= 0 (an offset of rk plus a count), indexed unsigned: numba
    wraps every signed index (a negative one counts from the end), three more instructions
    a word in the loops over option rows."""
    return a[np.uint64(i)]


@kernel(inline=True)
def set_word(a, i, v):
    a[np.uint64(i)] = v


@kernel(inline=True)
def words(rk):
    return (rk[R_Z] + ZBITS - 1) // ZBITS


@kernel(inline=True)
def first(m):
    """The lowest bit of a non-empty word m (a zone's position in its word)."""
    return trailing_zeros(m)


@intrinsic
def popcount(typingctx, m):
    """How many zones a set word m holds (LLVM's ctpop)."""
    def codegen(context, builder, sig, args):
        return builder.ctpop(args[0])
    return types.int64(types.int64), codegen


@kernel(inline=True)
def drop_first(m):
    return m & (m - 1)


@kernel(inline=True)
def slot(rk, k):
    """Where set k of the scratch O_BITS starts."""
    return rk[O_BITS] + k * words(rk)


@kernel(inline=True)
def ball(rk, y, d):
    """Where the set of zones within d steps of y starts (d capped at the largest distance)."""
    dmax = rk[rk[X_BALLM]]
    return rk[X_BALLM] + 1 + (y * (dmax + 1) + min(d, dmax)) * words(rk)


@kernel(inline=True)
def class_sets(rk, sector):
    """Where the sector's sets of hot, cold and deadly zones start (words(rk) words each)."""
    return rk[X_CLASSM] + 3 * sector * words(rk)


@kernel(inline=True)
def zone_in(g, rk, s, z):
    """z joins seat s's set (O_ZSETS; decisions.place)."""
    g[rk[O_ZSETS] + s * words(rk) + z // ZBITS] |= 1 << (z % ZBITS)


@kernel(inline=True)
def zone_out(g, rk, s, z):
    g[rk[O_ZSETS] + s * words(rk) + z // ZBITS] &= ~(1 << (z % ZBITS))


@kernel
def board_bits(g, rk, s):
    """Seat s's view of the board into O_BITS, from the seats' sets: B_OCC every dinosaur's
    zone, B_MINE s's, B_OTHERS the other seats', B_OPEN those of the other seats above
    their clan floor (attackable)."""
    W, P = words(rk), rk[R_P]
    zs, cnt, trait = rk[O_ZSETS], rk[O_COUNT], rk[O_TRAIT]
    out = rk[O_BITS]
    for w in range(W):
        occ, opn = 0, 0
        for x in range(P):
            m = word(g, zs + x * W + w)
            occ |= m
            if x != s and not word(g, cnt + x) <= word(g, trait + x * N_TRAITS + T_FLOOR):
                opn |= m
        mine = word(g, zs + s * W + w)
        set_word(g, out + B_OCC * W + w, occ)
        set_word(g, out + B_MINE * W + w, mine)
        set_word(g, out + B_OPEN * W + w, opn)
        set_word(g, out + B_OTHERS * W + w, occ & ~mine)
