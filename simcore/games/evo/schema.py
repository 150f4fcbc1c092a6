"""Evo's data: the table schemas, the effect vocabularies, the checks across tables.

docs/games/evo.md says what each effect word does (sections 1, 5 and 6). The maps (one per
player count, `maps/<P>/zones.csv` and `maps/<P>/adjacency.csv`) are tables of the ruleset
too, so a designer's map in `--data` is loaded, hashed and checked like any other file;
maps.py checks and builds them.
"""
from __future__ import annotations

from pathlib import Path

from ...errors import UserError
from ...ruleset import GameData, Ruleset
from ...tables import Column, TableSchema, source_column
from . import maps

DATA_DIR = Path(__file__).parent / "data"

# Gene effects (contract section 1, "Species traits"). Counted effects add their amounts;
# ranged ones take the largest amount; flags are on or off (their amount must be 1).
COUNTED = ("move_points", "horns", "attack_horns", "defence_horns", "thermo", "fur", "eggs", "vials", "cave")
LARGEST = ("birth_range", "floor", "wings")
FLAGS = ("coastal_move", "killer_babies", "sixth_sense", "adrenaline", "chameleon")
GENE_EFFECTS = COUNTED + LARGEST + FLAGS
GENE_KINDS = ("normal", "unique")

# Event effects (contract section 6); the timing is part of the effect word.
EVENT_EFFECTS = ("prescience", "frenzied_attack", "rat_swarm", "egg_thief", "geysers")
EVENT_USES_AMOUNT = {"frenzied_attack", "egg_thief"}

CLIMATE_KINDS = ("shift", "meteorite")
CLASSES = ("ideal", "hot", "cold", "deadly")
ATTACK_RESULTS = ("fail", "win", "diff")
BABY_RESULTS = ("win", "lose")


def _active() -> Column:
    return Column("active", bool, required=False, default=True,
                  doc="1: the effect is on; 0: knocked out (still drawn, held and counted; contract 10)")


GENES = TableSchema("genes.csv", (
    Column("name", str, doc="gene name (the tally entity; copies of one name are identical genes)"),
    Column("kind", str, choices=GENE_KINDS, doc="normal (all in the bag) or unique (unique_in_bag of them)"),
    Column("effect", str, choices=GENE_EFFECTS, doc="effect word"),
    Column("amount", int, min=0, max=20, doc="how much (points, horns, layers, range, floor); 1 for a flag"),
    Column("copies", int, min=0, max=99),
    _active(),
    source_column(),
    Column("text", str, required=False, default=""),
), doc="Gene tokens: one row per gene design", unique_key=True)

EVENTS = TableSchema("events.csv", (
    Column("name", str, doc="event card name"),
    Column("effect", str, choices=EVENT_EFFECTS, doc="effect word (its timing is fixed by the word)"),
    Column("amount", int, min=0, max=20, doc="extra horns (frenzied_attack), fewest dinosaurs (egg_thief); else 0"),
    Column("copies", int, min=0, max=99),
    _active(),
    source_column(),
    Column("text", str, required=False, default=""),
), doc="Event cards: one row per card design", unique_key=True)

CLIMATE = TableSchema("climate.csv", (
    Column("name", str, doc="token name"),
    Column("kind", str, choices=CLIMATE_KINDS, doc="shift (turns the wheel) or meteorite (ends the game)"),
    Column("shift", int, min=-10, max=10, doc="sectors the wheel turns clockwise (negative: anticlockwise)"),
    Column("copies", int, min=0, max=99),
    source_column(),
    Column("text", str, required=False, default=""),
), doc="Climate tokens, the meteorite included", unique_key=True)

WHEEL = TableSchema("wheel.csv", (
    Column("sector", int, min=0, max=99, doc="sector number, 0.. clockwise"),
    Column("terrain", str, doc="one of the `terrains` parameter"),
    Column("class", str, choices=CLASSES, doc="what that terrain is in that sector"),
    source_column(),
    Column("text", str, required=False, default=""),
), doc="The climate wheel: every terrain's class in every sector", key="sector",
   unique=("sector", "terrain"))

