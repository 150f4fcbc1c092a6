"""Evolversi Male's data: the table schemas, the effect vocabulary and cross-table checks."""
from __future__ import annotations

from pathlib import Path

from ...errors import UserError
from ...ruleset import GameData, Ruleset
from ...tables import Column, TableSchema, source_column

DATA_DIR = Path(__file__).parent / "data"

# The effect vocabulary: every card, Event and power effect is one of these verbs.
EFFECTS = ("none", "gain_points", "lose_points", "gain_tokens", "lose_tokens", "steal_tokens",
           "gain_fury", "lose_fury", "copy_fury", "swap_market", "discount",
           "reveal_pressure", "draw_event", "take_totem")
# Whom an effect touches, seen from the animal that resolves it (the actor).
TARGETS = ("self", "other", "all", "all_others", "before", "after", "self_and_other")
# When an effect applies at all (checked as it resolves).
CONDITIONS = ("always", "has_totem", "no_totem", "first", "last")
# When a card below the board fires: on its owner's turn, or as a reaction (Advanced Genetics).
TRIGGERS = ("own_turn", "other_fury", "other_buy")
PRESSURE_KINDS = ("meteor", "totem_or_fury", "swap_above")

# Verbs that only make sense for the actor itself.
SELF_ONLY = {"swap_market", "discount", "reveal_pressure", "draw_event", "take_totem", "copy_fury", "none"}
# Verbs a card may offer "N more" of (the `more` column): amounts on one target.
MORE_VERBS = ("gain_points", "lose_points", "gain_tokens", "lose_tokens", "steal_tokens", "gain_fury", "lose_fury")
# Verbs that take from the targets, so the targets must be other animals.
OTHERS_ONLY = {"steal_tokens"}

def _printed_column() -> Column:
    return Column("printed", str, required=False, default="",
                  doc="the row's columns whose values the rulebook prints (a;b;...): their source is "
                      "rulebook, every other value's is the row's `source`")


# Not values of a row (no source of their own): its key, its sources, its note and the
# knockout switch `active` (an experiment's setting, not a fact about the card).
NOT_VALUES = ("name", "source", "printed", "text", "active")


def _active_column() -> Column:
    return Column("active", int, min=0, max=1, required=False, default=1,
                  doc="1 = the row's effect works; 0 = knocked out: its items stay in the game "
                      "(drawn, bought, played, counted, shuffled) and its effect changes nothing")

_effect_columns = (
    Column("effect", str, choices=EFFECTS, doc="effect verb"),
    Column("amount", int, min=0, max=99, doc="how much (points, tokens, Fury)"),
    Column("target", str, choices=TARGETS, doc="whom the effect touches"),
)

CARDS = TableSchema("cards.csv", (
    Column("name", str, doc="card name"),
    Column("deck", str, choices=("starting", "evolution")),
    Column("animal", str, required=True, default="", doc="owner of a starting card; empty for Evolution cards"),
    Column("copies", int, min=0, max=99),
    Column("strength", int, min=0, max=99, doc="Strength (top left)"),
    Column("tokens", int, min=0, max=99, doc="Evolution tokens (top right)"),
    Column("fury", int, min=0, max=9, doc="Fury symbols (bottom)"),
    *_effect_columns,
    Column("more", int, min=0, max=99, required=False, default=0,
           doc="'you may also ... N more': N more of the effect on the same target, if the actor chooses (MORE)"),
    Column("condition", str, choices=CONDITIONS),
    Column("optional", bool, doc="1 = 'you may' / optional symbol"),
    Column("discard", bool, doc="1 = discard symbol: discard the card after activating it"),
    Column("trigger", str, choices=TRIGGERS),
    Column("min_players", int, min=2, max=6, doc="2, or 3 for the '3+' cards"),
    Column("module", str, choices=("base", "advanced")),
    _active_column(),
    source_column(),
    _printed_column(),
    Column("text", str, required=False, default=""),
), doc="Starting cards (6 per animal) and Evolution cards (market deck)", unique=("name", "deck", "animal"))

