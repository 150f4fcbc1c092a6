"""Evo reference engine: the birth phase, survival and scoring (contract 4.5, 4.6).

A mixin of reference.Game.
"""
from __future__ import annotations


class BirthSurvival:
    # ------------------------------------------------------------------ 4.5 birth
    def birth_targets(self, s: int) -> list:
        """Zones within birth range of one of s's dinosaurs: empty, or (Killer babies) another clan's."""
        t, p = self.traits(s), self.p
        reach = self.within(s, t.birth_range)
        raided = ({x for x in range(self.P) if x != s
                   and (not p["killer_babies_respect_floor"] or not self.protected(x))}
                  if t.killer_babies else set())         # the clans whose zones a killer baby may take
        return [z for z in range(self.Z) if reach[z] and (self.owner[z] == -1 or self.owner[z] in raided)]

    def within(self, s: int, r: int) -> list:
        """Per zone: is it at most r steps from one of s's dinosaurs."""
        reach = [False] * self.Z
        for y in self.zones_of(s):
            for z in self.zones_within(y, r):
                reach[z] = True
        return reach

    def birth_options(self, s: int) -> list:
        if self.reserve(s) >= 1:
            return [None] + self.birth_targets(s)
        out = [None]
        for r in self.zones_of(s):          # the replace rule: remove r first, then measure
            self.owner[r] = -1
            out += [(r, t) for t in self.birth_targets(s) if t != r]
            self.owner[r] = s
        return out

    def birth_phase(self) -> None:
        for s in list(self.order):
            card = self.comps.active_event(self.hands[s], "rat_swarm")
            if card is not None and self.ask(s, "EVENT", [0, 1], {"effect": "rat_swarm", "card": card}) == 1:
                self.play_event(s, card)
                self.say(f"  seat {s} plays {card}: no births this round")
                return
        most = max(self.traits(s).eggs for s in range(self.P))
        for k in range(1, most + 1):
            for s in list(self.order):
                if self.traits(s).eggs < k:
                    continue
                options = self.birth_options(s)
                option = options[self.ask(s, "BIRTH", options, {"egg": k})]
                if option is None:
                    continue
                if isinstance(option, tuple):
                    r, t = option
                    self.owner[r] = -1
                    self.say(f"  seat {s} removes its dinosaur on {self.zname(r)} (replace rule)")
                else:
                    t = option
                self.place(s, t)

    def place(self, s: int, t: int) -> None:
        x = self.owner[t]
        if x != -1:                          # Killer babies: a die decides who stays
            face = self.roll()
            if face["babies"] != "win":
                self.say(f"  seat {s}'s killer baby on {self.zname(t)} dies (die {face['name']})")
                return
            self.tally["kills"] += 1
            self.say(f"  seat {s}'s killer baby on {self.zname(t)} kills seat {x}'s dinosaur (die {face['name']})")
        self.owner[t] = s
        self.tally["births"] += 1
        self.say(f"  seat {s}: a dinosaur is born on {self.zname(t)}")
        self.egg_thief(s, t)

    def egg_thief(self, s: int, t: int) -> None:
        """Right after a birth by s on t, the other seats in initiative order after s may steal it."""
        i = self.order.index(s)
        for j in range(1, self.P):
            y = self.order[(i + j) % self.P]
            card = self.comps.active_event(self.hands[y], "egg_thief")
            if card is None or self.reserve(y) < 1 or self.count(s) < self.comps.event_rows[card]["amount"]:
                continue
            if self.ask(y, "EVENT", [0, 1], {"effect": "egg_thief", "card": card, "victim": s, "zone": t}) == 1:
                self.play_event(y, card)
                self.owner[t] = y
                self.say(f"  seat {y} plays {card}: its dinosaur replaces seat {s}'s newborn on {self.zname(t)}")
                return

    # ------------------------------------------------------------------ 4.6 survival and scoring
    def geysers_can_matter(self, s: int) -> bool:
        """Geysers can change s's survival: more of its dinosaurs on cold zones than its fur, and
        s above its floor (at the floor the climate takes none)."""
        cold = sum(1 for z in self.zones_of(s) if self.zone_class(z) == "cold")
        return not self.protected(s) and cold > self.traits(s).fur

    def survival_phase(self) -> None:
        geyser = [False] * self.P
        for s in list(self.order):
            card = self.comps.active_event(self.hands[s], "geysers")
            offered = card is not None and (self.p["no_effect_plays"] == "allowed" or self.geysers_can_matter(s))
            if offered and self.ask(s, "EVENT", [0, 1], {"effect": "geysers", "card": card}) == 1:
                self.play_event(s, card)
                geyser[s] = True
                self.say(f"  seat {s} plays {card}: its dinosaurs survive on cold terrain")
        for s in list(self.order):
            t = self.traits(s)
            mine = self.zones_of(s)
            cls = {}                      # each zone's class for s this round (Geysers: cold is ideal)
            for z in mine:
                c = self.zone_class(z)
                cls[z] = "ideal" if c == "cold" and geyser[s] else c
            n = {c: sum(1 for z in mine if cls[z] == c) for c in ("hot", "cold", "deadly")}
            excess = {"hot": max(0, n["hot"] - t.thermo), "cold": max(0, n["cold"] - t.fur),
                      "deadly": max(0, n["deadly"] - t.cave)}
            k = min(sum(excess.values()), max(0, len(mine) - t.floor))
            for _ in range(k):
                options = [z for z in mine if excess.get(cls[z], 0) > 0]
                z = options[self.ask(s, "DIE", options, {"excess": dict(excess)})]
                excess[cls[z]] -= 1
                self.owner[z] = -1
                mine.remove(z)
                self.tally["climate_deaths"] += 1
                self.say(f"  seat {s}'s dinosaur on {self.zname(z)} ({cls[z]}) dies")
        for s in range(self.P):
            self.mp[s] += self.p["mp_per_dinosaur"] * self.count(s)
        self.say(f"  scoring: MP {self.mp}, dinosaurs {[self.count(s) for s in range(self.P)]}")
