"""Loading an Evolution ruleset: params.toml (+ variant overlay) and the card table.

`load(variant)` returns the generic `simcore.ruleset.Ruleset`; `compile_rules(ruleset)`
turns it into `Rules` (typed fields, attribute access) and `Cards` (numpy attribute
arrays indexed by card id) that both engines read.

Card ids are the deck's cards sorted by (trait name, food value): id order is the order
in which the course's "silly" player sorts its hand, so the batch engine can take "the
first k cards of the hand" without sorting. A card id is a position, so it moves when a
row is added or removed; what the shuffles hash is the card's `uid` instead, a number made
of its design (trait, food value) and its copy index only (`card_uid`), so the other cards
of a deck keep their shuffle keys when one design is removed.

Knockouts: a row's `active` = 0 switches its trait's effect off in the rules (the cards
stay in the deck, are drawn, played and scored as before). Every row of one trait in the
deck must agree; `Cards.active` holds the flag per trait id.
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
    unique=("deck", "trait", "food"),
    doc="Trait cards: one row per (deck, trait, food value) with its number of copies.",
    columns=(
        Column("deck", str, doc="which deck this row belongs to (param `deck` picks one)"),
        Column("trait", str, choices=TRAITS, doc="trait name"),
        Column("food", int, min=-9, max=9, doc="plant food value in the card's corner"),
        Column("copies", int, min=1, max=50, doc="number of identical cards"),
        Column("active", int, min=0, max=1, required=False, default=1,
               doc="1: the trait works; 0: knocked out (cards kept, effect off in the rules)"),
        source_column(),
        Column("text", str, required=False, default="", doc="free note"),
    ),
)


# card_uid packs (trait id, food value, copy index) into one address: copy in the low bits
_COPY_BITS = 12
_FOOD_BITS = 8
_FOOD_OFFSET = 128


def card_uid(kind: int, food: int, copy: int) -> int:
    """The stable identity of a card: its design (trait id, food value) and its copy index
    among the identical cards of the deck; it does not depend on any other row."""
    return ((kind << _FOOD_BITS | (food + _FOOD_OFFSET)) << _COPY_BITS) | copy


@dataclass(frozen=True)
class Cards:
    """Card attributes by card id: `kind[c]` trait id, `food[c]` food value, `uid[c]` the
    card's stable identity (what shuffles hash); `active[t]` per trait id: its effect works."""

    kind: np.ndarray    # (N,) int8 trait id
    food: np.ndarray    # (N,) int8 food value
    uid: np.ndarray     # (N,) int64 card_uid(kind, food, copy index)
    active: np.ndarray  # (K,) bool per trait id (K = len(TRAITS)); False: knocked out

    @property
    def n(self) -> int:
        return len(self.kind)

    @staticmethod
    def from_pairs(pairs, active=None) -> "Cards":
        """Cards from (food, trait id) pairs, sorted into silly order (name, food); `active`:
        per trait id (default: every trait works)."""
        pairs = sorted(pairs, key=lambda p: (TRAITS[p[1]], p[0]))
        uids, prev, copy = [], None, 0
        for f, k in pairs:              # identical designs are adjacent once sorted
            copy = copy + 1 if (f, k) == prev else 0
            prev = (f, k)
            if copy >= 1 << _COPY_BITS:
                raise UserError(f"more than {1 << _COPY_BITS} copies of {TRAITS[k]} {f}",
                                file="cards.csv", key="copies")
            uids.append(card_uid(k, f, copy))
        act = np.ones(len(TRAITS), bool) if active is None else np.asarray(active, bool)
        return Cards(kind=np.array([k for _, k in pairs], dtype=np.int8),
                     food=np.array([f for f, _ in pairs], dtype=np.int8),
                     uid=np.array(uids, dtype=np.int64), active=act)


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
    reveal_before_food: tuple
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
    for name in rs["reveal_before_food"]:
        if name not in rs["reveal_order"]:
            raise UserError(f"reveal_before_food lists {name!r}, which reveal_order lacks; "
                            "expected some of " + ", ".join(rs["reveal_order"]),
                            key="reveal_before_food")
    _check_active(rs)


def _check_active(rs: Ruleset) -> None:
    """Every row of one trait in the deck carries the same `active` (a knockout is per trait)."""
    first: dict = {}
    for row in rs.tables["cards"]:
        if row["deck"] != rs["deck"]:
            continue
        seen = first.setdefault(row["trait"], row)
        if row["active"] != seen["active"]:
            raise UserError(f"column 'active' is {row['active']} but {seen['active']} on row "
                            f"{seen['_row']} for the same trait {row['trait']!r}; every row of a "
                            "trait must agree (a knockout switches the whole trait off)",
                            file=rs.files.get("cards", "cards.csv"), row=row["_row"])


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
    rows = [row for row in rs.tables["cards"] if row["deck"] == rules.deck]
    pairs = [(row["food"], TRAIT_ID[row["trait"]]) for row in rows for _ in range(row["copies"])]
    active = np.ones(len(TRAITS), bool)
    for row in rows:
        active[TRAIT_ID[row["trait"]]] = bool(row["active"])
    return rules, Cards.from_pairs(pairs, active)


def rules_for(variant: str = "default", **overrides) -> tuple[Rules, Cards]:
    """Shortcut: load + compile a built-in variant, with keyword parameter overrides."""
    return compile_rules(load(variant, overrides=overrides or None))
