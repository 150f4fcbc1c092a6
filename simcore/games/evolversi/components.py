"""The physical components of one Evolversi set-up: which card instances exist, with uids.

Shared by both engines so that a uid means the same card in each (and both hash the same
identities in their shuffles). This is bookkeeping, not rules: nothing here decides how the game plays.

Numbering: walk cards.csv in file order; every row that is in play (its module is in
`modules` and its min_players <= players) contributes `copies` instances with consecutive
uids. Events and Pressure tokens are numbered the same way in their own tables. Starting
cards of every animal are numbered (whether or not the animal is in play), so uids do not
depend on the animals drawn.

A uid is an array index; what a shuffle hashes is the item's identity (`ident`), a 64-bit
hash of what the item is (its table, owner animal, name and copy index), never of its row
position: removing or adding one card row leaves every other card's shuffle key the same,
so the other cards keep their relative order in every shuffle.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass

import numpy as np

from ... import rng
from ...ruleset import Ruleset

# Chance addresses: the KIND code of every random draw (contract section 2), for both engines.
KIND_ANIMALS, KIND_TOTEM, KIND_PRESSURE, KIND_EVENTS, KIND_EVOLUTION, KIND_OWN_DECK = 1, 2, 3, 4, 5, 6


@dataclass(frozen=True)
class Components:
    players: int
    card_row: tuple[int, ...]              # uid -> row index in cards.csv (the card's design)
    starting: tuple[tuple[int, ...], ...]  # animal index -> uids of its starting cards
    evolution: tuple[int, ...]             # uids of the Evolution deck, in numbering order
    event_row: tuple[int, ...]             # event uid -> row index in events.csv
    pressure_kind: tuple[str, ...]         # pressure uid -> kind
    pressure_row: tuple[int, ...]          # pressure uid -> row index in pressure.csv
    pressure_fury: tuple[int, ...]         # pressure uid -> Fury it gives (totem_or_fury)
    eligible_animals: tuple[int, ...]      # animal indices allowed with this many players
    card_ident: tuple[int, ...]            # uid -> identity (shuffle address): ident("card", animal, name, copy)
    event_ident: tuple[int, ...]           # event uid -> ident("event", "", name, copy)
    pressure_ident: tuple[int, ...]        # pressure uid -> ident("pressure", "", name, copy)
    animal_ident: tuple[int, ...]          # animal index -> ident("animal", "", name, 0)


def ident(table: str, owner: str, name: str, copy: int) -> int:
    """An item's identity: the first 8 bytes of blake2b over what the item is, as an int
    below 2**64 (a shuffle address). `owner`: the animal of a starting card, else ""."""
    text = "\x1f".join((table, owner, name, str(copy))).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def shuffle_by_ident(seed: int, game: int, uids, idents, *address) -> list:
    """rng.shuffle_order of `uids`, each keyed by its identity `idents[uid]` (the batch
    engine hashes the same identities)."""
    uids = list(uids)
    by_ident = {idents[u]: u for u in uids}
    return [by_ident[i] for i in rng.shuffle_order(seed, game, rng.CHANCE, [idents[u] for u in uids], *address)]


def ident_array(idents, empty: bool = False) -> np.ndarray:
    """(n,) uint64 identities (plus one 0 entry for uid -1 if `empty`), for the batch engine."""
    return np.array(list(idents) + ([0] if empty else []), dtype=np.uint64)


def components(rs: Ruleset, players: int) -> Components:
    modules = set(rs["modules"])
    animals = rs.tables["animals"]
    animal_index = {a["name"]: i for i, a in enumerate(animals)}
    card_row: list[int] = []
    card_ident: list[int] = []
    starting: list[list[int]] = [[] for _ in animals]
    evolution: list[int] = []
    copies_seen: dict[tuple[str, str], int] = {}     # (owner, name) -> copies numbered so far
    for row_index, r in enumerate(rs.tables["cards"]):
        in_play = r["module"] in modules and r["min_players"] <= players
        if not in_play and r["deck"] == "evolution":
            continue
        # rows with the same owner and name (none in the default data) number their copies on
        owner = r["animal"] if r["deck"] == "starting" else ""
        for _ in range(r["copies"]):
            uid = len(card_row)
            copy = copies_seen.get((owner, r["name"]), 0)
            copies_seen[(owner, r["name"])] = copy + 1
            card_row.append(row_index)
            card_ident.append(ident("card", owner, r["name"], copy))
            if r["deck"] == "starting":
                starting[animal_index[r["animal"]]].append(uid)
            else:
                evolution.append(uid)
    event_row = [i for i, e in enumerate(rs.tables["events"]) if e["min_players"] <= players
                 for _ in range(e["copies"])]
    pressure_row = [i for i, t in enumerate(rs.tables["pressure"]) for _ in range(t["count"])]
    pressure_kind = [rs.tables["pressure"][i]["kind"] for i in pressure_row]
    pressure_fury = [rs.tables["pressure"][i]["fury"] for i in pressure_row]
    eligible = [i for i, a in enumerate(animals) if a["min_players"] <= players]
    event_ident = _copy_idents("event", rs.tables["events"], event_row)
    pressure_ident = _copy_idents("pressure", rs.tables["pressure"], pressure_row)
    animal_ident = [ident("animal", "", a["name"], 0) for a in animals]
    return Components(players, tuple(card_row), tuple(tuple(s) for s in starting), tuple(evolution),
                      tuple(event_row), tuple(pressure_kind), tuple(pressure_row),
                      tuple(pressure_fury), tuple(eligible), tuple(card_ident), tuple(event_ident),
                      tuple(pressure_ident), tuple(animal_ident))


def _copy_idents(table: str, rows, row_of_uid) -> list[int]:
    """Identities of the items numbered from `rows` (uid -> row), copy index per name."""
    seen: dict[str, int] = {}
    out = []
    for i in row_of_uid:
        name = rows[i]["name"]
        out.append(ident(table, "", name, seen.get(name, 0)))
        seen[name] = seen.get(name, 0) + 1
    return out
