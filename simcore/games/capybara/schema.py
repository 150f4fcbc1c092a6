"""Ernesto Capybara's data: the table schemas, the effect and symbol vocabularies, the checks.

docs/games/capybara.md says what each effect word and symbol does.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from ...errors import UserError
from ...ruleset import GameData, Ruleset
from ...tables import Column, TableSchema, source_column

DATA_DIR = Path(__file__).parent / "data"

# Card effects (contract section 5): what a capybara card does when it is played.
EFFECTS = ("place", "place_others", "complete", "gather", "copy_card", "lock", "copy_tokens",
           "cancel", "none")
# Effects that place `amount` new tokens: amount must be at least 1.
PLACING = {"place", "place_others"}
# Effects whose amount means something: the others must say 0.
USES_AMOUNT = PLACING | {"copy_tokens"}
# The colourless effect: the Capybaranka, the only card played out of turn.
COLOURLESS = "cancel"
# Strike symbols (contract section 7.4); `none` = a plain strike.
SYMBOLS = ("banned_colour", "crown_complete", "crown_double", "crown_peek", "double_tokens",
           "plus_one", "all_place")

CARDS = TableSchema("cards.csv", (
    Column("name", str, doc="card name (the tally entity; colours merged)"),
    Column("colour", str, required=True, default="", doc="one of the `colours` parameter; empty for Capybaranka"),
    Column("effect", str, choices=EFFECTS, doc="effect word"),
    Column("amount", int, min=0, max=20, doc="tokens placed (place, place_others); cap per player (copy_tokens, 0 = none)"),
    Column("copies", int, min=0, max=99),
    source_column(),
    Column("text", str, required=False, default=""),
    Column("active", int, min=0, max=1, required=False, default=1,
           doc="1; 0 = knocked out: still dealt, held, played and discarded, its effect does nothing"),
), doc="Capybara cards: one row per card design (name, colour)", unique=("name", "colour"))

STRIKES = TableSchema("strikes.csv", (
    Column("name", str, doc="strike name"),
    Column("fatigue", int, min=0, max=99, doc="fatigue points (lower total wins)"),
    Column("symbol", str, choices=("none",) + SYMBOLS, doc="lower-left symbol (additional rules)"),
    Column("colour", str, required=True, default="", doc="the crossed-out colour of a banned_colour strike; else empty"),
    Column("copies", int, min=0, max=99),
    source_column(),
    Column("text", str, required=False, default=""),
    Column("active", int, min=0, max=1, required=False, default=1,
           doc="1; 0 = knocked out: its fatigue counts, its symbol does nothing"),
), doc="Strike cards: fatigue value and symbol", unique_key=True)


def shuffle_id(kind: str, key: str, copy: int) -> int:
    """A physical card's shuffle address (contract 2): 62 bits of sha256 of its kind, key and
    copy index. It depends on nothing else, so adding or removing another row (or reordering
    the table) leaves every card's shuffle key, and the relative order of the others, as it was."""
    digest = hashlib.sha256(f"{kind}\x1f{key}\x1f{copy}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def design_key(row: dict) -> str:
    """A card design's key: '<colour> <name>', or the name of a colourless card."""
    return f"{row['colour']} {row['name']}" if row["colour"] else row["name"]


def _check_cards(rs: Ruleset) -> None:
    p, file = rs.params, rs.files["cards"]
    colours = p["colours"]
    seen: dict[str, int] = {}
    for r in rs.tables["cards"]:
        row = r["_row"]
        key = design_key(r)
        if key in seen:
            raise UserError(f"duplicate card {key!r} (also on row {seen[key]}); use `copies` for several "
                            "identical cards", file=file, row=row)
        seen[key] = row
        if r["colour"] and r["colour"] not in colours:
            raise UserError(f"unknown colour {r['colour']!r}; colours: {', '.join(colours)} "
                            "(parameter `colours`), or empty for a Capybaranka", file=file, row=row)
        if (r["effect"] == COLOURLESS) != (r["colour"] == ""):
            raise UserError(f"effect '{COLOURLESS}' (Capybaranka) goes on colourless cards and only there: "
                            f"got effect {r['effect']!r} with colour {r['colour']!r}", file=file, row=row)
        if r["effect"] in PLACING and r["amount"] < 1:
            raise UserError(f"effect {r['effect']!r} places tokens: amount must be >= 1", file=file, row=row)
        if r["effect"] not in USES_AMOUNT and r["amount"] != 0:
            raise UserError(f"effect {r['effect']!r} takes no amount: write 0, got {r['amount']}",
                            file=file, row=row)
    for colour in colours:
        rows = [r for r in rs.tables["cards"] if r["colour"] == colour]
        n = sum(r["copies"] for r in rows)
        if n != p["cards_per_colour"]:
            raise UserError(f"colour {colour!r} has {n} cards; expected cards_per_colour = {p['cards_per_colour']}",
                            file=file, row=rows[0]["_row"] if rows else None)
    n = sum(r["copies"] for r in rs.tables["cards"] if not r["colour"])
    if n != p["cancel_cards"]:
        raise UserError(f"{n} colourless (Capybaranka) cards; expected cancel_cards = {p['cancel_cards']}", file=file)


def _check_strikes(rs: Ruleset) -> None:
    p, file = rs.params, rs.files["strikes"]
    for r in rs.tables["strikes"]:
        banned = r["symbol"] == "banned_colour"
        if banned and r["colour"] not in p["colours"]:
            raise UserError(f"a banned_colour strike names one of the colours {', '.join(p['colours'])}; "
                            f"got {r['colour']!r}", file=file, row=r["_row"])
        if not banned and r["colour"]:
            raise UserError(f"only a banned_colour strike has a colour; symbol {r['symbol']!r} has "
                            f"{r['colour']!r}", file=file, row=r["_row"])
    n = sum(r["copies"] for r in rs.tables["strikes"])
    if n != p["strike_cards"]:
        raise UserError(f"{n} strike cards; expected strike_cards = {p['strike_cards']}", file=file)


def _check_params(rs: Ruleset) -> None:
    p = rs.params
    for s in p["symbols"]:
        if s not in SYMBOLS:
            raise UserError(f"unknown symbol {s!r}; symbols: {', '.join(SYMBOLS)}", key="symbols")
    if len(set(p["symbols"])) != len(p["symbols"]):
        raise UserError("each symbol at most once", key="symbols")
    if not p["colours"] or len(set(p["colours"])) != len(p["colours"]) or "" in p["colours"]:
        raise UserError("needs distinct, non-empty colour names", key="colours")
    if p["players_min"] > p["players_max"]:
        raise UserError("players_min must be <= players_max", key="players_min")
    if p["small_game_removed_colours"] >= len(p["colours"]):
        raise UserError(f"must leave at least one of the {len(p['colours'])} colours",
                        key="small_game_removed_colours")
    if p["small_game_removed_cancels"] > p["cancel_cards"]:
        raise UserError(f"must be <= cancel_cards ({p['cancel_cards']})", key="small_game_removed_cancels")
    # The deal must fit in the deck at every player count (the parts may then hold only Revolutions).
    for players in range(p["players_min"], p["players_max"] + 1):
        small = players <= p["small_game_max_players"]
        hand = p["hand_size_small"] if small else p["hand_size"]
        cards = len(p["colours"]) * p["cards_per_colour"] + p["cancel_cards"]
        if small:
            cards -= p["small_game_removed_colours"] * p["cards_per_colour"] + p["small_game_removed_cancels"]
        if players * hand > cards:
            key = "hand_size_small" if small else "hand_size"
            raise UserError(f"with {players} players the deal ({players} x {hand}) needs more than the {cards} "
                            "capybara cards in play", key=key)
        if players + p["strikes_extra"] > p["strike_cards"]:
            raise UserError(f"{players} players need {players + p['strikes_extra']} strikes on the table; "
                            f"there are {p['strike_cards']}", key="strikes_extra")


def validate(rs: Ruleset) -> None:
    """Cross-table and cross-parameter checks, each naming the file and row or key."""
    _check_params(rs)
    _check_cards(rs)
    _check_strikes(rs)


GAME_DATA = GameData("capybara", DATA_DIR, {"cards": CARDS, "strikes": STRIKES}, validate=validate)
