"""The physical components of one Evolversi set-up: which card instances exist, with uids.

Shared by both engines so that a uid means the same card in each (the shuffles are keyed
by uid). This is bookkeeping, not rules: nothing here decides how the game plays.

Numbering: walk cards.csv in file order; every row that is in play (its module is in
`modules` and its min_players <= players) contributes `copies` instances with consecutive
uids. Events and Pressure tokens are numbered the same way in their own tables. Starting
cards of every animal are numbered (whether or not the animal is in play), so uids do not
depend on the animals drawn.
"""
from __future__ import annotations

from dataclasses import dataclass

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


def components(rs: Ruleset, players: int) -> Components:
    modules = set(rs["modules"])
    animals = rs.tables["animals"]
    animal_index = {a["name"]: i for i, a in enumerate(animals)}
    card_row: list[int] = []
    starting: list[list[int]] = [[] for _ in animals]
    evolution: list[int] = []
    for row_index, r in enumerate(rs.tables["cards"]):
        in_play = r["module"] in modules and r["min_players"] <= players
        if not in_play and r["deck"] == "evolution":
            continue
        for _ in range(r["copies"]):
            uid = len(card_row)
            card_row.append(row_index)
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
    return Components(players, tuple(card_row), tuple(tuple(s) for s in starting), tuple(evolution),
                      tuple(event_row), tuple(pressure_kind), tuple(pressure_row),
                      tuple(pressure_fury), tuple(eligible))
