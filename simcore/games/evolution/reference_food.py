"""How a species takes food in the reference engine: its room for food, a feed from the
Watering Hole or the bank (Foraging's extra, Cooperation's passes) and Fat Tissue's
store.
"""
from __future__ import annotations

from .reference_state import WATERING_HOLE, Game, Player, Species
from .traits import CARNIVORE, COOPERATION, FAT_TISSUE, FORAGING


def capacity(g: Game, sp: Species, meat: bool) -> int:
    """How many tokens `sp` can take now (hunger, plus fat room if it stores on eating)."""
    r = g.rules
    if not meat and r.carnivores_refuse_plant and g.works(sp, CARNIVORE):
        return 0
    room = sp.pop - sp.food
    if r.fat_stores_on_eating and g.works(sp, FAT_TISSUE):
        room += sp.body - sp.fat
    return room


def _available(g: Game, source: str) -> int:
    return g.wh if source == WATERING_HOLE else 1 << 30


def _take(g: Game, sp: Species, n: int, source: str) -> None:
    to_food = min(n, sp.pop - sp.food)
    sp.food += to_food
    sp.fat += n - to_food
    if source == WATERING_HOLE:
        g.wh -= n
    else:
        g.bank_out += n


def feed(g: Game, player: Player, i: int, source: str, meat: bool, amount: int = 1) -> bool:
    """Species i of `player` takes up to `amount` food from `source`, then Foraging's extra,
    then Cooperation passes food to its right neighbour (depth first). True if it ate."""
    r = g.rules
    sp = player.species[i]
    n = min(amount, capacity(g, sp, meat), _available(g, source))
    if n <= 0:
        return False
    _take(g, sp, n, source)
    if g.works(sp, FORAGING) and (r.foraging_any_food or not meat):
        m = min(r.foraging_extra, capacity(g, sp, meat), _available(g, source))
        if m > 0:
            _take(g, sp, m, source)
            n += m
    shares = n if r.cooperation_per_token else 1
    if g.works(sp, COOPERATION) and i + 1 < len(player.species):
        for _ in range(shares):
            feed(g, player, i + 1, source, meat, 1)
    return True


def store_fat(g: Game, player: Player, i: int) -> None:
    """cs4500 fat-tissue choice: store as much as fits from the Watering Hole, no traits."""
    sp = player.species[i]
    n = min(sp.body - sp.fat, g.wh)
    sp.fat += n
    g.wh -= n
