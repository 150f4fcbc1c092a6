"""The reference engine's effects (contract 5.1-5.4): conditions, targets, the verbs, Pressure
tokens and Events, reactions. A part of `reference.Game` (its methods read the game's own
state); kept apart so that each file does one thing."""
from __future__ import annotations

from .components import KIND_EVENTS as EVENTS_KIND


class GameOver(Exception):
    """Raised by the end check: the game ends at once, nothing else happens."""


class Effects:
    """Mixed into reference.Game."""

    # ------------------------------------------------------------------ effects (5.1)
    def condition_holds(self, a: int, condition: str) -> bool:
        in_order = self.phase == "actions"  # this round's order exists from phase 2 on
        return {"always": True,
                "has_totem": a == self.totem,
                "no_totem": a != self.totem,
                "first": in_order and self.order[0] == a,
                "last": in_order and self.order[-1] == a}[condition]

    def choose_target(self, a: int, verb: str) -> int:
        target = self.decide("TARGET", a, self.others(a), verb=verb)
        if self.log is not None:
            self.say(f"chooses {self.animal_name(target)} as the target", a)
        return target

    def targets(self, a: int, target: str, verb: str) -> list[int]:
        """The seats an effect touches, in the order it touches them."""
        if target == "self":
            return [a]
        if target == "other":
            return [self.choose_target(a, verb)]
        if target == "self_and_other":
            return [a, self.choose_target(a, verb)]
        if target == "all":
            return self.clockwise(a)
        if target == "all_others":
            return self.others(a)
        if self.phase != "actions" or a not in self.order:
            return []
        i = self.order.index(a)
        return self.order[:i] if target == "before" else self.order[i + 1:]

    def resolve_effect(self, a: int, verb: str, amount: int, target: str, active: int = 1) -> list[int]:
        """Apply one effect for actor a to each of its targets (no end check here); returns them.
        `active` 0: the effect's entity is knocked out (see apply)."""
        targets = self.targets(a, target, verb)
        for t in targets:
            self.apply(a, verb, amount, t, active)
        return targets

    def take_more(self, a: int, uid: int, targets: list[int]) -> None:
        """'You may also ... N more' (the `more` column, e.g. Rapina): a MORE decision, then
        the effect again with amount N on the same target."""
        card = self.card(uid)
        if self.decide("MORE", a, [0, 1], card=uid, target=targets[0]) == 0:
            if self.log is not None:
                self.say(f"{card['name']}: does not take the {card['more']} more", a)
            return
        if self.log is not None:
            self.say(f"{card['name']}: takes {card['more']} more", a)
        for t in targets:
            self.apply(a, card["effect"], card["more"], t, card["active"])

    def apply(self, a: int, verb: str, n: int, t: int, active: int = 1) -> None:
        """One verb, actor a, target t. A knocked-out entity's verb (`active` 0, contract
        5.5) changes nothing; the decisions it asks are still asked, as if it worked."""
        seat = self.seats[t]
        if not active:
            if verb == "swap_market":
                self.swap_market(a, swap=False)
            else:
                if self.log is not None:
                    self.say(f"'{verb}' is knocked out: nothing happens", t)
            return
        if verb == "gain_points":
            self.move_pawn(t, n)
        elif verb == "lose_points":
            self.move_pawn(t, -n)
        elif verb == "gain_tokens":
            got = min(n, self.supply)
            self.supply -= got
            seat.tokens += got
            if self.log is not None:
                self.say(f"gains {got} token(s) (reserve {seat.tokens}, supply {self.supply})", t)
        elif verb == "lose_tokens":
            lost = min(n, seat.tokens)
            seat.tokens -= lost
            self.supply += lost
            if self.log is not None:
                self.say(f"loses {lost} token(s) (reserve {seat.tokens}, supply {self.supply})", t)
        elif verb == "steal_tokens":
            stolen = min(n, seat.tokens)
            seat.tokens -= stolen
            self.seats[a].tokens += stolen
            if self.log is not None:
                self.say(f"steals {stolen} token(s) from {self.animal_name(t)} "
                         f"(reserve {self.seats[a].tokens})", a)
        elif verb in ("gain_fury", "copy_fury"):
            self.gain_fury(t, n)
        elif verb == "lose_fury":
            seat.fury = max(0, seat.fury - n)
            if self.log is not None:
                self.say(f"loses {n} Fury (Fury {seat.fury})", t)
        elif verb == "swap_market":
            self.swap_market(a)
        elif verb == "discount":
            self.discount += n
            if self.log is not None:
                self.say(f"its purchase this turn costs {self.discount} less", a)
        elif verb == "reveal_pressure":
            self.reveal_pressure(a)
        elif verb == "draw_event":
            self.draw_event(a)
        elif verb == "take_totem":
            self.totem = a
            self.say("takes the Totem", a)

    def move_pawn(self, t: int, delta: int) -> None:
        """Points: the pawn moves, never below 0 nor past the last space."""
        seat = self.seats[t]
        seat.position = min(max(seat.position + delta, 0), self.p["track_length"])
        if self.log is not None:
            self.say(f"{'gains' if delta >= 0 else 'loses'} {abs(delta)} Evolution point(s) "
                     f"(pawn on {seat.position})", t)
        self.check_fourth_card()

    def gain_fury(self, t: int, n: int) -> None:
        """Fury climbs its track; passing the top returns it to 0 and scores points."""
        seat = self.seats[t]
        total = seat.fury + n
        laps, seat.fury = divmod(total, self.p["fury_max"] + 1)
        if self.log is not None:
            self.say(f"gains {n} Fury (Fury {seat.fury})", t)
        if laps:
            self.move_pawn(t, laps * self.p["fury_overflow_points"])

    def check_fourth_card(self) -> None:
        """The first pawn on or past the 4th Card space flips the token (4 cards next round)."""
        if not self.fourth_card and any(s.position >= self.p["fourth_card_space"] for s in self.seats):
            self.fourth_card, self.fourth_round = True, self.round
            if self.log is not None:
                self.say(f"the 4th Card token flips: {self.rs['hand_size_fourth']} cards "
                         "from the next round on")

    def swap_market(self, a: int, swap: bool = True) -> None:
        """SWAP_MARKET, then the two cards change slots (not if `swap` is False: knocked out)."""
        pairs = self.market_pairs()
        if not pairs:
            self.say("fewer than 2 market cards: nothing to swap", a)
            return
        i, j = self.decide("SWAP_MARKET", a, pairs)
        if not swap:
            if self.log is not None:
                self.say(f"would swap market slots {i} and {j}: knocked out, nothing moves", a)
            return
        self.market[i], self.market[j] = self.market[j], self.market[i]
        if self.log is not None:
            self.say(f"swaps market slots {i} and {j}: market now {self.market_text()}", a)

    def end_check(self) -> None:
        """Any pawn on the last space ends the game at once; all such pawns win."""
        winners = [s for s, seat in enumerate(self.seats) if seat.position >= self.p["track_length"]]
        if winners:
            self.ended, self.end_reason, self.winners = True, "track", winners
            if self.log is not None:
                self.say(f"{' and '.join(self.animal_name(s) for s in winners)} reach(es) the last space "
                         f"({self.p['track_length']}): the game ends")
            raise GameOver

    # ------------------------------------------------------------------ Pressure and Events (5.3)
    def reveal_pressure(self, a: int) -> None:
        """The reveal_pressure verb: the next face-down token ahead of the pawn (own turn only)."""
        if a != self.actor or self.reveals >= self.p["pressure_per_turn"]:
            self.say("may not reveal a Pressure token now", a)
            return
        face_down = [t for t in self.pressure if not t["revealed"]]
        ahead = [t for t in face_down if t["space"] >= self.seats[a].position]
        if not face_down:
            self.say("no face-down Pressure token left", a)
            return
        self.activate_pressure(a, min(ahead or face_down, key=lambda t: t["space"]))

    def activate_pressure(self, a: int, token: dict) -> None:
        """Reveal the token and do what it says; a knocked-out token (5.5) is revealed, asks
        its decision and changes nothing."""
        token["revealed"] = True
        self.reveals += 1
        kind = self.comps.pressure_kind[token["token"]]
        active = self.rs.tables["pressure"][self.comps.pressure_row[token["token"]]]["active"]
        if self.log is not None:
            self.say(f"reveals the Pressure token on space {token['space']}: {kind}"
                     + ("" if active else " (knocked out: nothing happens)"), a)
        if kind == "meteor":
            if active:
                self.draw_event(a)
        elif kind == "totem_or_fury":
            choice = self.decide("TOTEM_OR_FURY", a, [0, 1])
            if not active:
                return
            if choice == 0:
                self.totem = a
                self.say("takes the Totem", a)
            else:
                self.gain_fury(a, self.comps.pressure_fury[token["token"]])
        else:
            self.swap_above(a, swap=bool(active))

    def swap_above(self, a: int, swap: bool = True) -> None:
        own = self.seats[a].above
        options = [(i, other, j) for i in range(len(own)) for other in self.others(a)
                   for j in range(len(self.seats[other].above))]
        if not options:  # no card above on one side: nothing can change places
            self.say("no cards above to swap", a)
            return
        i, other, j = self.decide("SWAP_ABOVE", a, options)
        if not swap:
            return
        theirs = self.seats[other].above
        if self.log is not None:
            self.say(f"swaps its {self.cname(own[i])} above with {self.animal_name(other)}'s "
                     f"{self.cname(theirs[j])}", a)
        own[i], theirs[j] = theirs[j], own[i]

    def draw_event(self, a: int) -> None:
        """Draw the top Event (rebuild the deck from its discards if needed), resolve, discard."""
        if not self.event_deck:
            if not self.event_discard:
                self.say("no Event card left to draw", a)
                return
            self.shuffles["events"] += 1
            self.event_deck = self.shuffle(self.event_discard, self.comps.event_ident, EVENTS_KIND,
                                           self.shuffles["events"])
            self.event_discard = []
            if self.log is not None:
                self.say(f"the Event deck is rebuilt from its discards (shuffle {self.shuffles['events']})")
        uid = self.event_deck.pop(0)
        self.resolve_event(a, uid)
        self.event_discard.append(uid)

    def resolve_event(self, a: int, uid: int) -> None:
        """An Event: actor a; the Totem holder among the targets may ignore it."""
        event = self.events[self.comps.event_row[uid]]
        if self.log is not None:
            self.say(f"draws the Event {event['name']} ({describe_card(event)})", a)
        if not self.condition_holds(a, event["condition"]):
            if self.log is not None:
                self.say(f"{event['name']}: condition '{event['condition']}' not met, nothing happens", a)
            return
        targets = self.targets(a, event["target"], event["effect"])
        holder = self.totem
        if holder in targets:
            if self.decide("IGNORE_EVENT", holder, [0, 1], verb=event["effect"], event=uid) == 1:
                targets.remove(holder)
                if self.log is not None:
                    self.say(f"holds the Totem and ignores {event['name']}", holder)
            else:
                if self.log is not None:
                    self.say(f"holds the Totem and lets {event['name']} apply", holder)
        for t in targets:
            self.apply(a, event["effect"], event["amount"], t, event["active"])

    # ------------------------------------------------------------------ reactions (5.4)
    def reactions(self, trigger: str, x: int, amount: int) -> None:
        """Advanced Genetics: other animals' cards below answer x's Fury symbols or purchase."""
        for s in self.others(x):
            seat = self.seats[s]
            if seat.revealed and not self.p["reactions_after_own_turn"]:
                continue
            for uid in [u for u in seat.below if self.card(u)["trigger"] == trigger]:
                if uid in seat.below:
                    self.react(s, uid, amount)

    def react(self, s: int, uid: int, amount: int) -> None:
        seat, card = self.seats[s], self.card(uid)
        if card["optional"] and self.decide("REACT", s, [0, 1], card=uid) == 0:
            if self.log is not None:
                self.say(f"does not react with {card['name']}", s)
            return
        if self.log is not None:
            self.say(f"reacts with {card['name']} ({describe_card(card)})", s)
        if self.condition_holds(s, card["condition"]):
            n = amount if card["effect"] == "copy_fury" else card["amount"]
            self.resolve_effect(s, card["effect"], n, card["target"], card["active"])
        # The card text: "put this card in your discards".
        seat.below.remove(uid)
        seat.discard.append(uid)
        self.end_check()


