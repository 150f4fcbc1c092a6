"""Carnivore attacks in the reference engine: which attacks are legal (size, the defensive
traits, Intelligence's negation) and the attack itself (Horns, the meat, the Scavengers).
"""
from __future__ import annotations

from .reference_cards import lose_population
from .reference_food import feed
from .reference_state import Game, Player, Species, index_of
from .traits import (AMBUSH, BURROWING, CARNIVORE, CLIMBING, HARD_SHELL, HERDING, HORNS, NEGATABLE,
                     PACK_HUNTING, SCAVENGER, SYMBIOSIS, WARNING_CALL)


def attack_size(g: Game, att: Species) -> int:
    r = g.rules
    size = att.body
    if g.works(att, PACK_HUNTING):
        size += r.pack_hunting_bonus + (att.pop if r.pack_hunting_adds_population else 0)
    return size


def can_attack(g: Game, att: Species, dfd: Species, left, right, negate: int = -1) -> bool:
    """May carnivore `att` attack `dfd` whose owner's neighbours are `left`/`right` (or None)?

    `negate` is a defensive trait an Intelligence carnivore ignores for this attack.
    """
    r = g.rules
    if att is dfd or not g.works(att, CARNIVORE):
        return False

    def d(trait):
        return trait != negate and g.works(dfd, trait)

    hard_shell = d(HARD_SHELL)
    defender_size = dfd.body + (r.hard_shell_bonus if hard_shell else 0)
    size_applies = r.size_rule == "always" or hard_shell
    if size_applies and attack_size(g, att) < defender_size + r.size_margin:
        return False
    if d(CLIMBING) and not g.works(att, CLIMBING):
        return False
    if d(BURROWING) and dfd.food == dfd.pop:
        return False
    if d(HERDING) and (dfd.pop >= att.pop
                       or (r.herding_needs_larger_body and dfd.body >= att.body)):
        return False
    warned = any(n is not None and g.works(n, WARNING_CALL) for n in (left, right))
    if warned and negate != WARNING_CALL and not g.works(att, AMBUSH):
        return False
    if d(SYMBIOSIS) and right is not None and right.body > dfd.body:
        return False
    return True


def neighbours(species: list, i: int):
    return (species[i - 1] if i > 0 else None,
            species[i + 1] if i + 1 < len(species) else None)


def can_attack_at(g: Game, att: Species, owner: Player, i: int, negate: int = -1) -> bool:
    left, right = neighbours(owner.species, i)
    return can_attack(g, att, owner.species[i], left, right, negate)


def attack_targets(g: Game, seat: int, a: int, negate: int = -1) -> list:
    """(target seat, species index) pairs species a of `seat` may attack, seats in absolute order."""
    me = g.players[seat]
    att = me.species[a]
    out = []
    for q, owner in enumerate(g.players):
        if q == seat and not g.rules.attack_own_species:
            continue
        for d in range(len(owner.species)):
            if can_attack_at(g, att, owner, d, negate):
                out.append((q, d))
    return out


def intel_negation(g: Game, seat: int, a: int, q: int, d: int) -> int:
    """The first negatable trait whose negation makes an otherwise illegal attack legal."""
    owner = g.players[q]
    att = g.players[seat].species[a]
    for t in NEGATABLE:
        if can_attack_at(g, att, owner, d, t):
            return t
    return -1


def attack(g: Game, seat: int, a: int, target: int, d: int) -> None:
    """Species a of `seat` attacks species d of seat `target` (legality checked before)."""
    r = g.rules
    me, owner = g.players[seat], g.players[target]
    att, dfd = me.species[a], owner.species[d]
    meat = dfd.body if r.attack_meat == "defender_body" else 1
    horns = g.works(dfd, HORNS)
    lose_population(g, owner, dfd)
    attacker_died = horns and lose_population(g, me, att)
    ate = (not attacker_died) and feed(g, me, index_of(me, att), r.meat_source, True, meat)
    if ate or not r.scavenge_needs_attacker_fed:
        feed_scavengers(g, seat)


def feed_scavengers(g: Game, seat: int) -> None:
    """Every Scavenger, from the attacking player clockwise, takes 1 meat."""
    n = len(g.players)
    for k in range(n):
        p = g.players[(seat + k) % n]
        for i in range(len(p.species)):
            if i < len(p.species) and g.works(p.species[i], SCAVENGER):
                feed(g, p, i, g.rules.meat_source, True, 1)