DIE = TableSchema("die.csv", (
    Column("name", str, doc="face name"),
    Column("attack", str, choices=ATTACK_RESULTS, doc="fail, win, or diff (wins iff attacker horns - defender horns >= need)"),
    Column("need", int, min=-20, max=20, doc="the horn difference a diff face needs"),
    Column("babies", str, choices=BABY_RESULTS, doc="Killer babies: win (the opposing dinosaur dies) or lose (yours dies)"),
    Column("copies", int, min=0, max=99, doc="faces showing it"),
    source_column(),
    Column("text", str, required=False, default=""),
), doc="The combat die", unique_key=True)


def _map_schemas() -> dict[str, TableSchema]:
    out = {}
    for players in range(maps.MIN_PLAYERS, maps.MAX_PLAYERS + 1):
        zones, adjacency = maps.table_names(players)
        out[zones] = TableSchema(f"maps/{players}/zones.csv", (
            Column("zone", str, doc="zone name (its uid: the rank of the name)"),
            Column("terrain", str, doc="one of the `terrains` parameter"),
            Column("coast", bool, doc="1 if the zone is next to the sea"),
            Column("start", int, min=-1, max=maps.MAX_PLAYERS - 1, required=False, default=-1,
                   doc="the seat whose starting area this is; empty if none"),
            Column("x", int, doc="position in the map figure (any unit)"),
            Column("y", int, doc="position in the map figure (any unit)"),
            source_column(),
            Column("text", str, required=False, default=""),
        ), doc=f"The {players}-player board: one row per zone", key="zone", unique_key=True)
        out[adjacency] = TableSchema(f"maps/{players}/adjacency.csv", (
            Column("zone", str, doc="a zone of zones.csv"),
            Column("neighbour", str, doc="a zone adjacent to it (the reverse row must exist too)"),
            source_column(),
        ), doc=f"The {players}-player board: one row per adjacency and direction", key="zone",
            unique=("zone", "neighbour"))
    return out


def uid_order(rows) -> list[tuple[str, int]]:
    """The (name, copy index) of every physical component of a table, in uid order (contract 1).

    Sorted by name (code point order) then copy index: a uid never depends on row position,
    and a row with copies = 0 has no uid.
    """
    return sorted((r["name"], k) for r in rows for k in range(r["copies"]))


def _unique_names(rs: Ruleset, table: str) -> None:
    # unique_key already rejects a repeated name; this keeps the check explicit for edits.
    seen: dict[str, int] = {}
    for r in rs.tables[table]:
        if r["name"] in seen:
            raise UserError(f"duplicate name {r['name']!r} (also on row {seen[r['name']]}); use `copies`",
                            file=rs.files[table], row=r["_row"])
        seen[r["name"]] = r["_row"]


def _check_params(rs: Ruleset) -> None:
    p = rs.params
    if p["players_min"] > p["players_max"]:
        raise UserError("players_min must be <= players_max", key="players_min")
    terrains = p["terrains"]
    if not terrains or "" in terrains or len(set(terrains)) != len(terrains):
        raise UserError("needs distinct, non-empty terrain names, hottest first", key="terrains")
    if not p["prescience_shifts"]:
        raise UserError("needs at least one wheel turn", key="prescience_shifts")
    if p["min_bid"] > p["max_bid"]:
        raise UserError(f"min_bid ({p['min_bid']}) must be <= max_bid ({p['max_bid']})", key="min_bid")


