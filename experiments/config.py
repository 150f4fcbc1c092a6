"""Experiment configs: a TOML file -> a checked, fully resolved `SweepConfig`.

A config names a ruleset, who plays, how many games per point, the run seed, and a grid
of swept variables. Every mistake is a UserError naming the config file and the key
(`grid[1].values[2]`, `ablation.entities[0]`, ...); nothing is run or written before the
whole config (including every ruleset point it expands to) has been checked. Every key, with
its type, default and meaning: docs/config.md (a test keeps the two in step).

    name = "fourth-card"            # optional, default: the file name
    description = "..."
    ruleset = "evolversi"           # required
    variant = "default"
    data = "my-cards/"              # optional designer data folder (relative to this file)
    set = { track_length = 20 }     # base parameter overrides
    edits = [ { table = "cards", where = { name = "Ali" }, set = { strength = 3 } } ]
    players = [3, 4]                # one count or a list
    bots = "greedy"                 # one bot for all seats, or one per seat
    bot_permutations = false        # true: every distinct seat order of `bots`
    factions = "random"             # or one per seat ("random" allowed per seat)
    games = 2000                    # games per point
    seed = 1
    replicates = 1                  # >1: independent replicates, seeds from SeedSequence(seed).spawn
    batch_size = 1000               # games per chunk (one parquet file each)
    target_rounds = [8, 15]         # optional: the game length designers aim for
    [target]                        # optional: what the report marks and ranks points by (as tune's
    lead_changes = [1.0, 3.0]       #   [targets]: a [low, high] range or an upper bound; rates in points;
    faction_gap = 5.0               #   a game-flow metric turns trajectories on; reports/measures/targets.py)

    [[grid]]                        # axes expand in file order, the last one fastest
    param = "fourth_card_space"     # a rule parameter ...
    values = [2, 3, 4, 5]
    [[grid]]
    table = "cards"                 # ... or a card-table edit (copies = 0 removes a card)
    where = { name = "Vampirismo" }
    column = "tokens"
    values = [1, 2, 3]
    [[grid]]
    variants = ["default", "advanced-genetics"]   # ... or named variants
    [[grid]]
    data = ["builtin", "b/"]        # ... or whole data folders ("builtin": the ruleset's own)
    [[grid]]
    bots = ["greedy", "silly"]      # ... or who plays: one bot for all seats, or a list per seat

    [ablation]                      # causal per-entity checks, paired with the base points
    entities = ["Vampirismo"]       # or "*": every entity of the ablated table (where = { deck = "evolution" }:
                                    #   only its rows with these values)
    at = "every"                    # every base point (default) or "reference": the config's own rules only
    kind = "knockout"               # default: the same cards, the entity's effect off (active = 0),
    entity_kind = "card"            #   in the table the game names for that kind (default: its tallied kind)
    # kind = "removal"              # or: edit the entity's rows (a removal reshuffles: rarely paired)
    # table = "cards"; column = "name"; set = { copies = 0 }    (removal only; these are its defaults)

    [restricted]                    # restricted play (no `bots`, no bots axis): one seat plays
    bot = "greedy"                  #   bot+favor:E / bot+avoid:E against this bot in every other seat,
    entities = "*"                  #   for every entity of the game ("*") or the listed ones,
    modifiers = ["favor", "avoid"]  #   each modifier,
    seats = "rotate"                #   at every seat in turn (or a list of seats); plus the point
                                    #   where every seat plays the plain bot: the paired reference
"""
from __future__ import annotations

import hashlib
import json
import math
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reports.measures.targets import FLOW_TARGETS, TARGETS
from simcore.errors import UserError
from simcore.games import GAMES, get_game
from simcore.runner import MAX_BATCH, MAX_GAMES, MAX_SEED, check_run_size

MAX_POINTS = 10_000          # points of one sweep (grid x replicates x players x line-ups x ablations)

