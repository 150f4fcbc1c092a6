"""Tuning configs: a TOML file -> a checked `TuneConfig` (same reader and error style as sweeps).
Every key, with its type, default and meaning: docs/config.md.

    name = "tune-market"
    ruleset = "evolversi"
    variant = "default"             # data, set, edits, players, bots, factions: as in a sweep config
    players = 4
    bots = "greedy"
    seed = 7
    batch_size = 5000               # games per chunk (one parquet file each)

    [[variables]]                   # the decision variables, each with bounds and a step
    param = "track_length"          # a rule parameter ...
    min = 9
    max = 13
    step = 1
    [[variables]]
    param = "market_costs"          # ... one item of a list parameter ...
    index = 2
    min = 1
    max = 5
    step = 1
    [[variables]]
    table = "cards"                 # ... or a card-table cell (cost, value, copies)
    where = { name = "Artigli" }
    column = "strength"
    min = 2
    max = 6
    step = 1

    [targets]                       # any of these; rates in percentage points
    faction_gap = 3.0               # largest faction win-rate gap <= 3 points
    seat_gap = 5.0                  # largest seat win-rate gap <= 5 points
    entity_impact = 10.0            # no entity's impact interval beyond +-10 points
    rounds = [8, 15]                # mean game length within [8, 15] rounds
    first_seat = 4.0                # first-seat advantage (win rate - fair share) <= 4 points
    lead_changes = [1.0, 3.0]       # game flow (docs/metrics.md; needs a game that records
                                    # trajectories): a [low, high] range or an upper bound

    [budget]
    games = 2_000_000               # games played by the search (deterministic)
    minutes = 15                    # optional wall-clock cap (stopping on time is not reproducible)

    [search]                        # optional; defaults shown
    first_games = 2000              # games per candidate at the first racing rung
    max_games = 20000               # games per candidate at the last rung
    eta = 3                         # successive halving: keep 1/eta per rung, eta x the games
    max_changes = 3                 # most variables changed at once
    beam = 3                        # best candidates extended by one more change per stage

    [proof]
    games = 40000                   # fresh games per replay of the winner and the original
    until_decided = false           # true: play in chunks, stop once every target is decided
                                    # (95% confidence sequences), `games` the cap
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reports.measures.targets import FLOW_TARGETS, TARGETS
from simcore.errors import UserError
from simcore.games import GAMES, get_game

from ..config import SweepConfig, _Checker, _number, parse_config, parse_targets, read_config_text, toml_text

SWEEP_KEYS = {"name", "description", "ruleset", "variant", "data", "set", "edits", "players", "bots",
              "factions", "seed", "batch_size"}
TOP_KEYS = SWEEP_KEYS | {"variables", "targets", "budget", "search", "proof"}
VAR_KEYS = {"name", "param", "index", "table", "where", "column", "min", "max", "step"}
BUDGET_KEYS = {"games", "minutes"}
SEARCH_KEYS = {"first_games", "max_games", "eta", "max_changes", "beam"}
PROOF_KEYS = {"games", "until_decided"}
# the target catalogue is shared with sweep configs' [target] (reports.measures.targets)


@dataclass(frozen=True)
class Variable:
    """One decision variable: a rule parameter (or one item of a list parameter) or a table cell."""

    name: str
    kind: str                      # param | table
    lo: float
    hi: float
    step: float
    target: str = ""               # the parameter name, or the table name
    index: int | None = None       # item of a list parameter
    where: dict = field(default_factory=dict)
    column: str = ""

    def describe(self) -> dict:
        return {"name": self.name, "kind": self.kind, "min": self.lo, "max": self.hi, "step": self.step,
                "target": self.target, "index": self.index, "where": self.where, "column": self.column}


@dataclass(frozen=True)
class Search:
    first_games: int = 2000
    max_games: int = 20000
    eta: int = 3
    max_changes: int = 3
    beam: int = 3


@dataclass(frozen=True)
class TuneConfig:
    file: str
    base: SweepConfig              # ruleset, line-up, seed, chunking: read by the sweep reader
    variables: tuple[Variable, ...]
    targets: dict                  # name -> threshold (points) or (a, b) rounds
    budget_games: int
    budget_minutes: float | None
    search: Search
    proof_games: int
    proof_until_decided: bool = False   # play the proof in looks until every target is decided (cap: proof_games)
    text: str = field(default="", repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.base.name

    def resolved(self) -> dict:
        return {"base": self.base.resolved(), "variables": [v.describe() for v in self.variables],
                "targets": {k: list(v) if isinstance(v, tuple) else v for k, v in self.targets.items()},
                "budget": {"games": self.budget_games, "minutes": self.budget_minutes},
                "search": self.search.__dict__, "proof": self._proof()}

    def _proof(self) -> dict:
        # until_decided only when asked, so a fixed proof's config (and its digest) reads as before
        return {"games": self.proof_games, **({"until_decided": True} if self.proof_until_decided else {})}

    def digest(self) -> str:
        """Hash of what decides the search (not the name, description or time cap)."""
        doc = self.resolved()
        doc["base"] = {k: v for k, v in doc["base"].items() if k not in ("name", "description")}
        doc["budget"] = {"games": self.budget_games}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _variable(c: _Checker, i: int, doc: Any) -> Variable:
    key = f"variables[{i}]"
    doc = c.table(key, doc)
    c.unknown_keys(doc, VAR_KEYS, key + ".")
    kinds = [k for k in ("param", "table") if k in doc]
    if len(kinds) != 1:
        c.fail(key, "each variable needs exactly one of: param (a rule parameter) or table (a card-table cell)")
    for bound in ("min", "max", "step"):
        if bound not in doc:
            c.fail(f"{key}.{bound}", f"missing: a variable needs min, max and step")
    lo, hi, step = (_number(c, f"{key}.{b}", doc[b]) for b in ("min", "max", "step"))
    if step <= 0:
        c.fail(f"{key}.step", f"must be above 0, got {step}")
    if lo > hi:
        c.fail(f"{key}.min", f"must not exceed max ({hi}), got {lo}")
    if kinds[0] == "param":
        target = c.text(key + ".param", doc["param"])
        index = doc.get("index")
        if index is not None:
            index = c.integer(key + ".index", index, 0)
        for extra in ("where", "column"):
            if extra in doc:
                c.fail(f"{key}.{extra}", "not used by a param variable")
        name = doc.get("name", target if index is None else f"{target}[{index}]")
        return Variable(c.text(key + ".name", name), "param", lo, hi, step, target, index)
    target = c.text(key + ".table", doc["table"])
    where = c.table(key + ".where", doc.get("where", {}))
    if not where:
        c.fail(key + ".where", "a table variable needs `where` (which rows), e.g. { name = \"Artigli\" }")
    column = c.text(key + ".column", doc.get("column"))
    if "index" in doc:
        c.fail(key + ".index", "not used by a table variable")
    name = doc.get("name", f"{'/'.join(map(str, where.values()))} {column}")
    return Variable(c.text(key + ".name", name), "table", lo, hi, step, target, None, dict(where), column)


def _targets(c: _Checker, doc: Any) -> dict:
    return parse_targets(c, doc, "targets")


def parse_tune(text: str, file: str = "tune.toml") -> TuneConfig:
    """Parse and type-check a tuning config (ruleset checks: see experiments.tune.space)."""
    c = _Checker(file)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"is not valid TOML: {exc}", file=file) from None
    c.unknown_keys(doc, TOP_KEYS)
    base_doc = {k: v for k, v in doc.items() if k in SWEEP_KEYS}
    players = base_doc.get("players", 4)
    if isinstance(players, list):
        c.fail("players", "a tuning config plays one player count, e.g. players = 4")
    # The sweep reader checks the shared keys (and names this file and the key on a mistake).
    base = parse_config(toml_text({**base_doc, "games": 1}), file)
    variables = doc.get("variables")
    if not isinstance(variables, list) or not variables:
        c.fail("variables", "no decision variables; add at least one [[variables]] with param or table, "
                            "min, max and step")
    variables = tuple(_variable(c, i, v) for i, v in enumerate(variables))
    names = [v.name for v in variables]
    for i, n in enumerate(names):
        if names.index(n) != i:
            c.fail(f"variables[{i}]", f"changes the same value as variables[{names.index(n)}] ({n!r})")
    targets = _targets(c, doc.get("targets", {}))
    flow = [t for t in targets if t in FLOW_TARGETS]
    if flow:
        if base.ruleset in GAMES and get_game(base.ruleset).standing_label is None:
            c.fail(f"targets.{flow[0]}", f"a game-flow target needs trajectories, which {base.ruleset}'s "
                                         "engines do not record yet")
    budget = c.table("budget", doc.get("budget", {}))
    c.unknown_keys(budget, BUDGET_KEYS, "budget.")
    if not budget:
        c.fail("budget", "missing: give games = N (and optionally minutes = M)")
    games = c.integer("budget.games", budget.get("games", 10**12), 1)
    minutes = budget.get("minutes")
    if minutes is not None:
        minutes = float(_number(c, "budget.minutes", minutes))
        if minutes <= 0:
            c.fail("budget.minutes", f"must be above 0, got {minutes}")
    sdoc = c.table("search", doc.get("search", {}))
    c.unknown_keys(sdoc, SEARCH_KEYS, "search.")
    d = Search()
    search = Search(first_games=c.integer("search.first_games", sdoc.get("first_games", d.first_games), 1),
                    max_games=c.integer("search.max_games", sdoc.get("max_games", d.max_games), 1),
                    eta=c.integer("search.eta", sdoc.get("eta", d.eta), 2),
                    max_changes=c.integer("search.max_changes", sdoc.get("max_changes", d.max_changes), 1),
                    beam=c.integer("search.beam", sdoc.get("beam", d.beam), 1))
    if search.max_games < search.first_games:
        c.fail("search.max_games", f"must be at least first_games ({search.first_games})")
    pdoc = c.table("proof", doc.get("proof", {}))
    c.unknown_keys(pdoc, PROOF_KEYS, "proof.")
    proof_games = c.integer("proof.games", pdoc.get("games", 2 * search.max_games), 2)
    until_decided = c.boolean("proof.until_decided", pdoc.get("until_decided", False))
    return TuneConfig(file, base, variables, targets, games, minutes, search, proof_games, until_decided, text)


def load_tune(path: str | Path) -> TuneConfig:
    """Read and type-check a tuning config file (UserError naming the file if it is missing)."""
    return parse_tune(read_config_text(path), str(path))
