"""Ernesto Capybara reference engine, part 2: strikes, card effects, answers, symbols.

Contract sections 5 (effects), 6 (Capybaranka answers), 7 (leader, taking, refilling,
symbols) and the crown step of 4. A mixin of the reference `Game` (reference.py): it reads
and changes the same plain state (slots as dicts, hands as sorted uid lists).

Knockouts: a row with active = 0 keeps its cards and strikes in the game; the
rules skip its effect (`works`, `live`) while every decision is still asked, and the bots'
board shows the printed symbols (they play as if everything worked).
"""
from __future__ import annotations

import itertools

from .reference_decisions import Board


class Effects:
    """Strikes and effects of one game (mixed into reference.Game)."""

    # ------------------------------------------------------------------ strikes (7)
    def active(self, symbol: str) -> bool:
        return symbol in self.p["symbols"]

    def symbol(self, i: int) -> str:
        """The printed symbol of slot i's strike in force ("none" if empty, plain or not in
        force): what decisions are asked for and what the bots see."""
        st = self.slots[i]["strike"]
        if st is None:
            return "none"
        s = self.comps.strike_symbol[st]
        return s if self.active(s) else "none"

    def live(self, i: int) -> bool:
        """Slot i holds a strike that is not knocked out (its row's active flag)."""
        st = self.slots[i]["strike"]
        return st is not None and self.comps.strike_active[st] == 1

    def working(self, i: int) -> str:
        """The symbol the rules apply: the printed one on a live strike, else "none"."""
        return self.symbol(i) if self.live(i) else "none"

    def banned_colour(self, i: int, printed: bool = False) -> str:
        sym = self.symbol(i) if printed else self.working(i)
        return self.comps.strike_colour[self.slots[i]["strike"]] if sym == "banned_colour" else ""

    def works(self, u: int) -> bool:
        """Card u's effect works if played now: its row is active, and so is the row of the card
        a Copybara copies (the discard top)."""
        if not self.comps.card_active[u]:
            return False
        if self.comps.card_effect[u] != "copy_card" or not self.discard:
            return True
        return bool(self.comps.card_active[self.discard[-1]])

    def strike_fatigue(self, i: int) -> int:
        sl = self.slots[i]
        return sum(self.comps.strike_fatigue[u] for u in [sl["strike"]] + sl["under"])

    def leader(self, i: int):
        """7.1: the seat with strictly the most tokens (at least 1), else None."""
        t = self.slots[i]["tokens"]
        top = max(t)
        return t.index(top) if top >= 1 and t.count(top) == 1 else None

    def leads(self, seat: int, symbol: str, live: bool = False) -> bool:
        """Seat leads a strike with this symbol (printed; `live`: a strike not knocked out)."""
        return any(self.symbol(i) == symbol and self.leader(i) == seat and (self.live(i) or not live)
                   for i in range(self.m))

    def take_strike(self, i: int) -> None:
        """7.2: the leader takes slot i's strike; tokens home, locks discarded, banned gift."""
        sl = self.slots[i]
        who = self.leader(i)
        gift = self.working(i) == "banned_colour"
        cards = [sl["strike"]] + sl["under"]
        self.taken[who] += cards
        for x in range(self.P):
            self.supply[x] += sl["tokens"][x]
        self.discard += sl["locks"]
        if self.log is not None:        # the strike's text: formatted only for a log
            self.say(f"  slot {i}: {self.seat_name(who)} takes {self.strike_desc(i)} (tokens {sl['tokens']} go home)")
        self.slots[i] = self.empty_slot()
        if gift:
            for k in range(self.P):
                x = (who + k) % self.P
                for _ in range(self.p["banned_gift_strikes"]):
                    if self.strike_deck:
                        u = self.strike_deck.pop(0)
                        self.taken[x].append(u)
                        self.say(f"  crossed-out gift: {self.seat_name(x)} receives {self.comps.strike_name[u]}")

    def refill(self, i: int) -> None:
        """7.3: the top strike of the strike deck fills slot i and appears."""
        if not self.strike_deck:
            self.say(f"slot {i} stays empty (strike deck empty)")
            return
        self.slots[i]["strike"] = self.strike_deck.pop(0)
        if self.log is not None:
            self.say(f"slot {i}: {self.strike_desc(i)} appears")
        sym = self.working(i)
        if sym == "plus_one" and self.strike_deck:
            self.slots[i]["under"].append(self.strike_deck.pop(0))
            self.say(f"  +1: {self.comps.strike_name[self.slots[i]['under'][-1]]} goes under it")
        elif sym == "all_place":
            for x in range(self.P):
                if self.supply[x] >= 1:
                    self.place(x, i, self.p["all_place_tokens"])

    def place(self, x: int, i: int, k: int) -> int:
        """Seat x places k tokens (already multiplied) on slot i, limited by its supply."""
        k = min(k, self.supply[x])
        self.supply[x] -= k
        self.slots[i]["tokens"][x] += k
        if k and self.log is not None:
            self.say(f"  {self.seat_name(x)} places {k} token(s) on slot {i} -> {self.slots[i]['tokens']}")
        return k

    # ------------------------------------------------------------------ effects (5)
    def is_target(self, i: int, colour: str) -> bool:
        """A placement target for a card of `colour`: a strike, not locked, not banned for it."""
        sl = self.slots[i]
        return sl["strike"] is not None and not sl["locks"] and self.banned_colour(i) != colour

    def effective(self, u: int) -> tuple[str, int]:
        """4.1 step 2: (effect, amount) of card u played now (a Copybara copies the discard top)."""
        e = self.comps.card_effect[u]
        if e != "copy_card":
            return e, self.comps.card_amount[u]
        if not self.discard:
            return "none", 0
        top = self.discard[-1]
        te = self.comps.card_effect[top]
        return ("none", 0) if te in ("copy_card", "cancel") else (te, self.comps.card_amount[top])

    def effect_options(self, a: int, effect: str, amount: int, colour: str) -> list:
        """The option list of an effect (section 5), in the contract's order."""
        P, m = self.P, self.m
        seats = [(a + k) % P for k in range(P)]
        targets = [i for i in range(m) if self.is_target(i, colour)]
        strikes = [i for i in range(m) if self.slots[i]["strike"] is not None]
        if effect == "place":
            return [(x, i) for x in seats if self.supply[x] >= 1 for i in targets]
        if effect == "place_others":
            return targets
        if effect == "complete":
            return [i for i in strikes if self.leader(i) is not None]
        if effect == "gather":
            movable = [x for x in seats if any(self.slots[j]["tokens"][x] for j in removable_slots(self, colour))]
            return [(x, i) for x in movable for i in targets]
        if effect == "lock":
            return strikes
        if effect == "copy_tokens":
            sources = [i for i in strikes if any(self.slots[i]["tokens"])]
            return [(s, d) for s in sources for d in targets if d != s]
        return []

    def multiplier(self, i: int, effect: str) -> int:
        doubling = effect in ("place", "place_others") and self.working(i) == "double_tokens"
        return self.p["double_tokens_factor"] if doubling else 1

    def apply_effect(self, a: int, u: int, effect: str, amount: int, colour: str, option) -> None:
        """Apply an effect's chosen option (section 5)."""
        if effect == "place":
            x, i = option
            self.place(x, i, amount * self.multiplier(i, effect))
        elif effect == "place_others":
            for k in range(1, self.P):
                self.place((a + k) % self.P, option, amount * self.multiplier(option, effect))
        elif effect == "complete":
            self.take_strike(option)
            self.refill(option)
        elif effect == "gather":
            x, i = option
            for j in removable_slots(self, colour):
                if j != i and self.slots[j]["tokens"][x]:
                    n = self.slots[j]["tokens"][x]
                    self.slots[j]["tokens"][x] = 0
                    self.slots[i]["tokens"][x] += n
                    self.say(f"  {self.seat_name(x)}'s {n} token(s) move from slot {j} to slot {i}")
        elif effect == "lock":
            self.slots[option]["locks"].append(u)
            self.locked_now.append(u)
            self.say(f"  {self.comps.card_key[u]} locks slot {option}")
        elif effect == "copy_tokens":
            src, dst = option
            for k in range(self.P):
                x = (a + k) % self.P
                have = self.slots[src]["tokens"][x]
                self.place(x, dst, have if amount == 0 else min(amount, have))

    # ------------------------------------------------------------------ answers (6)
    def answer(self, u: int, x: int, depth: int, base: dict) -> bool:
        """Whether card u played by x is cancelled by a Capybaranka (section 6)."""
        for k in range(1, self.P):
            y = (x + k) % self.P
            cancels = [v for v in self.hands[y] if self.comps.card_effect[v] == "cancel"]
            if not cancels:
                continue
            info = {"card": u, "player": x, "depth": depth, "base": base}
            if not self.ask(y, "CANCEL", [0, 1], info):
                continue
            v = cancels[0]
            self.hands[y].remove(v)
            self.tally(y, v)
            self.answers.append(v)
            self.say(f"{self.seat_name(y)} answers {self.comps.card_key[u]} with {self.comps.card_key[v]}")
            if not self.answer(v, y, depth + 1, base):
                if not self.works(v):
                    self.say(f"  the {self.comps.card_key[v]} is knocked out: {self.comps.card_key[u]} stands")
                    return False
                self.say(f"  {self.comps.card_key[u]} of {self.seat_name(x)} is cancelled")
                return True
            self.say(f"  the {self.comps.card_key[v]} of {self.seat_name(y)} is cancelled; "
                     f"{self.comps.card_key[u]} stands so far")
        return False

    # ------------------------------------------------------------------ crown step (4.3)
    def crown_step(self, a: int) -> None:
        for i in range(self.m):
            if self.slots[i]["strike"] is None or self.leader(i) != a:
                continue
            sym = self.symbol(i)
            if sym == "crown_complete":
                if self.ask(a, "CROWN_COMPLETE", [0, 1], {"slot": i}) and self.live(i):
                    self.say(f"{self.seat_name(a)} completes slot {i} (crown)")
                    emptied = [i]
                    self.take_strike(i)
                    for j in (i - 1, i + 1):
                        if 0 <= j < self.m and self.slots[j]["strike"] is not None and self.leader(j) is not None:
                            self.take_strike(j)
                            emptied.append(j)
                    for j in sorted(emptied):
                        self.refill(j)
            elif sym == "crown_peek" and self.deck:
                k = min(self.p["peek_cards"], len(self.deck))
                perms = list(itertools.permutations(range(k)))
                perm = perms[self.ask(a, "PEEK", perms, {"k": k})]
                if not self.live(i):
                    continue            # knocked out: asked, and the deck stays as it is
                self.deck[:k] = [self.deck[j] for j in perm]
                self.say(f"{self.seat_name(a)} looks at the top {k} cards and orders them {list(perm)}")

    # ------------------------------------------------------------------ what bots see
    def board(self) -> Board:
        m = self.m
        full = [self.slots[i]["strike"] is not None for i in range(m)]
        return Board(
            P=self.P, tokens=[list(sl["tokens"]) for sl in self.slots],
            fatigue=[self.strike_fatigue(i) if full[i] else None for i in range(m)],
            locked=[bool(sl["locks"]) for sl in self.slots],
            banned=[self.banned_colour(i, printed=True) if full[i] else "" for i in range(m)],
            doubled=[self.symbol(i) == "double_tokens" for i in range(m)],
            supply=list(self.supply),
            taken_fatigue=[sum(self.comps.strike_fatigue[u] for u in t) for t in self.taken],
            factor=self.p["double_tokens_factor"])


def removable_slots(g, colour: str) -> list:
    """Slots whose tokens a card of `colour` may move: a strike, not locked, not banned (= targets)."""
    return [j for j in range(g.m) if g.is_target(j, colour)]
