"""The decision interface between the Evolversi engines and the bots (contract section 6).

The engines never name a bot: each seat's policy object is handed in from above
(strategies/evolversi/, through the adapter) and called at every choice point.

Batch engine: a `BatchDecision` puts one decision kind to the games `g` whose deciding
seat has the same policy; `policy.choose(q)` returns one choice per game, (G,) int64:
- without a mask (`q.valid is None`): an option index in 0..q.n-1 (the contract's order);
- with a mask (`q.valid` (G, K) bool): a column of the mask that is True (the r-th legal
  option is the r-th True column; `q.column(r)` converts).
A batch policy also says `uses_keys`: whether it reads `q.keys()`, the decision's BOT-stream
key `key(seed, game, BOT, round, seat, d)`; if no seat's policy does, the engine does not
count decisions at all.

Reference engine: `policy.choose(decision, view) -> option index` with the one-game
`reference.Decision` and the reference `Game` as a read-only view.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ... import rng

KINDS = ("PLACE", "ORDER", "OPTIONAL", "TARGET", "SWAP_MARKET", "BUY", "IGNORE_EVENT",
         "TOTEM_OR_FURY", "SWAP_ABOVE", "REACT", "MORE")
# the kind codes of the compiled interface (below), in KINDS order
(D_PLACE, D_ORDER, D_OPTIONAL, D_TARGET, D_SWAP_MARKET, D_BUY, D_IGNORE_EVENT, D_TOTEM_OR_FURY,
 D_SWAP_ABOVE, D_REACT, D_MORE) = range(len(KINDS))


@dataclass
class BatchDecision:
    """One decision kind for G games of a batch (the view is read only)."""

    kind: str
    g: np.ndarray                 # (G,) rows of the batch state
    seat: np.ndarray              # (G,) int64 the deciding seat
    n_given: np.ndarray | None    # (G,) int64 number of options (None: counted from valid)
    valid: np.ndarray | None      # (G, K) bool legal columns, or None: options 0..n-1
    view: object                  # the engine run: .st (State), .tb (Tables), .P, .pairs, ...
    info: dict = field(default_factory=dict)    # name -> (G, ...) per-game facts (below)
    shared: dict = field(default_factory=dict)  # name -> facts common to all G games
    _seat_key: np.ndarray | None = None         # (G,) key(seed, game, BOT, round, seat)
    _d: np.ndarray | None = None                # (G,) the seat's decision counter

    def __len__(self) -> int:
        return len(self.g)

    @property
    def n(self) -> np.ndarray:
        """(G,) int64 the number of options of each game (counted from the mask on demand)."""
        if self.n_given is None:
            self.n_given = self.valid.sum(axis=1)
        return self.n_given

    def keys(self) -> np.ndarray:
        """(G,) uint64 key(seed, game, BOT, round, seat, d) (the seat key's last hash step)."""
        if self._seat_key is None:
            raise RuntimeError("decision keys were not counted: set uses_keys on the policy")
        with np.errstate(over="ignore"):
            return rng._mix(np.asarray(self._seat_key, np.uint64) ^ np.asarray(self._d, np.uint64))

    def column(self, r: np.ndarray) -> np.ndarray:
        """The column of option r (the r-th legal one) of each game; r itself without a mask."""
        return r if self.valid is None else nth_valid(self.valid, r)

    def subset(self, sel) -> "BatchDecision":
        """The same decision for the games `sel` (bool mask or indices) only."""
        pick = (lambda x: None if x is None else x[sel])
        return BatchDecision(self.kind, self.g[sel], self.seat[sel], pick(self.n_given), pick(self.valid),
                             self.view, {k: v[sel] for k, v in self.info.items()}, self.shared,
                             pick(self._seat_key), pick(self._d))


def nth_valid(valid: np.ndarray, r: np.ndarray) -> np.ndarray:
    """Column of the r-th True entry of each row of `valid` (G, K) (option r of the list)."""
    G, K = valid.shape
    if K > 16:
        seen = np.cumsum(valid, axis=1)
        return np.argmax(seen > r[:, None], axis=1)
    col = np.zeros(G, np.int64)
    seen = np.zeros(G, np.int64)
    for k in range(K):
        v = valid[:, k]
        col += k * (v & (seen == r))
        seen += v
    return col


# What `info` / `shared` hold for each kind (uids are card uids, -1 = none):
INFO = {
    "PLACE": "info hand (G, h) uids in hand order; shared options (n, h) bool: position above?",
    "ORDER": "info cards (G, H) the effect cards in placement order, -1 padded",
    "OPTIONAL": "info card (G,) the card's uid",
    "TARGET": "info verb (G,) VERB code, options (G, P-1) the other seats in option order",
    "SWAP_MARKET": "info market (G, M) uids; shared pairs (K, 2) slot pairs; valid marks occupied pairs",
    "BUY": "info market (G, M) uids, cost (G, M) after discount, tokens (G,); column 0 = no purchase, 1 + i = slot i",
    "IGNORE_EVENT": "info verb (G,) the Event's VERB code",
    "TOTEM_OR_FURY": "info holds_totem (G,) bool",
    "SWAP_ABOVE": "info own (G, K) uid of own card above per column, theirs (G, K) the other's card",
    "REACT": "info card (G,) the reaction card's uid",
    "MORE": "info card (G,) the card offering `more`, target (G,) the seat it touched",
}


# The compiled interface (turn.py, phase 3 compiled whole): a bot with a compiled form
# (`policy.compiled_form(tb)` -> (a jit.DECIDE_PTR_SIG policy, its int64 data `rk`), else None:
# the numpy path plays) is called as decide(q, rk, kind, seat, n, h), q and rk by address
# (pointers: index them, nothing else; their Python form gets the arrays): `kind` a D_ code,
# `n` the number of options, `h` the decision's BOT-stream key (0 when no seat's policy
# reads keys, `uses_keys`), and it returns an option
# index 0..n-1 in the contract's order. A masked decision of the numpy interface lists only
# its legal options, in column order (option r = the r-th legal column); a decision with one
# option is answered 0 without calling the policy (its counter still advances). `q` is the frame:
# q[0:OPT] the decision's facts, then option r's three words at q[OPT + 3 r] (uids: card uids):
OPT = 16
FRAME = {
    "PLACE": "q[0] h, q[1 + j] the uid at hand position j; q[OPT + r] option r's positions above (bit j)",
    "ORDER": "q[0] n, q[1 + j] the effect cards in placement order",
    "OPTIONAL": "q[0] the card, q[1] its VERB code, q[2] M; q[OPT + i] the uid in market slot i (-1 empty)",
    "TARGET": "q[0] the VERB code; option r: the seat, its tokens, its pawn",
    "SWAP_MARKET": "option r (an occupied pair (i, j)): the uid in slot i, in slot j, i * M + j",
    "BUY": "q[0] the tokens; option 0 no purchase; option r >= 1: the uid, its cost after the discount, its slot",
    "IGNORE_EVENT": "q[0] the Event's VERB code",
    "TOTEM_OR_FURY": "q[0] 1 if it holds the Totem",
    "SWAP_ABOVE": "option r: own uid above, the other's uid above, the numpy column",
    "REACT": "q[0] the reaction card",
    "MORE": "q[0] the card, q[1] the seat it touched",
}
