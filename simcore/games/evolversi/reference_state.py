"""The reference engine's game state in and out: loading a resolved state, the outcome
(contract section 8) and the JSON state (section 10). A part of `reference.Game`."""
from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import UserError
from . import state_io
from .state import END_REASONS


@dataclass
class Seat:
    """One animal's side of the table."""

    animal: int                                   # row in animals.csv
    position: int = 0                             # space on the Evolution track
    fury: int = 0                                 # 0..fury_max
    tokens: int = 0                               # Evolution tokens in its reserve
    deck: list = field(default_factory=list)      # card uids, top (next drawn) first
    discard: list = field(default_factory=list)   # card uids, newest last
    hand: list = field(default_factory=list)      # card uids, in draw order
    above: list = field(default_factory=list)     # card uids, placement order
    below: list = field(default_factory=list)     # card uids, placement order
    revealed: bool = False                        # its own turn revealed its cards below
    shuffles: int = 0                             # last own-deck shuffle number
    bought: list = field(default_factory=list)    # purchases per card row (cards.csv)


class StateInOut:
    """Mixed into reference.Game."""

    # ------------------------------------------------------------------ loading
    def load(self, s: dict) -> None:
        """Take over a resolved state (uids, animal indices) from state_io.resolve."""
        n_rows = len(self.cards)
        self.round, self.phase, self.turn = s["round"], s["phase"], s["turn"]
        self.order = list(s["order"])
        if sorted(self.order) != list(range(self.players)):
            raise UserError(f"must list every seat 0..{self.players - 1} once, got {self.order}", key="state.order")
        self.fourth_card, self.fourth_round = bool(s["fourth_card"]), s["fourth_round"]
        self.totem, self.supply = s["totem"], s["supply"]
        if not 0 <= self.totem < self.players:
            raise UserError(f"must be a seat 0..{self.players - 1}, got {self.totem}", key="state.totem")
        if not 0 <= self.turn <= self.players:
            raise UserError(f"must lie in 0..{self.players}, got {self.turn}", key="state.turn")
        self.market = list(s["market"])
        self.evolution_deck, self.evolution_discard = list(s["evolution_deck"]), list(s["evolution_discard"])
        self.event_deck, self.event_discard = list(s["event_deck"]), list(s["event_discard"])
        self.pressure = [dict(t) for t in s["pressure"]]
        self.shuffles = {"evolution": 0, "events": 0, **s["shuffles"]}
        self.seats = []
        for i, src in enumerate(s["seats"]):
            bought = [0] * n_rows
            for name, count in src["bought"].items():
                bought[self.card_row_by_name(name, f"state.seats[{i}].bought")] += count
            self.seats.append(Seat(animal=src["animal"], position=src["position"], fury=src["fury"],
                                   tokens=src["tokens"], deck=list(src["deck"]), discard=list(src["discard"]),
                                   hand=list(src["hand"]), above=list(src["above"]), below=list(src["below"]),
                                   revealed=bool(src["revealed"]), shuffles=src["shuffles"], bought=bought))
        self.ended, self.end_reason, self.winners = bool(s["ended"]), s["end_reason"], list(s["winners"])
        # each seat's decision counter goes on where the state stopped (BOT keys never repeat)
        self.decisions = {(self.round, i): src["decisions"] for i, src in enumerate(s["seats"])}

    # ------------------------------------------------------------------ results
    def outcome(self) -> dict:
        """Contract section 8, as plain ints and lists."""
        return {
            "position": [s.position for s in self.seats],
            "winner": [i in self.winners for i in range(self.players)],
            "rounds": self.round,
            "end_reason": END_REASONS.index(self.end_reason) if self.end_reason is not None else None,
            "animal": [s.animal for s in self.seats],
            "fury": [s.fury for s in self.seats],
            "tokens": [s.tokens for s in self.seats],
            "bought": [list(s.bought) for s in self.seats],
            "fourth_round": self.fourth_round,
        }

    def to_state(self) -> dict:
        """The game state in the contract's JSON form, cards by name (section 10)."""
        s = {
            "round": self.round, "phase": self.phase, "turn": self.turn, "order": list(self.order),
            "fourth_card": self.fourth_card, "fourth_round": self.fourth_round,
            "totem": self.totem, "supply": self.supply, "market": list(self.market),
            "evolution_deck": list(self.evolution_deck), "evolution_discard": list(self.evolution_discard),
            "event_deck": list(self.event_deck), "event_discard": list(self.event_discard),
            "pressure": [dict(t) for t in self.pressure],
            "shuffles": dict(self.shuffles),
            "seats": [dict(self.seat_state(seat), decisions=self.decisions.get((self.round, i), 0))
                      for i, seat in enumerate(self.seats)],
            "ended": self.ended, "end_reason": self.end_reason, "winners": list(self.winners),
        }
        return state_io.to_names(self.rs, self.comps, s)

    def seat_state(self, seat: Seat) -> dict:
        return {"animal": seat.animal, "position": seat.position, "fury": seat.fury, "tokens": seat.tokens,
                "deck": list(seat.deck), "discard": list(seat.discard), "hand": list(seat.hand),
                "above": list(seat.above), "below": list(seat.below), "revealed": seat.revealed,
                "shuffles": seat.shuffles,
                "bought": {self.cards[r]["name"]: n for r, n in enumerate(seat.bought) if n}}