TOP_KEYS = {"name", "description", "ruleset", "variant", "data", "set", "edits", "players", "bots", "trajectories",
            "bot_permutations", "factions", "games", "seed", "replicates", "batch_size",
            "target_rounds", "target", "grid", "ablation", "restricted"}
AXIS_KINDS = ("param", "table", "variants", "data", "edits", "bots")
AXIS_KEYS = {"name", "param", "values", "table", "where", "column", "variants", "data", "edits", "bots", "labels"}
ABLATION_KEYS = {"entities", "where", "kind", "entity_kind", "table", "column", "set", "at"}
ABLATION_AT = ("every", "reference")
ABLATION_KINDS = ("knockout", "removal")
RESTRICTED_KEYS = {"bot", "entities", "modifiers", "seats"}
BUILTIN = "builtin"                 # a data folder value: the ruleset's own data


@dataclass(frozen=True)
class Axis:
    """One swept variable: its kind, label, and the values it takes (in order)."""

    name: str
    kind: str                     # param | table | variants | data | edits
    values: tuple                 # parameter values, column values, variant names, folders or edit lists
    labels: tuple[str, ...]       # how each value is shown
    target: str = ""              # param name, or table name for a table edit
    where: dict = field(default_factory=dict)
    column: str = ""


@dataclass(frozen=True)
class Ablation:
    """Entities to knock out (or remove/replace) at every base point, paired game by game.

    A knockout's table and column come from the game (GAME.knockout_targets[entity_kind]) when
    the config is expanded; here they are empty and `set` is {"active": 0}.
    """

    entities: tuple[str, ...]
    table: str
    column: str
    set: dict
    kind: str = "knockout"        # knockout | removal
    entity_kind: str = ""         # knockout: which kind of entity ("" = the game's tallied kind)
    at: str = "every"             # every | reference: at every base point, or at the reference point only
    where: dict = field(default_factory=dict)   # entities "*": only the rows with these column values


@dataclass(frozen=True)
class Restricted:
    """Restricted play: which bot is modified (and fills the other seats), over which entities
    (() = every entity of the game), with which modifiers, at which seats (() = every seat)."""

    bot: str
    entities: tuple[str, ...]
    modifiers: tuple[str, ...]
    seats: tuple[int, ...]

    def resolved(self) -> dict:
        return {"bot": self.bot, "entities": list(self.entities) or "*", "modifiers": list(self.modifiers),
                "seats": list(self.seats) or "rotate"}


@dataclass(frozen=True)
class SweepConfig:
    """A checked config; `resolved()` is the JSON form stored in the run's manifest."""

    file: str
    name: str
    description: str
    ruleset: str
    variant: str
    data: str | None
    set: dict
    edits: tuple
    players: tuple[int, ...]
    bots: tuple[str, ...]
    bot_permutations: bool
    factions: tuple | None
    games: int
    seed: int
    replicates: int
    batch_size: int
    target_rounds: tuple[int, int] | None
    grid: tuple[Axis, ...]
    ablation: Ablation | None
    trajectories: bool = False      # record each seat's standing after each round (flow metrics)
    restricted: Restricted | None = None
    target: dict = field(default_factory=dict)   # metric -> upper bound or (low, high): marks and ranks points
    text: str = field(default="", repr=False, compare=False)   # the TOML as given (the run folder keeps it)

    def resolved(self) -> dict:
        """Every setting with defaults filled in, JSON-ready (file paths absolute)."""
        def axis(a: Axis) -> dict:
            return {"name": a.name, "kind": a.kind, "values": list(a.values), "labels": list(a.labels),
                    "target": a.target, "where": a.where, "column": a.column}
        return {
            "name": self.name, "description": self.description, "ruleset": self.ruleset,
            "variant": self.variant, "data": self.data, "set": self.set, "edits": list(self.edits),
            "players": list(self.players), "bots": list(self.bots), "bot_permutations": self.bot_permutations,
            "factions": None if self.factions is None else list(self.factions), "games": self.games,
            "seed": self.seed, "replicates": self.replicates, "batch_size": self.batch_size,
            "target_rounds": None if self.target_rounds is None else list(self.target_rounds),
            "grid": [axis(a) for a in self.grid],
            "ablation": None if self.ablation is None else {
                "entities": list(self.ablation.entities) or "*", "kind": self.ablation.kind,
                "entity_kind": self.ablation.entity_kind, "table": self.ablation.table,
                "column": self.ablation.column, "set": self.ablation.set,
                **({"at": self.ablation.at} if self.ablation.at != "every" else {}),
                **({"where": self.ablation.where} if self.ablation.where else {})},
            # only when on, so the digest of every config written before the key existed holds
            **({"trajectories": True} if self.trajectories else {}),
            **({"restricted": self.restricted.resolved()} if self.restricted else {}),
            **({"target": {k: list(v) if isinstance(v, tuple) else v for k, v in self.target.items()}}
               if self.target else {}),
        }

    def digest(self) -> str:
        """Hash of what decides the games played (not the name or description)."""
        doc = {k: v for k, v in self.resolved().items() if k not in ("name", "description", "target")}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:16]


