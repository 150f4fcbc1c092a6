"""Greedy's card memo, compiled: within one ACTION or NEXT_CARD decision each card's value
is scored once per effect, and the effect decision that follows takes its best option
from the memo instead of scoring the options again. The memo lives in the scratch words
after batch_evaluation's (memo_at).
"""
from __future__ import annotations

from simcore.games.capybara.codes import PLACE, SYM_BANNED, SYM_DOUBLE_TOKENS
from simcore.games.capybara.decisions import effective_effect
from simcore.games.capybara.jit import kernel
from simcore.games.capybara.state import G_GAME, G_TURN, O_DCNT, R_DISCARD_PLACE, R_M, R_P, T_CCOL
from simcore.games.capybara.table import symbol

from .batch_best_option import best_discard_place, best_effect
from .batch_evaluation import scratch

# The card memo (ACTION and NEXT_CARD): cards with the same effective effect (and colour,
# when a banned_colour strike is out) score the same, so each is scored once; the row also
# keeps its best option, which the card's effect decision asked next (same state, same
# option rows) returns without scoring them again. Header: the game, turn, seat and that
# seat's decision count of the decision that wrote it, then the number of rows.
MEMO_GAME, MEMO_TURN, MEMO_SEAT, MEMO_DCOUNT, MEMO_ROWS, MEMO_HEAD = range(6)
ROW_EFF, ROW_AMOUNT, ROW_COLOUR, ROW_E, ROW_ARG, ROW_N, ROW_SIZE = range(7)


@kernel
def banned_out(g, rk):
    """A banned_colour strike is out: a card's colour changes its options."""
    for i in range(rk[R_M]):
        if symbol(g, rk, i) == SYM_BANNED:
            return True
    return False


@kernel(inline=True)
def memo_at(rk):
    _, add = scratch(rk)
    return add + rk[R_P]


@kernel
def memo_open(g, rk, s):
    """An empty memo, stamped with this decision of seat s."""
    at = memo_at(rk)
    g[at + MEMO_GAME], g[at + MEMO_TURN], g[at + MEMO_SEAT] = g[G_GAME], g[G_TURN], s
    g[at + MEMO_DCOUNT], g[at + MEMO_ROWS] = g[rk[O_DCNT] + s], 0


@kernel
def card_value(g, rk, s, card, now, banned):
    """E(s) after s plays `card` with its best option (best_effect), from the memo if a card
    with the same effect was scored in this decision."""
    eff, amount = effective_effect(g, rk, card)
    colour = rk[rk[T_CCOL] + card] if banned else -1
    at = memo_at(rk)
    rows = g[at + MEMO_ROWS]
    for r in range(rows):
        row = at + MEMO_HEAD + ROW_SIZE * r
        if g[row + ROW_EFF] == eff and g[row + ROW_AMOUNT] == amount and g[row + ROW_COLOUR] == colour:
            return g[row + ROW_E]
    e, arg, n = best_effect(g, rk, s, eff, amount, rk[rk[T_CCOL] + card], s, now)
    row = at + MEMO_HEAD + ROW_SIZE * rows
    g[row + ROW_EFF], g[row + ROW_AMOUNT], g[row + ROW_COLOUR] = eff, amount, colour
    g[row + ROW_E], g[row + ROW_ARG], g[row + ROW_N] = e, arg, n
    g[at + MEMO_ROWS] = rows + 1
    return e


@kernel
def memo_choice(g, rk, s, eff, amount, colour, n):
    """The best option the memo holds for this effect decision of s (-1: none): only right
    after s's ACTION / NEXT_CARD decision wrote it (the next decision of s in the same turn
    of the same game), so the state and the option rows are the ones it scored."""
    at = memo_at(rk)
    if (g[at + MEMO_GAME] != g[G_GAME] or g[at + MEMO_TURN] != g[G_TURN] or g[at + MEMO_SEAT] != s
            or g[at + MEMO_DCOUNT] + 1 != g[rk[O_DCNT] + s]):
        return -1
    if not banned_out(g, rk):
        colour = -1
    for r in range(g[at + MEMO_ROWS]):
        row = at + MEMO_HEAD + ROW_SIZE * r
        if (g[row + ROW_EFF] == eff and g[row + ROW_AMOUNT] == amount and g[row + ROW_COLOUR] == colour
                and g[row + ROW_N] == n):
            return g[row + ROW_ARG]
    return -1


@kernel
def discard_value(g, rk, s, now, banned):
    """best_discard_place, or the memo's PLACE row of the same amount when that scan was the
    same one: no banned_colour strike out (so the targets are the discard's slots, unlocked
    strikes) and no double_tokens strike (the discard is never doubled)."""
    if not banned:
        dbl = False
        for i in range(rk[R_M]):
            if symbol(g, rk, i) == SYM_DOUBLE_TOKENS:
                dbl = True
        if not dbl:
            at = memo_at(rk)
            for r in range(g[at + MEMO_ROWS]):
                row = at + MEMO_HEAD + ROW_SIZE * r
                if g[row + ROW_EFF] == PLACE and g[row + ROW_AMOUNT] == rk[R_DISCARD_PLACE]:
                    return g[row + ROW_E]
    return best_discard_place(g, rk, s, now)
