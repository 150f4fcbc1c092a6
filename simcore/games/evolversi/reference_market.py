"""The reference engine's market and phase 4 (contract section 4, phase 4): played cards to
their owners' discards, the market to the common discards and refilled from the Evolution
deck (rebuilt from the common discards when empty), the planted runaway-leader rule, the
round cap. A part of `reference.Game` (its methods read the game's own state); kept apart
so that each file does one thing."""
from __future__ import annotations

from .components import KIND_EVOLUTION as EVOLUTION_KIND


class Market:
    """Mixed into reference.Game."""

    def slide_market(self, slot: int) -> None:
        """The cards left of the bought one move one slot right; the leftmost empties."""
        for j in range(slot + 1, len(self.market)):
            self.market[j - 1] = self.market[j]
        self.market[-1] = None

    def market_text(self) -> str:
        return " | ".join(self.cname(u) for u in self.market[:self.active_slots])

    # ------------------------------------------------------------------ phase 4
    def new_market(self) -> None:
        """Phase 4: played cards to own discards, market to the common discards, refill."""
        for s, seat in enumerate(self.seats):
            seat.discard.extend(seat.above + seat.below)
            seat.above, seat.below, seat.revealed = [], [], False
        self.evolution_discard.extend(uid for uid in self.market if uid is not None)
        self.market = [None] * len(self.market)
        for slot in range(self.active_slots):
            self.market[slot] = self.draw_evolution()
        if self.log is not None:
            self.say("played cards go to their owners' discards; the market is refilled: "
                     f"{self.market_text()}")
        self.leader_bonus()
        if self.round >= self.p["max_rounds"]:
            self.ended, self.end_reason, self.winners = True, "stalled", []
            if self.log is not None:
                self.say(f"round cap {self.p['max_rounds']} reached: the game ends with no winner")
            return
        self.round += 1
        # A new round has no turn order until its phase 2: the state shows seat order.
        self.phase, self.turn, self.order = "play", 0, list(range(self.players))

    def leader_bonus(self) -> None:
        """Planted runaway-leader rule (parameter leader_bonus, 0 = off; not in the rulebook):
        the sole leader on the track moves leader_bonus spaces, no Pressure step."""
        bonus = self.p["leader_bonus"]
        positions = [seat.position for seat in self.seats]
        if bonus <= 0 or positions.count(max(positions)) != 1:
            return
        leader = positions.index(max(positions))
        if self.log is not None:
            self.say(f"runaway-leader rule: the sole leader moves {bonus} space(s)", leader)
        self.move_pawn(leader, bonus)
        self.end_check()

    def draw_evolution(self):
        """Top card of the Evolution deck; an empty deck is rebuilt from the common discards."""
        if not self.evolution_deck:
            if not self.evolution_discard:
                return None
            self.shuffles["evolution"] += 1
            self.evolution_deck = self.shuffle(self.evolution_discard, self.comps.card_ident, EVOLUTION_KIND,
                                               self.shuffles["evolution"])
            self.evolution_discard = []
            if self.log is not None:
                self.say(f"the Evolution deck is rebuilt from the common discards "
                         f"(shuffle {self.shuffles['evolution']})")
        return self.evolution_deck.pop(0)
