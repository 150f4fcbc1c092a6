"""The reference engine's decision interface (contract sections 2, 7 and 13).

The engine never names a bot: each seat's policy object (strategies/evo/) answers
`policy.choose(decision, view) -> option index` for every decision of section 7, asked
also with one option, never with zero. `decision.options` is the contract's list:

    BID         (column c, value v)
    ADRENALINE  position k
    EVENT       0 (no), 1 (play)                 info {"effect", "card"}
    SHIFT       a shift of p.prescience_shifts   info {"token_shift", "sector"} (before the turn)
    MOVE        ("stop",), then (kind, a, b) with kind step / attack / wings / flippers;
                info {"points", "frenzy"}
    ESCAPE      zone
    BIRTH       None (no birth), then zone t, or (r, t) with a full board
    DIE         zone

`decision.h` is the BOT-stream key(seed, game, BOT, round, seat, d).

`view` is the reference Game, read only: `view.P`, `view.p` (params), `view.map`,
`view.owner`, `view.count(s)`, `view.reserve(s)`, `view.traits(s)`, `view.protected(x)`,
`view.sector`, `view.zone_class(z, sector)`, `view.climate_pile`, `view.comps`,
`view.lab_genes` (column -> gene name during the auction), `view.price(s, v)`,
`view.frenzy`, `view.mp`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import rng

KINDS = ("BID", "ADRENALINE", "EVENT", "SHIFT", "MOVE", "ESCAPE", "BIRTH", "DIE")


@dataclass
class Decision:
    """One choice point put to a seat's policy."""

    kind: str
    options: list
    seat: int
    round: int       # 1-based
    index: int       # d: the seat's decision counter in this round
    info: dict
    seed: int
    game: int

    @property
    def h(self):
        return rng.key(self.seed, self.game, rng.BOT, self.round, self.seat, self.index)