class _Checker:
    """Type checks that raise a UserError naming the config file and key."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, key: str, message: str):
        raise UserError(message, file=self.file, key=key)

    def unknown_keys(self, doc: dict, allowed: set, prefix: str = "") -> None:
        bad = sorted(set(doc) - allowed)
        if bad:
            self.fail(prefix + bad[0], f"unknown key; expected some of: {', '.join(sorted(allowed))}")

    def integer(self, key: str, value: Any, lo: int | None = None, hi: int | None = None) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be a whole number, got {value!r}")
        if lo is not None and value < lo:
            self.fail(key, f"must be at least {lo}, got {value}")
        if hi is not None and value > hi:
            self.fail(key, f"must be at most {hi:,} (docs/reliability.md), got "
                           f"{value if value < 10**15 else f'about 10^{len(str(value)) - 1}'}")
        return value

    def text(self, key: str, value: Any) -> str:
        if not isinstance(value, str):
            self.fail(key, f"must be text, got {value!r}")
        return value

    def boolean(self, key: str, value: Any) -> bool:
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, got {value!r}")
        return value

    def table(self, key: str, value: Any) -> dict:
        if not isinstance(value, dict):
            self.fail(key, f"must be a table ({{ name = value, ... }}), got {value!r}")
        return value

    def values(self, key: str, value: Any) -> list:
        if not isinstance(value, list):
            self.fail(key, f"must be a list, got {value!r}")
        if not value:
            self.fail(key, "is empty: the grid would have no points; give at least one value")
        return value

    def text_list(self, key: str, value: Any) -> list[str]:
        return [self.text(f"{key}[{i}]", v) for i, v in enumerate(self.values(key, value))]


def _label(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _relative(base: Path, folder: str) -> str:
    p = Path(folder)
    return str(p if p.is_absolute() else (base / p).resolve())


def _builtin_folder(ruleset: Any) -> str | None:
    """The built-in data folder of a known ruleset (None for an unknown one: grid.expand names it)."""
    return str(get_game(ruleset).data.data_dir) if ruleset in GAMES else None


def _data_folder(c: _Checker, key: str, value: str, base: Path, ruleset: Any) -> str:
    """A data axis value as a folder: BUILTIN is the ruleset's own data, anything else a folder
    relative to the config file."""
    if value == BUILTIN:
        return _builtin_folder(ruleset) or value
    folder = _relative(base, value)
    if not Path(folder).is_dir():
        c.fail(key, f"data folder {value!r} does not exist (write {BUILTIN!r} for the ruleset's built-in data)")
    return folder


def _axis(c: _Checker, i: int, doc: Any, base: Path, ruleset: Any = None) -> Axis:
    key = f"grid[{i}]"
    doc = c.table(key, doc)
    c.unknown_keys(doc, AXIS_KEYS, key + ".")
    kinds = [k for k in AXIS_KINDS if k in doc]
    if len(kinds) != 1:
        c.fail(key, "each grid axis needs exactly one of: param (a rule parameter), table (a card-table "
                    "edit), variants, data, edits (several card-table edits per value)"
               + (f"; got {', '.join(kinds)}" if kinds else ""))
    kind = kinds[0]
    if kind == "param":
        target = c.text(key + ".param", doc["param"])
        values = c.values(key + ".values", doc.get("values"))
        name = doc.get("name", target)
        axis = Axis(name, kind, tuple(values), (), target=target)
    elif kind == "table":
        target = c.text(key + ".table", doc["table"])
        where = c.table(key + ".where", doc.get("where", {}))
        if not where:
            c.fail(key + ".where", "a table axis needs `where` (which rows to change), e.g. { name = \"Ali\" }")
        column = c.text(key + ".column", doc.get("column"))
        values = c.values(key + ".values", doc.get("values"))
        name = doc.get("name", f"{'/'.join(map(str, where.values()))}.{column}")
        axis = Axis(name, kind, tuple(values), (), target=target, where=dict(where), column=column)
    elif kind == "edits":
        # Each value is a list of { table, where, set } edits applied together (e.g. a card
        # mix that moves copies between designs and keeps a colour's total).
        values = doc["edits"]
        if not isinstance(values, list) or not values:
            c.fail(key + ".edits", "must be a non-empty list of values, each a list of { table, where, set } edits")
        for j, v in enumerate(values):
            if not isinstance(v, list):
                c.fail(f"{key}.edits[{j}]", "must be a list of { table, where, set } edits ([] = the data as it is)")
            for k, e in enumerate(v):
                c.table(f"{key}.edits[{j}][{k}]", e)
        if "labels" not in doc:
            c.fail(key + ".labels", "an edits axis needs one label per value (what each mix is called)")
        axis = Axis(doc.get("name", "edits"), kind, tuple(values), ())
    elif kind == "bots":
        # Each value: one bot for every seat ("greedy") or one per seat (["greedy", "silly", ...]).
        raw = c.values(key + ".bots", doc["bots"])
        values = [tuple(c.text_list(f"{key}.bots[{j}]", v)) if isinstance(v, list) else (c.text(f"{key}.bots[{j}]", v),)
                  for j, v in enumerate(raw)]
        axis = Axis("bots", kind, tuple(values), ())
        values = [",".join(v) for v in values]
        if "name" in doc:
            c.fail(key + ".name", "a bots axis is always called `bots` (the points' bots label)")
    elif kind == "variants":
        values = c.text_list(key + ".variants", doc["variants"])
        axis = Axis(doc.get("name", "variant"), kind, tuple(values), ())
    else:
        values = c.text_list(key + ".data", doc["data"])
        folders = [_data_folder(c, f"{key}.data[{j}]", v, base, ruleset) for j, v in enumerate(values)]
        axis = Axis(doc.get("name", "data"), kind, tuple(folders), (),)
        values = [Path(v).name or v for v in values]
    for extra in ("where", "column", "values") if kind in ("variants", "data", "edits", "bots") else ():
        if extra in doc:
            c.fail(f"{key}.{extra}", f"not used by a {kind} axis")
    c.text(key + ".name", axis.name)
    labels = doc.get("labels")
    if labels is None:
        labels = [_label(v) for v in values]
    else:
        labels = c.text_list(key + ".labels", labels)
        if len(labels) != len(axis.values):
            c.fail(key + ".labels", f"needs one label per value ({len(axis.values)}), got {len(labels)}")
    return Axis(axis.name, axis.kind, axis.values, tuple(labels), axis.target, axis.where, axis.column)


def _ablation(c: _Checker, doc: Any) -> Ablation | None:
    if doc is None:
        return None
    doc = c.table("ablation", doc)
    c.unknown_keys(doc, ABLATION_KEYS, "ablation.")
    entities = doc.get("entities")
    entities = [] if entities == "*" else c.text_list("ablation.entities", entities)
    if len(set(entities)) != len(entities):
        c.fail("ablation.entities", "names an entity twice")
    where = c.table("ablation.where", doc.get("where", {}))
    if where and entities:
        c.fail("ablation.where", 'chooses rows for entities = "*" only; with a list of entities leave it out')
    at = c.text("ablation.at", doc.get("at", "every"))
    if at not in ABLATION_AT:
        c.fail("ablation.at", f"unknown value {at!r}; expected every (each base point) or reference (the point "
                              "that plays the config's own rules)")
    kind = c.text("ablation.kind", doc.get("kind", "knockout"))
    if kind not in ABLATION_KINDS:
        c.fail("ablation.kind", f"unknown kind {kind!r}; expected knockout (the same cards with the effect "
                                "switched off: the default) or removal (edit the rows, e.g. copies = 0)")
    if kind == "knockout":
        extra = [k for k in ("table", "column", "set") if k in doc]
        if extra:
            c.fail(f"ablation.{extra[0]}", "is not used by a knockout (the game names the table and the `active` "
                                           "flag); for a card-table edit write kind = \"removal\"")
        return Ablation(tuple(entities), "", "", {"active": 0}, kind,
                        c.text("ablation.entity_kind", doc.get("entity_kind", "")), at, dict(where))
    if "entity_kind" in doc:
        c.fail("ablation.entity_kind", "is used by a knockout only; a removal names its `table` and `column`")
    change = c.table("ablation.set", doc.get("set", {"copies": 0}))
    if not change:
        c.fail("ablation.set", "must change at least one column, e.g. { copies = 0 }")
    return Ablation(tuple(entities), c.text("ablation.table", doc.get("table", "cards")),
                    c.text("ablation.column", doc.get("column", "name")), dict(change), kind, at=at, where=dict(where))


def _restricted(c: _Checker, doc: Any) -> Restricted | None:
    if doc is None:
        return None
    doc = c.table("restricted", doc)
    c.unknown_keys(doc, RESTRICTED_KEYS, "restricted.")
    bot = c.text("restricted.bot", doc.get("bot", "greedy"))
    if "+" in bot:
        c.fail("restricted.bot", f"is the bot the modifiers are added to, without one of its own; got {bot!r}")
    entities = doc.get("entities", "*")
    if entities == "*":
        entities = ()
    else:
        entities = tuple(c.text_list("restricted.entities", entities))
        if len(set(e.casefold() for e in entities)) != len(entities):
            c.fail("restricted.entities", "names an entity twice")
    modifiers = tuple(c.text_list("restricted.modifiers", doc.get("modifiers", ["favor", "avoid"])))
    for i, m in enumerate(modifiers):
        if m not in ("favor", "avoid"):
            c.fail(f"restricted.modifiers[{i}]", f"unknown modifier {m!r}; expected favor or avoid")
    seats = doc.get("seats", "rotate")
    if seats == "rotate":
        seats = ()
    else:
        seats = tuple(c.integer(f"restricted.seats[{i}]", v, 0) for i, v in enumerate(c.values("restricted.seats", seats)))
    return Restricted(bot, entities, modifiers, seats)


def _number(c: _Checker, key: str, value: Any) -> float | int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        c.fail(key, f"must be a number, got {value!r}")
    return value


def parse_targets(c: _Checker, doc: Any, prefix: str = "target") -> dict:
    """{metric: upper bound or (low, high)} from a targets table (tune's `[targets]`, a sweep's `[target]`)."""
    doc = c.table(prefix, doc)
    if not doc:
        c.fail(prefix, "names no target; give at least one of: " + ", ".join(TARGETS))
    out = {}
    for name, value in doc.items():
        key = f"{prefix}.{name}"
        if name not in TARGETS:
            c.fail(key, "no such metric; targets: " + "; ".join(f"{k} ({v})" for k, v in TARGETS.items()))
        if name == "rounds" or (name in FLOW_TARGETS and isinstance(value, list)):
            if not isinstance(value, list) or len(value) != 2:
                c.fail(key, f"must be [shortest, longest] mean rounds, got {value!r}" if name == "rounds" else
                       f"must be [low, high] or an upper bound, got {value!r}")
            a, b = (_number(c, f"{key}[{j}]", v) for j, v in enumerate(value))
            if a > b:
                c.fail(key, "shortest must not exceed longest" if name == "rounds" else "low must not exceed high")
            out[name] = (float(a), float(b))
        else:
            value = _number(c, key, value)
            if value < 0:
                c.fail(key, f"must be 0 or more points, got {value}")
            out[name] = float(value)
    return out


def parse_config(text: str, file: str = "config.toml") -> SweepConfig:
    """Parse and type-check a config's TOML text (no ruleset checks: see grid.expand)."""
    c = _Checker(file)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"is not valid TOML: {exc}", file=file) from None
    c.unknown_keys(doc, TOP_KEYS)
    if "ruleset" not in doc:
        c.fail("ruleset", "missing: say which ruleset to play, e.g. ruleset = \"evolversi\"")
    base = Path(file).resolve().parent
    players = doc.get("players", 4)
    players = [players] if isinstance(players, int) and not isinstance(players, bool) else c.values("players", players)
    players = tuple(c.integer(f"players[{i}]" if len(players) > 1 else "players", p, 1)
                    for i, p in enumerate(players))
    if len(set(players)) != len(players):
        c.fail("players", "lists a player count twice")
    bots = doc.get("bots", [])
    bots = (bots,) if isinstance(bots, str) else tuple(c.text_list("bots", bots) if bots != [] else [])
    factions = doc.get("factions")
    if isinstance(factions, str):
        factions = (factions,)
    elif factions is not None:
        factions = tuple(c.text_list("factions", factions))
    data = doc.get("data")
    if data == BUILTIN:
        data = None
    elif data is not None:
        data = _relative(base, c.text("data", data))
        if not Path(data).is_dir():
            c.fail("data", f"data folder {doc['data']!r} does not exist (write {BUILTIN!r} for the ruleset's "
                           "built-in data)")
    edits = doc.get("edits", [])
    if not isinstance(edits, list):
        c.fail("edits", "must be a list of { table, where, set } tables")
    for i, e in enumerate(edits):
        c.table(f"edits[{i}]", e)
    target = doc.get("target_rounds")
    if target is not None:
        if not isinstance(target, list) or len(target) != 2:
            c.fail("target_rounds", f"must be [shortest, longest] rounds, got {target!r}")
        target = (c.integer("target_rounds[0]", target[0], 1), c.integer("target_rounds[1]", target[1], 1))
        if target[0] > target[1]:
            c.fail("target_rounds", "shortest must not exceed longest")
    grid = doc.get("grid", [])
    if not isinstance(grid, list):
        c.fail("grid", "must be a list of [[grid]] axes")
    axes = tuple(_axis(c, i, a, base, doc.get("ruleset")) for i, a in enumerate(grid))
    names = [a.name for a in axes]
    if len(set(names)) != len(names):
        c.fail("grid", f"two axes share the name {next(n for n in names if names.count(n) > 1)!r}; give one a `name`")
    perm = c.boolean("bot_permutations", doc.get("bot_permutations", False))
    if any(a.kind == "bots" for a in axes) and ("bots" in doc or perm):
        c.fail("bots", "a config with a bots axis takes its bots from the axis; drop the top-level `bots` "
                       "(and bot_permutations)")
    if perm and len(bots) < 2:
        c.fail("bot_permutations", "needs one bot per seat in `bots`")
    restricted = _restricted(c, doc.get("restricted"))
    if restricted is not None and ("bots" in doc or perm or any(a.kind == "bots" for a in axes)):
        c.fail("restricted", "sets who plays (its bot in every seat, one seat modified); drop `bots`, "
                             "bot_permutations and any bots axis")
    goals = parse_targets(c, doc["target"], "target") if "target" in doc else {}
    trajectories = c.boolean("trajectories", doc.get("trajectories", False))
    flow = [t for t in goals if t in FLOW_TARGETS]
    if flow:
        # A game-flow target is measured on trajectories: turn them on (the rows stay the same
        # games; the standing columns are added), unless the config turned them off.
        if doc.get("trajectories") is False:
            c.fail(f"target.{flow[0]}", "a game-flow target needs trajectories; remove `trajectories = false` "
                                        "(a flow target turns them on)")
        ruleset = doc["ruleset"]
        if ruleset in GAMES and get_game(ruleset).standing_label is None:
            able = [g for g in GAMES if get_game(g).standing_label is not None]
            c.fail(f"target.{flow[0]}", f"a game-flow target needs trajectories, which {ruleset}'s engines do "
                                        f"not record yet; games that do: {', '.join(able) or 'none'}")
        trajectories = True
    games = c.integer("games", doc.get("games", 1000), 1, MAX_GAMES)
    batch_size = c.integer("batch_size", doc.get("batch_size", 5000), 1, MAX_BATCH)
    try:
        check_run_size(games, batch_size)
    except UserError as e:
        c.fail(e.key, e.message)
    return SweepConfig(
        file=file, name=c.text("name", doc.get("name", Path(file).stem)),
        description=c.text("description", doc.get("description", "")),
        ruleset=c.text("ruleset", doc["ruleset"]), variant=c.text("variant", doc.get("variant", "default")),
        data=data, set=dict(c.table("set", doc.get("set", {}))), edits=tuple(edits), players=players,
        bots=bots, bot_permutations=perm, factions=factions,
        games=games,
        seed=c.integer("seed", doc.get("seed", 0), 0, MAX_SEED),
        replicates=c.integer("replicates", doc.get("replicates", 1), 1, MAX_POINTS),
        batch_size=batch_size,
        target_rounds=target, grid=axes, ablation=_ablation(c, doc.get("ablation")),
        trajectories=trajectories, target=goals, restricted=restricted, text=text)


