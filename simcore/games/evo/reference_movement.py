"""Evo reference engine: the movement phase and combat (contract 4.4, 4.4.1).

A mixin of reference.Game. A seat moves completely before the next, in initiative
order; its movement points are shared by all its dinosaurs; each MOVE decision offers
stop, then for every zone it owns (ascending) its steps, attacks, Wings flights and
Flippers moves, each with the target zones ascending.
"""
from __future__ import annotations

# A step or an attack costs one movement point: the contract (4.4) has no parameter for it,
# the rulebook fixes it ("combat costs 1 point"); Wings and Flippers have their own costs.
STEP_COST = 1


class Movement:
    def move_options(self, s: int, points: int, wing_uses: int, flipper_uses: int) -> list:
        p, m, t = self.p, self.map, self.traits(s)
        can_wings = (t.wings >= 2 and wing_uses < p["wings_uses"] and p["wings_cost"] <= points)
        can_flip = (t.coastal_move and (p["flippers_uses"] == 0 or flipper_uses < p["flippers_uses"])
                    and p["flippers_cost"] <= points)
        owner = self.owner
        out = [("stop",)]
        for a in self.zones_of(s):
            near = m.neighbours(a)
            out += [("step", a, b) for b in near if owner[b] == -1]
            out += [("attack", a, b) for b in near
                    if owner[b] not in (-1, s) and not self.protected(owner[b])]
            if can_wings:
                out += [("wings", a, b) for b in self.zones_within(a, t.wings)
                        if owner[b] == -1 and m.steps[a][b] >= 2]
            if can_flip and m.coast[a]:
                out += [("flippers", a, b) for b in self.swims(a) if owner[b] == -1]
        return out

    def frenzy_can_matter(self, s: int) -> bool:
        """A Frenzied attack can change a combat of s this phase: s has a dinosaur and a movement
        point, and another clan is above its floor (attacks only lower counts, so a clan
        protected now stays protected through s's movement)."""
        return (self.count(s) > 0 and self.traits(s).moves >= 1
                and any(x != s and self.count(x) > 0 and not self.protected(x) for x in range(self.P)))

    def movement_phase(self) -> None:
        p = self.p
        self.frenzy = [0] * self.P
        start, self.cursor = self.cursor, 0        # a state mid-movement resumes at that seat
        for i in range(start, self.P):
            if self.turns and i > start:            # until "turn": stop before this seat moves
                self.cursor = i
                return
            s = self.order[i]
            card = self.comps.active_event(self.hands[s], "frenzied_attack")
            offered = card is not None and (p["no_effect_plays"] == "allowed" or self.frenzy_can_matter(s))
            if offered and self.ask(s, "EVENT", [0, 1], {"effect": "frenzied_attack", "card": card}) == 1:
                self.play_event(s, card)
                self.frenzy[s] += self.comps.event_rows[card]["amount"]
                self.say(f"  seat {s} plays {card}: +{self.frenzy[s]} attacking horns this phase")
            points, wing_uses, flipper_uses = self.traits(s).moves, 0, 0
            while points >= 1:           # a point left: the seat may act again
                options = self.move_options(s, points, wing_uses, flipper_uses)
                option = options[self.ask(s, "MOVE", options, {"points": points, "frenzy": self.frenzy[s]})]
                kind = option[0]
                if kind == "stop":
                    break
                a, b = option[1], option[2]
                if kind == "step":
                    points -= STEP_COST
                    self.owner[a], self.owner[b] = -1, s
                    self.say(f"  seat {s} moves {self.zname(a)} -> {self.zname(b)}")
                elif kind == "attack":
                    points -= STEP_COST
                    self.combat(s, a, b)
                elif kind == "wings":
                    points -= p["wings_cost"]
                    wing_uses += 1
                    self.owner[a], self.owner[b] = -1, s
                    self.say(f"  seat {s} flies {self.zname(a)} -> {self.zname(b)} (Wings)")
                else:
                    points -= p["flippers_cost"]
                    flipper_uses += 1
                    self.owner[a], self.owner[b] = -1, s
                    self.say(f"  seat {s} swims {self.zname(a)} -> {self.zname(b)} (Flippers)")

    def attack_wins(self, face: dict, attack: int, defence: int) -> bool:
        """Section 4.4.1: `win` wins, `fail` fails, `diff` wins iff A - D >= need."""
        return face["attack"] == "win" or (face["attack"] == "diff" and attack - defence >= face["need"])

    def combat(self, s: int, a: int, b: int) -> None:
        x = self.owner[b]
        self.tally["attacks"] += 1
        face = self.roll()
        A = self.traits(s).attack_horns + self.frenzy[s]
        D = self.traits(x).defence_horns
        won = self.attack_wins(face, A, D)
        self.say(f"  seat {s} attacks {self.zname(a)} -> {self.zname(b)} (seat {x}): die {face['name']}, "
                 f"horns {A} vs {D}: " + ("won" if won else "lost"))
        if not won:
            return
        escapes = [z for z in self.map.neighbours(b) if self.owner[z] == -1] if self.traits(x).chameleon else []
        if escapes:
            e = escapes[self.ask(x, "ESCAPE", escapes, {"attacker": s, "zone": b})]
            self.owner[e] = x
            self.say(f"  seat {x} escapes to {self.zname(e)} (Chameleon skin)")
        else:
            self.tally["kills"] += 1
            self.say(f"  seat {x} loses the dinosaur on {self.zname(b)}")
        self.owner[a], self.owner[b] = -1, s
