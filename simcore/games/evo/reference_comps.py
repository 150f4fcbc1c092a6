"""Evo's components for the reference engine: uids, names and per-seat traits.

Contract section 1: every table's (name, copy index) pairs sorted by name then copy are
the uids. Copies of one name are interchangeable, so the reference engine keeps genes,
events and climate tokens by name and uses uids only where a draw is keyed on them (the
shuffles of section 2) or where "lowest uid" picks among names (an event card played).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .schema import uid_order

# Chance kinds (contract section 2)
K_ORDER, K_UNIQUE, K_EVENTS, K_CLIMATE, K_CLIMATE_BOTTOM, K_DRAW, K_DIE = 1, 2, 3, 4, 5, 6, 7


@dataclass
class Components:
    """The named components of one ruleset (genes, events, climate tokens, die faces)."""

    gene_uids: list            # (G,) (name, copy) in uid order
    gene_rows: dict            # name -> genes.csv row
    gene_names: list           # distinct gene names, first-appearance row order (the tally's E)
    event_uids: list           # (N,) (name, copy) in uid order
    event_rows: dict           # name -> events.csv row
    token_uids: list           # (T,) (name, copy) in uid order
    token_rows: dict           # name -> climate.csv row
    face_uids: list            # (F,) (name, copy) in uid order
    face_rows: dict            # name -> die.csv row
    uids_of: dict = field(default_factory=dict)   # gene name -> its uids ascending

    @classmethod
    def build(cls, rs) -> "Components":
        t = rs.tables
        c = cls(gene_uids=uid_order(t["genes"]), gene_rows={r["name"]: r for r in t["genes"]},
                gene_names=[r["name"] for r in t["genes"]],
                event_uids=uid_order(t["events"]), event_rows={r["name"]: r for r in t["events"]},
                token_uids=uid_order(t["climate"]), token_rows={r["name"]: r for r in t["climate"]},
                face_uids=uid_order(t["die"]), face_rows={r["name"]: r for r in t["die"]})
        for u, (name, _) in enumerate(c.gene_uids):
            c.uids_of.setdefault(name, []).append(u)
        return c

    def canonical_uids(self, bag: dict) -> list:
        """Section 2: a bag holding m genes of a name is keyed as that name's m lowest uids."""
        return sorted(u for name, m in bag.items() for u in self.uids_of[name][:m])

    def event_effect(self, name: str) -> str:
        return self.event_rows[name]["effect"]

    def event_active(self, name: str) -> bool:
        return bool(self.event_rows[name]["active"])

    def active_event(self, hand: list, effect: str):
        """The lowest-uid active card with `effect` in a hand (uids go by name first), or None."""
        names = [n for n in hand if self.event_rows[n]["effect"] == effect and self.event_rows[n]["active"]]
        return min(names) if names else None


@dataclass
class Traits:
    """A seat's species traits from the active genes it holds (contract 1, "Species traits")."""

    moves: int
    horns: int
    attack_horns: int
    defence_horns: int
    thermo: int
    fur: int
    eggs: int
    vials: int
    cave: int
    birth_range: int
    floor: int
    wings: int
    coastal_move: bool
    killer_babies: bool
    sixth_sense: bool
    adrenaline: bool
    chameleon: bool


def traits(rs, comps: Components, genes: dict) -> Traits:
    """The traits of a seat holding `genes` (name -> count); inactive genes add nothing (10)."""
    p = rs.params
    total: dict[str, int] = {}      # counted effects: the sum of amounts
    largest: dict[str, int] = {}    # ranged effects: the largest amount
    flags: set[str] = set()
    for name, n in genes.items():
        row = comps.gene_rows[name]
        if n <= 0 or not row["active"]:
            continue
        eff, amount = row["effect"], row["amount"]
        total[eff] = total.get(eff, 0) + amount * n
        largest[eff] = max(largest.get(eff, 0), amount)
        flags.add(eff)
    horns = p["base_horns"] + total.get("horns", 0)
    if p["horn_genes_add"]:
        attack, defence = horns + total.get("attack_horns", 0), horns + total.get("defence_horns", 0)
    else:
        attack, defence = max(horns, largest.get("attack_horns", 0)), max(horns, largest.get("defence_horns", 0))
    return Traits(
        moves=p["base_moves"] + total.get("move_points", 0), horns=horns,
        attack_horns=attack, defence_horns=defence,
        thermo=p["base_thermo"] + total.get("thermo", 0), fur=p["base_fur"] + total.get("fur", 0),
        eggs=p["base_eggs"] + total.get("eggs", 0), vials=total.get("vials", 0), cave=total.get("cave", 0),
        birth_range=max(p["birth_range"], largest.get("birth_range", 0)),
        floor=max(p["clan_floor"], largest.get("floor", 0)),
        wings=largest.get("wings", 0),
        coastal_move="coastal_move" in flags, killer_babies="killer_babies" in flags,
        sixth_sense="sixth_sense" in flags, adrenaline="adrenaline" in flags, chameleon="chameleon" in flags)
