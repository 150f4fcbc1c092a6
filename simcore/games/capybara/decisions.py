"""How the batch engine asks its policies (the batch bots' interface).

A policy is one compiled C-callable function per seat, `jit.DECIDE_SIG`:

    decide(g, rk, kind, seat, n, h) -> option index in [0, n)

- `g`, `rk`: the game and the rules as flat int64 arrays (state.py: offsets rk[O_*]);
- `kind`: the decision kind (codes.D_*, contract section 8), asked also with one option;
- the options are the rows (a, b) at g[rk[O_OPTS] + 2 k], k < n, in the contract's order:
  OPENING (slot, -), ACTION (0 play | 1 discard, card uid), DISCARD_PLACE / PLACE / GATHER
  (seat, slot), NEXT_CARD (-1 stop | card uid), PLACE_OTHERS / COMPLETE / LOCK (slot, -),
  COPY_TOKENS (source, destination); CANCEL, DOUBLE, CROWN_COMPLETE are 0 no / 1 yes and
  PEEK's n = k! permutations in itertools order (no rows);
- `h`: the decision's address key(seed, game, BOT, turn, seat, d) (the random bot's draw);
- the context words g[rk[O_CTX] + C_*]: the actor, the effect (code, amount, colour) of
  the card being declared / doubled / answered, its declared option (C_DECLARED, C_OPT_A,
  C_OPT_B), C_DEPTH = how deep in the answer chain the card answered is (0: the card
  played), C_SLOT = the crown slot (CROWN_COMPLETE) or k (PEEK: the top k cards of the
  deck at g[rk[O_DECK] + g[G_DTOP]:]).
A policy may write the look-ahead arrays (O_TOK2, O_SUP2, O_SFAT2, O_TFAT2), O_OPTS2 and
its own script position (O_SPOS) and the scratch words g[rk[O_TMP] + 2 N:]
(N = rk[R_N]; m + P + 6 N + 5 of them); nothing else. It reports a scripted-choice mismatch by
setting g[G_ERR] (codes.ERR_*).
"""
from __future__ import annotations

from .codes import CANCEL, COPY_CARD, EFFECT_DECISION, NONE
from .jit import kernel
from .state import G_DISC_N, O_DISC, T_CACT, T_CAMT, T_CEFF

C_ACTOR, C_EFFECT, C_AMOUNT, C_COLOUR, C_DECLARED, C_OPT_A, C_OPT_B, C_DEPTH, C_SLOT = range(9)
_DK = EFFECT_DECISION


@kernel
def effect_decision(eff):
    """The decision kind an effect asks (-1: none)."""
    return _DK[eff]


@kernel
def effective_effect(g, rk, card):
    """Contract 4.1 step 2: (effect, amount) of `card`; a Copybara takes the discard top's."""
    eff, amount = rk[rk[T_CEFF] + card], rk[rk[T_CAMT] + card]
    if eff != COPY_CARD:
        return eff, amount
    if g[G_DISC_N] == 0:
        return NONE, 0
    top = g[rk[O_DISC] + g[G_DISC_N] - 1]
    te = rk[rk[T_CEFF] + top]
    if te == COPY_CARD or te == CANCEL:
        return NONE, 0
    return te, rk[rk[T_CAMT] + top]


@kernel
def effect_live(g, rk, card):
    """Knockouts: whether `card`'s effect works when played now: the card's row is
    active, and for a Copybara so is the row of the card it copies. The rules alone call it;
    decisions are asked as if every effect worked."""
    if rk[rk[T_CACT] + card] != 1:
        return False
    if rk[rk[T_CEFF] + card] != COPY_CARD or g[G_DISC_N] == 0:
        return True
    return rk[rk[T_CACT] + g[rk[O_DISC] + g[G_DISC_N] - 1]] == 1
