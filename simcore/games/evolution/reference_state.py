"""The board of Evolution's reference engine (reference.py): a `Game` holds `Player`s, each
with an ordered list of `Species` (index 0 = leftmost; "the species to its right" is
index + 1). Cards are ids into `Cards` (see schema.py). Food tokens outside the Food Bank
are counted in `bank_out`, so wh + food + fat + bags == bank_out always holds.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from simcore import rng

from . import addresses as A
from .schema import Cards, Rules
from .traits import TRAITS

WATERING_HOLE = "watering_hole"
BANK = "bank"


@dataclass
class Species:
    """One species board."""

    food: int = 0
    body: int = 0
    pop: int = 1
    traits: list = field(default_factory=list)   # card ids, in play order
    fat: int = 0                                   # food stored on Fat Tissue


@dataclass
class Player:
    pid: int
    species: list = field(default_factory=list)   # Species, left to right
    bag: int = 0
    hand: list = field(default_factory=list)      # card ids
    played: list = field(default_factory=lambda: [0] * len(TRAITS))  # trait cards played, per trait id


@dataclass
class Game:
    rules: Rules
    cards: Cards
    players: list
    wh: int = 0                                    # plant food on the Watering Hole
    deck: list = field(default_factory=list)      # card ids, index 0 = top
    discard: list = field(default_factory=list)
    bank_out: int = 0
    first: int = 0                                 # seat of the first player
    round: int = 0
    final_round: int = 1 << 30                     # index of the last round to play
    end_reason: int = -1
    shuffles: int = 0
    seed: int = 0
    game_index: int = 0
    log: list | None = None

    def __post_init__(self):
        self.kinds = self.cards.kind.tolist()     # plain ints: fast lookups in the hot path
        # the rules see a knocked-out trait's cards as no trait (-1); bots read `kinds`
        live = self.cards.active.tolist()
        self.live_kinds = [k if live[k] else -1 for k in self.kinds]
        self.uids = self.cards.uid.tolist()
        self.card_of_uid = {u: c for c, u in enumerate(self.uids)}

    def shuffle(self, cards) -> list:
        """`cards` shuffled at (SHUFFLE, shuffles): sorted by the keys of their stable uids,
        ties by card id (the batch engine's order)."""
        uids = [self.uids[c] for c in sorted(cards)]
        order = rng.shuffle_order(self.seed, self.game_index, rng.CHANCE, uids, A.SHUFFLE,
                                  self.shuffles)
        self.shuffles += 1
        return [self.card_of_uid[u] for u in order]

    def kind(self, card: int) -> int:
        return self.kinds[card]

    def has(self, sp: Species, trait: int) -> bool:
        """The species carries a card of `trait` (what the bots see, knocked out or not)."""
        kinds = self.kinds
        for c in sp.traits:
            if kinds[c] == trait:
                return True
        return False

    def works(self, sp: Species, trait: int) -> bool:
        """The species has `trait` and its effect is on (not knocked out): the rules' test."""
        kinds = self.live_kinds
        for c in sp.traits:
            if kinds[c] == trait:
                return True
        return False

    def say(self, text: str) -> None:
        if self.log is not None:
            self.log.append(text)

    def say_at(self, mark: int, text: str) -> None:
        """Put a log line at position `mark` (from `len(log)` taken earlier): an action's
        line goes before the lines its consequences (extinctions) wrote meanwhile."""
        if self.log is not None:
            self.log.insert(mark, text)


def index_of(player: Player, sp: Species) -> int:
    return next(k for k, s in enumerate(player.species) if s is sp)