# ---------------------------------------------------------------------- readable effects
_VERB_TEXT = {
    "gain_points": "gain {n} Evolution point(s)", "lose_points": "lose {n} Evolution point(s)",
    "gain_tokens": "gain {n} token(s)", "lose_tokens": "lose {n} token(s)",
    "steal_tokens": "steal up to {n} token(s)", "gain_fury": "gain {n} Fury", "lose_fury": "lose {n} Fury",
    "copy_fury": "gain the same Fury", "swap_market": "swap 2 market cards",
    "discount": "the purchase costs {n} less", "reveal_pressure": "reveal a Pressure token",
    "draw_event": "draw and activate an Event", "take_totem": "take the Totem", "none": "no effect",
}
_TARGET_TEXT = {"self": "", "other": ", another animal", "all": ", every animal",
                "all_others": ", every other animal", "before": ", each animal before it in turn order",
                "after": ", each animal after it in turn order", "self_and_other": ", itself and another animal"}
_CONDITION_TEXT = {"always": "", "has_totem": "if it has the Totem: ", "no_totem": "if it has no Totem: ",
                   "first": "if first in turn order: ", "last": "if last in turn order: "}


def describe(verb: str, amount: int, target: str, condition: str = "always") -> str:
    """An effect in words, e.g. 'if it has the Totem: gain 1 Evolution point(s)'."""
    return _CONDITION_TEXT[condition] + _VERB_TEXT[verb].format(n=amount) + _TARGET_TEXT[target]


def describe_card(row: dict) -> str:
    text = describe(row["effect"], row["amount"], row["target"], row["condition"])
    if row.get("more"):
        text += f"; it may take {row['more']} more"
    if row.get("optional"):
        text = "optional: " + text
    if row.get("discard"):
        text += ", then discard it"
    return text