def _check_genes(rs: Ruleset) -> None:
    file, p = rs.files["genes"], rs.params
    _unique_names(rs, "genes")
    for r in rs.tables["genes"]:
        if r["effect"] in FLAGS and r["amount"] != 1:
            raise UserError(f"effect {r['effect']!r} is on or off: amount must be 1, got {r['amount']}",
                            file=file, row=r["_row"])
    unique = sum(r["copies"] for r in rs.tables["genes"] if r["kind"] == "unique")
    if unique < p["unique_in_bag"]:
        raise UserError(f"{unique} unique genes in {Path(file).name}, fewer than unique_in_bag = {p['unique_in_bag']}",
                        key="unique_in_bag")
    if not any(r["copies"] for r in rs.tables["genes"]):
        raise UserError("no gene has copies: the bag would be empty", file=file)


def _check_events(rs: Ruleset) -> None:
    file = rs.files["events"]
    _unique_names(rs, "events")
    for r in rs.tables["events"]:
        if r["effect"] not in EVENT_USES_AMOUNT and r["amount"] != 0:
            raise UserError(f"effect {r['effect']!r} takes no amount: write 0, got {r['amount']}",
                            file=file, row=r["_row"])


def _check_climate(rs: Ruleset) -> None:
    file, p = rs.files["climate"], rs.params
    _unique_names(rs, "climate")
    rows = rs.tables["climate"]
    meteors = [r for r in rows if r["kind"] == "meteorite"]
    if sum(r["copies"] for r in meteors) != 1:
        raise UserError(f"needs exactly one meteorite token (kind meteorite, copies 1); has "
                        f"{sum(r['copies'] for r in meteors)}", file=file,
                        row=meteors[0]["_row"] if meteors else None)
    shifts = sum(r["copies"] for r in rows if r["kind"] == "shift")
    need = p["climate_discarded"] + p["meteorite_pile"] - 1
    if shifts < need:
        raise UserError(f"{shifts} shift tokens; setup needs at least climate_discarded + meteorite_pile - 1 = {need}",
                        file=file)


def _check_wheel(rs: Ruleset) -> None:
    file, p = rs.files["wheel"], rs.params
    terrains = p["terrains"]
    seen: dict[tuple[int, str], int] = {}
    for r in rs.tables["wheel"]:
        if r["terrain"] not in terrains:
            raise UserError(f"unknown terrain {r['terrain']!r}; terrains: {', '.join(terrains)} (parameter `terrains`)",
                            file=file, row=r["_row"])
        k = (r["sector"], r["terrain"])
        if k in seen:
            raise UserError(f"sector {k[0]} lists terrain {k[1]!r} twice (also on row {seen[k]})", file=file, row=r["_row"])
        seen[k] = r["_row"]
    sectors = sorted({s for s, _ in seen})
    if sectors != list(range(len(sectors))):
        raise UserError(f"sectors must be numbered 0..S-1 with none missing; got {sectors}", file=file)
    for s in sectors:
        missing = [t for t in terrains if (s, t) not in seen]
        if missing:
            raise UserError(f"sector {s} does not say the class of terrain(s) {', '.join(missing)}", file=file)
    if p["wheel_start"] >= len(sectors):
        raise UserError(f"the wheel has {len(sectors)} sectors (0..{len(sectors) - 1}); got {p['wheel_start']}",
                        key="wheel_start")


def _check_die(rs: Ruleset) -> None:
    _unique_names(rs, "die")
    if not any(r["copies"] for r in rs.tables["die"]):
        raise UserError("the die needs at least one face (copies >= 1)", file=rs.files["die"])


def validate(rs: Ruleset) -> None:
    """Cross-table and cross-parameter checks, each naming the file and row or key."""
    _check_params(rs)
    _check_genes(rs)
    _check_events(rs)
    _check_climate(rs)
    _check_wheel(rs)
    _check_die(rs)
    for players in range(rs.params["players_min"], rs.params["players_max"] + 1):
        maps.check_map(rs, players)


GAME_DATA = GameData("evo", DATA_DIR, {"genes": GENES, "events": EVENTS, "climate": CLIMATE, "wheel": WHEEL,
                                       "die": DIE, **_map_schemas()}, validate=validate)
