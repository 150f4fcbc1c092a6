"""Loading an Evolution ruleset: params.toml (+ variant overlay) and the card table.

`load(variant)` returns the generic `simcore.ruleset.Ruleset`; `compile_rules(ruleset)`
turns it into `Rules` (typed fields, attribute access) and `Cards` (numpy attribute
arrays indexed by card id) that both engines read.

Card ids are the deck's cards sorted by (trait name, food value): id order is the order
in which the course's "silly" player sorts its hand, so the batch engine can take "the
first k cards of the hand" without sorting.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from simcore.errors import UserError
from simcore.ruleset import GameData, Ruleset
from simcore.tables import Column, TableSchema, source_column

from .traits import TRAITS, TRAIT_ID

DATA_DIR = Path(__file__).resolve().parent / "data"

CARDS_SCHEMA = TableSchema(
    file="cards.csv",
    key="trait",
    doc="Trait cards: one row per (deck, trait, food value) with its number of copies.",
    columns=(
        Column("deck", str, doc="which deck this row belongs to (param `deck` picks one)"),
        Column("trait", str, choices=TRAITS, doc="trait name"),
        Column("food", int, min=-9, max=9, doc="plant food value in the card's corner"),
        Column("copies", int, min=1, max=50, doc="number of identical cards"),
        source_column(),
        Column("text", str, required=False, default="", doc="free note"),
    ),
)


@dataclass(frozen=True)
class Cards:
    """Card attributes by card id: `kind[c]` trait id, `food[c]` food value."""

    kind: np.ndarray   # (N,) int8 trait id
    food: np.ndarray   # (N,) int8 food value

    @property
    def n(self) -> int:
        return len(self.kind)

    @staticmethod
    def from_pairs(pairs) -> "Cards":
        """Cards from (food, trait id) pairs, sorted into silly order (name, food)."""
        pairs = sorted(pairs, key=lambda p: (TRAITS[p[1]], p[0]))
        return Cards(kind=np.array([k for _, k in pairs], dtype=np.int8),
                     food=np.array([f for f, _ in pairs], dtype=np.int8))


@dataclass(frozen=True)
class Rules:
    """Every rule number of one ruleset, typed (see data/params.toml for the meaning)."""

    players_min: int
    players_max: int
    deck: str
    max_body: int
    max_population: int
    new_species_body: int
    new_species_population: int
    new_species_sides: str
    max_traits: int
    hand_deal_base: int
    hand_deal_per_species: int
    free_species_when_none: bool
    deal_end_rule: str
    reshuffle_discards: bool
    first_player_random: bool
    first_player_rotates: bool
    food_clamp_each_card: bool
    reveal_order: tuple
    fertile_needs_plant_food: bool
    long_neck_source: str
    foraging_extra: int
    foraging_any_food: bool
    cooperation_per_token: bool
    carnivores_refuse_plant: bool
    fat_stores_on_eating: bool
    fat_store_action: bool
    attack_meat: str
    meat_source: str
    scavenge_needs_attacker_fed: bool
    attack_own_species: bool
    size_rule: str
    size_margin: int
    hard_shell_bonus: int
    pack_hunting_bonus: int
    pack_hunting_adds_population: bool
    herding_needs_larger_body: bool
    intelligence_bank_food: int
    forgo_needs_no_plant_option: bool
    carnivore_must_attack: bool
    feeding_stops_when_watering_hole_empty: bool
    auto_feed_single_option: bool
    no_option_is_out: bool
    extinction_cards_flat: int
    extinction_cards_per_trait: int
    tie_break: str
    species_slots: int
    max_rounds: int


def _validate(rs: Ruleset) -> None:
    decks = {row["deck"] for row in rs.tables["cards"]}
    if rs["deck"] not in decks:
        raise UserError(f"deck {rs['deck']!r} has no rows in cards.csv; decks there: "
                        + ", ".join(sorted(decks)), key="deck")
    for name in rs["reveal_order"]:
        if name not in ("fertile", "long-neck", "fat-tissue"):
            raise UserError(f"reveal_order lists {name!r}; expected fertile, long-neck, fat-tissue",
                            key="reveal_order")
    if rs["players_min"] > rs["players_max"]:
        raise UserError("players_min must not exceed players_max", key="players_min")


GAME_DATA = GameData("evolution", DATA_DIR, {"cards": CARDS_SCHEMA}, validate=_validate)


def load(variant: str = "default", data_dir=None, overrides=None) -> Ruleset:
    """Load and check one Evolution ruleset (variant: default, second-printing, cs4500)."""
    return GAME_DATA.load(variant, data_dir=data_dir, overrides=overrides)


def compile_rules(rs: Ruleset) -> tuple[Rules, Cards]:
    """The typed rule numbers and the card attribute arrays of a loaded ruleset."""
    names = {f.name for f in fields(Rules)}
    missing = names - set(rs.params)
    if missing:
        raise UserError(f"params.toml lacks parameter(s) {sorted(missing)}", key=sorted(missing)[0])
    rules = Rules(**{n: rs.params[n] for n in names})
    pairs = [(row["food"], TRAIT_ID[row["trait"]])
             for row in rs.tables["cards"] if row["deck"] == rules.deck
             for _ in range(row["copies"])]
    return rules, Cards.from_pairs(pairs)


def rules_for(variant: str = "default", **overrides) -> tuple[Rules, Cards]:
    """Shortcut: load + compile a built-in variant, with keyword parameter overrides."""
    return compile_rules(load(variant, overrides=overrides or None))