EVENTS = TableSchema("events.csv", (
    Column("name", str),
    Column("copies", int, min=0, max=99),
    *_effect_columns,
    Column("condition", str, choices=CONDITIONS),
    Column("min_players", int, min=2, max=6),
    _active_column(),
    source_column(),
    _printed_column(),
    Column("text", str, required=False, default=""),
), doc="Event cards; the animal that draws one is its actor", unique_key=True)

ANIMALS = TableSchema("animals.csv", (
    Column("name", str),
    Column("reserve", int, min=0, max=99, doc="reserve limit of Evolution tokens"),
    Column("power", str, choices=EFFECTS, doc="power effect verb (fires when the deck is reshuffled)"),
    Column("amount", int, min=0, max=99),
    Column("target", str, choices=("self", "other")),
    Column("min_players", int, min=2, max=6),
    _active_column(),
    source_column(),
    _printed_column(),
    Column("text", str, required=False, default=""),
), doc="The animals: reserve limits and Powers", unique_key=True)

PRESSURE = TableSchema("pressure.csv", (
    Column("name", str),
    Column("kind", str, choices=PRESSURE_KINDS),
    Column("count", int, min=0, max=99),
    Column("fury", int, min=0, max=9, doc="Fury gained when a totem_or_fury token is answered with Fury"),
    _active_column(),
    source_column(),
    _printed_column(),
    Column("text", str, required=False, default=""),
), doc="Evolutionary Pressure tokens", unique_key=True)


def _check_effect(file, row, verb, target, where="effect"):
    if verb in SELF_ONLY and target != "self":
        raise UserError(f"{where} '{verb}' only acts on the actor itself: target must be 'self', got '{target}'",
                        file=file, row=row)
    if verb in OTHERS_ONLY and target in ("self", "all", "self_and_other"):
        raise UserError(f"{where} '{verb}' takes from other animals: target must be other, all_others, "
                        f"before or after, got '{target}'", file=file, row=row)


def printed(row: dict) -> list[str]:
    """The columns of a data row whose values the rulebook prints."""
    return [c.strip() for c in row["printed"].split(";") if c.strip()] if row["printed"] else []


def value_sources(rs: Ruleset) -> dict[str, dict[str, int]]:
    """Per table: how many values (row x column, NOT_VALUES aside) come from each source."""
    out = {}
    for table, schema in TABLES.items():
        count = {"rulebook": 0, "inferred": 0, "default": 0}
        columns = [c for c in schema.names() if c not in NOT_VALUES]
        for r in rs.tables[table]:
            shown = set(printed(r))
            for c in columns:
                count["rulebook" if c in shown else r["source"]] += 1
        out[table] = count
    return out


def _check_printed(rs: Ruleset) -> None:
    for table, schema in TABLES.items():
        columns = [c for c in schema.names() if c not in NOT_VALUES]
        for r in rs.tables[table]:
            names = printed(r)
            for c in names:
                if c not in columns:
                    raise UserError(f"printed names {c!r}, not a value column; value columns: {', '.join(columns)}",
                                    file=rs.files[table], row=r["_row"])
            if len(set(names)) != len(names):
                raise UserError("printed names a column twice", file=rs.files[table], row=r["_row"])
            if names and r["source"] == "rulebook":
                raise UserError("printed lists columns of a row whose source is already rulebook (every value "
                                "printed): leave printed empty, or give the other values' source",
                                file=rs.files[table], row=r["_row"])


