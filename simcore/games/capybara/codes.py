"""Integer codes shared by the compiled engine, its state layout and the compiled bots.

Effects and symbols are indices into schema.EFFECTS / schema.SYMBOLS (a symbol code is the
index + 1, 0 = plain or not in force); decision kinds follow contract section 8 (their
lower-case names are the scenario `kind`s); chance kinds are contract section 2.
"""
from __future__ import annotations

from .schema import EFFECTS, SYMBOLS

PLACE, PLACE_OTHERS, COMPLETE, GATHER, COPY_CARD, LOCK, COPY_TOKENS, CANCEL, NONE = range(9)
assert EFFECTS == ("place", "place_others", "complete", "gather", "copy_card", "lock",
                   "copy_tokens", "cancel", "none")
(SYM_BANNED, SYM_CROWN_COMPLETE, SYM_CROWN_DOUBLE, SYM_CROWN_PEEK, SYM_DOUBLE_TOKENS,
 SYM_PLUS_ONE, SYM_ALL_PLACE) = range(1, 8)
assert SYMBOLS == ("banned_colour", "crown_complete", "crown_double", "crown_peek",
                   "double_tokens", "plus_one", "all_place")

# decision kinds (contract section 8)
DECISIONS = ("opening", "action", "discard_place", "next_card", "place", "place_others",
             "complete", "gather", "lock", "copy_tokens", "cancel", "double", "crown_complete",
             "peek")
(D_OPENING, D_ACTION, D_DISCARD_PLACE, D_NEXT_CARD, D_PLACE, D_PLACE_OTHERS, D_COMPLETE,
 D_GATHER, D_LOCK, D_COPY_TOKENS, D_CANCEL, D_DOUBLE, D_CROWN_COMPLETE, D_PEEK) = range(14)
# the decision each effect asks (indexed by effect code; -1: no decision)
EFFECT_DECISION = (D_PLACE, D_PLACE_OTHERS, D_COMPLETE, D_GATHER, -1, D_LOCK, D_COPY_TOKENS, -1, -1)

# chance kinds (contract section 2)
K_STRIKES, K_REMOVED_COLOUR, K_DECK, K_PART = 1, 2, 3, 4

END_REASONS = ("revolution", "boxed")
END_REVOLUTION, END_BOXED = 0, 1

# engine errors reported back to Python (g[G_ERR])
ERR_NONE, ERR_BAD_CHOICE, ERR_SCRIPT_KIND, ERR_SCRIPT_EMPTY, ERR_TURN_LIMIT = 0, 1, 2, 3, 4