def read_config_text(path: str | Path) -> str:
    """A config file's text (UserError naming the file if it is missing or not UTF-8 text)."""
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError("no such config file", file=str(path)) from None
    except (IsADirectoryError, UnicodeDecodeError):
        raise UserError("is not a UTF-8 TOML file", file=str(path)) from None


def load_config(path: str | Path) -> SweepConfig:
    """Read and type-check a config file (UserError naming the file if it is missing)."""
    return parse_config(read_config_text(path), str(path))


# ----------------------------------------------------------------------------- writing configs

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if not isinstance(value, float) or math.isfinite(value) else \
            ("nan" if math.isnan(value) else ("inf" if value > 0 else "-inf"))
    if isinstance(value, str):
        return json.dumps(value)          # a JSON string is a valid TOML basic string
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def _toml_key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key)


def toml_text(doc: dict) -> str:
    """A flat config document (top-level keys, no [[grid]] tables) as TOML text."""
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in doc.items() if v is not None)


def one_point_config(ruleset: str, *, variant: str = "default", data: str | None = None, overrides: dict | None = None,
                     players: int = 4, bots: list[str] | None = None, factions: list[str] | None = None,
                     games: int = 1000, seed: int = 0, batch_size: int = 5000, name: str | None = None,
                     description: str = "", file: str = "balancelab run", trajectories: bool = False) -> SweepConfig:
    """The config of a sweep with a single point (what `balancelab run` plays), checked like any config.

    Its `text` is a config file that `balancelab sweep` accepts and that plays the same games.
    """
    doc = {"name": name or f"{ruleset}-run", "description": description, "ruleset": ruleset, "variant": variant,
           "data": None if data is None else str(Path(data).resolve()), "set": dict(overrides or {}),
           "players": players, "bots": bots, "factions": factions, "games": games, "seed": seed,
           "batch_size": batch_size, **({"trajectories": True} if trajectories else {})}
    return parse_config(toml_text(doc), file)