def validate(rs: Ruleset) -> None:
    """Cross-table and cross-parameter checks, each naming the file and row or key."""
    _check_printed(rs)
    p = rs.params
    f_cards, f_animals, f_events = rs.files["cards"], rs.files["animals"], rs.files["events"]
    animals = {a["name"] for a in rs.tables["animals"]}
    if len(animals) != len(rs.tables["animals"]):
        raise UserError("animal names must be unique", file=f_animals)
    for r in rs.tables["cards"]:
        _check_effect(f_cards, r["_row"], r["effect"], r["target"])
        if r["deck"] == "starting" and r["animal"] not in animals:
            raise UserError(f"starting card of unknown animal {r['animal']!r}; animals: {', '.join(sorted(animals))}",
                            file=f_cards, row=r["_row"])
        if r["deck"] == "evolution" and r["animal"]:
            raise UserError("an Evolution card has no animal (leave the column empty)", file=f_cards, row=r["_row"])
        if r["trigger"] != "own_turn" and r["effect"] in ("reveal_pressure", "swap_market", "discount"):
            raise UserError(f"a reaction card cannot use '{r['effect']}' (it acts on another animal's turn)",
                            file=f_cards, row=r["_row"])
        if r["more"] and (r["effect"] not in MORE_VERBS or r["target"] not in ("self", "other")
                          or r["trigger"] != "own_turn"):
            raise UserError(f"more = {r['more']} needs an own_turn card whose effect is one of "
                            f"{', '.join(MORE_VERBS)} on target self or other", file=f_cards, row=r["_row"])
        if r["effect"] == "copy_fury" and r["trigger"] != "other_fury":
            raise UserError("copy_fury needs trigger other_fury", file=f_cards, row=r["_row"])
    for r in rs.tables["events"]:
        _check_effect(f_events, r["_row"], r["effect"], r["target"], "event effect")
        if r["target"] in ("other", "self_and_other") or r["effect"] in ("copy_fury", "swap_market", "discount",
                                                                         "draw_event", "reveal_pressure"):
            raise UserError(f"an Event cannot use effect '{r['effect']}' with target '{r['target']}' "
                            "(Events resolve without choices)", file=f_events, row=r["_row"])
    for r in rs.tables["animals"]:
        _check_effect(f_animals, r["_row"], r["power"], r["target"], "power")
        if r["power"] in ("copy_fury", "swap_market", "discount", "draw_event", "reveal_pressure", "take_totem"):
            raise UserError(f"a power cannot use '{r['power']}'; use gain/lose/steal points, tokens or Fury",
                            file=f_animals, row=r["_row"])
        n = sum(c["copies"] for c in rs.tables["cards"] if c["deck"] == "starting" and c["animal"] == r["name"])
        if n != p["starting_cards"]:
            raise UserError(f"animal {r['name']!r} has {n} starting cards in cards.csv; expected "
                            f"starting_cards = {p['starting_cards']}", file=f_cards)
    if p["players_min"] > p["players_max"]:
        raise UserError("players_min must be <= players_max", key="players_min")
    if len(p["market_costs"]) < p["market_spaces"]:
        raise UserError(f"needs one cost per market space ({p['market_spaces']})", key="market_costs")
    if p["players_max"] + p["market_extra"] > p["market_spaces"]:
        raise UserError("players_max + market_extra must fit in market_spaces", key="market_spaces")
    for name in ("hand_size", "hand_size_fourth"):
        h = p[name]
        if not (p["min_above"] + p["min_below"] <= h <= p["max_above"] + p["max_below"]):
            raise UserError(f"must lie between min_above+min_below ({p['min_above'] + p['min_below']}) and "
                            f"max_above+max_below ({p['max_above'] + p['max_below']})", key=name)
    if any(not (0 < s < p["track_length"]) for s in p["pressure_spaces"]):
        raise UserError(f"every space must lie strictly inside the track (1..{p['track_length'] - 1})",
                        key="pressure_spaces")
    if len(set(p["pressure_spaces"])) != len(p["pressure_spaces"]):
        raise UserError("spaces must be distinct", key="pressure_spaces")
    if p["start_position"] >= p["track_length"]:
        raise UserError("must be below track_length", key="start_position")
    for m in p["modules"]:
        if m not in ("base", "advanced"):
            raise UserError(f"unknown module {m!r}; expected base or advanced", key="modules")
    if len(animals) < p["players_max"]:
        raise UserError(f"needs at least players_max = {p['players_max']} animals", file=f_animals)


TABLES = {"cards": CARDS, "events": EVENTS, "animals": ANIMALS, "pressure": PRESSURE}
GAME_DATA = GameData("evolversi", DATA_DIR, TABLES, validate=validate)
