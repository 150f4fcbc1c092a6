"""Evo reference engine: the climate, mutation and initiative phases (contract 4.1-4.3).

A mixin of reference.Game: it reads and changes the game's plain state (see reference.py).
"""
from __future__ import annotations

from .reference_comps import K_DRAW


class Phases:
    # ------------------------------------------------------------------ 4.1 climate
    def climate_phase(self) -> None:
        name = self.climate_pile.pop(0)
        self.climate_revealed.append(name)
        token = self.comps.token_rows[name]
        self.say(f"Round {self.round}: climate token {name}")
        if token["kind"] == "meteorite":
            self.finish()
            return
        shift = token["shift"]
        for s in list(self.order):
            card = self.comps.active_event(self.hands[s], "prescience")
            if card is None:
                continue
            info = {"effect": "prescience", "card": card, "token_shift": token["shift"]}
            if self.ask(s, "EVENT", [0, 1], info) == 1:
                self.play_event(s, card)
                shifts = list(self.p["prescience_shifts"])
                shift = shifts[self.ask(s, "SHIFT", shifts, {"token_shift": token["shift"], "sector": self.sector})]
                self.say(f"  seat {s} plays {card}: the wheel turns by {shift} instead of {token['shift']}")
                break
        self.sector = self.turn_wheel(shift)
        self.say(f"  the wheel turns by {shift}: sector {self.sector}")

    def play_event(self, s: int, card: str) -> None:
        self.hands[s].remove(card)
        self.event_discard.append(card)
        self.tally["events"] += 1

    # ------------------------------------------------------------------ 4.2 mutations
    def draw_genes(self) -> list:
        """The genes of this round's lab, in column order 1.. (forced draws first)."""
        n = self.P - 1
        taken = []
        for name in self.draws:
            if len(taken) < n:
                self.bag[name] -= 1
                taken.append(name)
        self.draws = []
        if len(taken) < n:
            walk = self.shuffle(self.comps.canonical_uids(self.bag), K_DRAW, self.round)
            for u in walk:
                name = self.comps.gene_uids[u][0]
                if name in taken:
                    continue        # identical genes: the extra one stays in the bag
                self.bag[name] -= 1
                taken.append(name)
                if len(taken) == n:
                    break
        for name in taken:
            if self.bag[name] == 0:
                del self.bag[name]
        return taken

    def draw_lab(self) -> None:
        """until "turn": the coming mutation phase's draw made now and kept as the state's
        forced `draws` (still in the bag: section 15), so the state shows the lab its bidders
        will see."""
        taken = self.draw_genes()
        for name in taken:
            self.bag[name] += 1
        self.draws = taken

    def bid_options(self, s: int, bids: list, barred) -> list:
        """Section 4.2: (c, v) for open columns c != barred, v above the bid there, affordable."""
        p, mp = self.p, self.mp[s]
        affordable = [v for v in range(p["min_bid"], p["max_bid"] + 1) if self.price(s, v) <= mp]
        out = []
        for c in range(self.P):
            if c == barred or (c > 0 and c not in self.lab_genes):
                continue
            low = p["min_bid"] if bids[c] is None else bids[c][1] + 1
            out += [(c, v) for v in affordable if v >= low]
        return out

    def mutation_phase(self) -> None:
        P = self.P
        start, self.cursor = self.cursor, 0        # a state mid-auction resumes at that seat
        genes = self.draw_genes()
        self.lab_genes = {c + 1: name for c, name in enumerate(genes)}
        self.say("  lab: event column, " + ", ".join(f"{c}: {n}" for c, n in self.lab_genes.items()))
        bids = list(self.bids) if start else [None] * P     # column -> (seat, value)
        self.bids = None
        for i in range(start, P):
            if self.turns and i > start:            # until "turn": stop before this seat's bid
                for name in genes:
                    self.bag[name] += 1             # the lab kept as the state's forced draws
                self.draws, self.bids, self.cursor, self.lab_genes = list(genes), bids, i, {}
                return
            pending, barred = self.order[i], None
            while pending is not None:
                options = self.bid_options(pending, bids, barred)
                if not options:
                    self.say(f"  seat {pending} stays off the lab")
                    break
                c, v = options[self.ask(pending, "BID", options, {"barred": barred})]
                displaced = bids[c][0] if bids[c] is not None else None
                bids[c] = (pending, v)
                self.say(f"  seat {pending} bids {v} on column {c}"
                         + (f", outbidding seat {displaced}" if displaced is not None else ""))
                pending, barred = displaced, c
        # settle: prices with the vials held before this phase's genes
        paid = {b[0]: self.price(b[0], b[1]) for b in bids if b is not None}
        for s, cost in paid.items():
            self.mp[s] -= cost
        self.lab = [b[0] if b is not None else None for b in bids]
        for c, b in enumerate(bids):
            if c == 0:
                if b is not None and self.event_deck:
                    card = self.event_deck.pop(0)
                    self.hands[b[0]].append(card)
                    self.say(f"  seat {b[0]} pays {paid[b[0]]} and draws an event card ({card})")
                elif b is not None:
                    self.say(f"  seat {b[0]} pays {paid[b[0]]}; the event deck is empty")
            elif c in self.lab_genes:
                name = self.lab_genes[c]
                if b is None:
                    self.bag[name] += 1
                    self.say(f"  {name} goes back to the bag")
                else:
                    self.gain_gene(b[0], name)
                    self.say(f"  seat {b[0]} pays {paid[b[0]]} and takes {name}")
        self.lab_genes = {}

    # ------------------------------------------------------------------ 4.3 initiative
    def initiative_phase(self) -> None:
        lab = self.lab or []
        on = [s for s in lab if s is not None]
        order = on + [s for s in self.order if s not in on]
        order.sort(key=self.count)      # stable: equal counts keep step 1's order
        for s in list(order):
            if not self.traits(s).adrenaline:
                continue
            k = self.ask(s, "ADRENALINE", list(range(self.P)), {})
            order.remove(s)
            order.insert(k, s)
            self.say(f"  seat {s} (Adrenaline rush) takes position {k}")
        self.order, self.lab = order, None
        self.say(f"  initiative: {order}")

