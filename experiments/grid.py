"""Expand a checked config into experiment points, in a fixed order, checking every ruleset.

Order: replicate, then the grid axes in file order (itertools.product: the last axis
varies fastest), then player count, then bot line-up. Ablation points (one per base point
and ablated entity) follow all base points. Every point plays game indices 0..games-1 of
its replicate's seed, so two points differ only by what the grid changed (common random
numbers): per-game differences between points are paired.
"""
from __future__ import annotations

import difflib
import itertools
import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simcore.errors import UserError
from simcore.games import get_game
from simcore.ruleset import Ruleset
from simcore.runner import RunSpec

from .lineup import run_spec
from .restricted import restricted_lineups

from .config import MAX_POINTS, Axis, SweepConfig


@dataclass(frozen=True)
class Point:
    """One experiment point: a ruleset and a line-up, played for `games` games."""

    index: int
    labels: dict                  # axis name -> value label (plus players, bots, replicate)
    variant: str
    data: str | None
    overrides: dict
    edits: tuple
    spec: RunSpec = field(repr=False)
    replicate: int = 0
    ablated: str | None = None    # entity knocked out (or removed/replaced) at this point
    ablation_kind: str | None = None   # knockout | removal (None at a base point)
    base: int | None = None       # the base point it is paired with
    track: tuple[int, ...] = ()   # entity ids whose per-game acquisition is recorded
    tracked: dict = field(default_factory=dict)   # ablated entity name -> its entity ids

    @property
    def ruleset(self) -> Ruleset:
        return self.spec.ruleset

    def describe(self) -> dict:
        """JSON-ready description for the manifest."""
        rs = self.ruleset
        return {"index": self.index, "labels": self.labels, "variant": self.variant, "data": self.data,
                "overrides": self.overrides, "edits": list(self.edits), "players": self.spec.players,
                "bots": [b.name for b in self.spec.bots],
                "factions": None if self.spec.factions is None else list(self.spec.factions),
                "seed": self.spec.seed, "replicate": self.replicate, "ablated": self.ablated,
                "ablation_kind": self.ablation_kind,
                "base": self.base, "track": list(self.track),
                "tracked": {k: list(v) for k, v in self.tracked.items()}, "ruleset": rs.game,
                "ruleset_hash": rs.hash}


def replicate_seeds(seed: int, replicates: int) -> list[int]:
    """The run seed itself for one replicate; else independent seeds from SeedSequence.spawn."""
    if replicates == 1:
        return [seed]
    children = np.random.SeedSequence(seed).spawn(replicates)
    return [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in children]


def lineups(cfg: SweepConfig, players: int, game, bots: tuple | None = None) -> list[tuple[str, ...]]:
    """Bot line-ups for one player count (every distinct permutation if asked); `bots`: a bots axis value."""
    bots = bots or cfg.bots or (game.default_bot,)
    if len(bots) == 1:
        return [tuple(bots) * players]
    if len(bots) != players:
        raise UserError(f"gives {len(bots)} bots (one per seat) but players = {players}; give one bot "
                        "for all seats or one per seat", file=cfg.file, key="bots")
    if not cfg.bot_permutations:
        return [tuple(bots)]
    return list(dict.fromkeys(itertools.permutations(bots)))


class _Loader:
    """Loads rulesets once per distinct setting and turns their errors into config errors."""

    def __init__(self, cfg: SweepConfig):
        self.cfg = cfg
        self.game = get_game_for(cfg)
        self.cache: dict[str, Ruleset] = {}

    def load(self, variant: str, data: str | None, overrides: dict, edits: list, key: str) -> Ruleset:
        sig = json.dumps([variant, data, overrides, edits], sort_keys=True, default=str)
        if sig not in self.cache:
            try:
                self.cache[sig] = self.game.data.load(variant, data_dir=data, overrides=overrides, edits=edits)
            except UserError as e:
                raise config_error(self.cfg, e, key) from None
        return self.cache[sig]


def get_game_for(cfg: SweepConfig):
    try:
        return get_game(cfg.ruleset)
    except UserError as e:
        raise UserError(e.message, file=cfg.file, key="ruleset") from None


def _base_key(cfg: SweepConfig, e: UserError) -> str:
    """The config key behind an error in the config's own ruleset settings."""
    if e.key == "variant":
        return "variant"
    if e.key and e.key.startswith("edits["):
        return e.key.split(".")[0]
    if e.key in cfg.set or (e.key and not e.file):
        return f"set.{e.key}" if e.key in cfg.set else "set"
    return "data" if cfg.data else "ruleset"


def config_error(cfg: SweepConfig, e: UserError, key: str) -> UserError:
    """Re-address a ruleset error to the config key that caused it (keeping its data-file origin)."""
    if key == "base":
        key = _base_key(cfg, e)
    where = ""
    if e.file is not None and e.file != cfg.file:
        where = f" (in {e.file}" + (f", row {e.row}" if e.row else "") + ")"
    detail = f"{e.key}: " if e.key and not key.endswith(e.key) and not e.key.startswith("edits[") else ""
    return UserError(f"{detail}{e.message}{where}", file=cfg.file, key=key)


def _axis_change(axis: Axis, value: Any) -> tuple[dict, list, str | None, str | None]:
    """(overrides, edits, variant, data) that one axis value contributes."""
    if axis.kind == "param":
        return {axis.target: value}, [], None, None
    if axis.kind == "table":
        return {}, [{"table": axis.target, "where": axis.where, "set": {axis.column: value}}], None, None
    if axis.kind == "variants":
        return {}, [], value, None
    if axis.kind == "edits":
        return {}, [dict(e) for e in value], None, None
    if axis.kind == "bots":
        return {}, [], None, None           # who plays: the point's line-up, not its ruleset
    return {}, [], None, value


def _check_axis(loader: _Loader, i: int, axis: Axis) -> None:
    """Load the base ruleset with each value of one axis, so an error names that value."""
    cfg = loader.cfg
    base = loader.load(cfg.variant, cfg.data, cfg.set, list(cfg.edits), "base")
    key = f"grid[{i}]"
    if axis.kind == "param" and axis.target not in base.specs:
        close = difflib.get_close_matches(axis.target, list(base.specs), 3)
        hint = f"; did you mean {', '.join(close)}?" if close else f"; parameters: {', '.join(sorted(base.specs))}"
        raise UserError(f"unknown parameter {axis.target!r} of {cfg.ruleset}{hint}", file=cfg.file, key=key + ".param")
    if axis.kind == "table":
        _check_rows(loader, base, axis.target, axis.where, key)
    if axis.kind == "bots":
        return                  # checked with each point's line-up (_spec)
    field_name = {"param": "values", "table": "values", "variants": "variants", "data": "data",
                  "edits": "edits"}[axis.kind]
    for j, value in enumerate(axis.values):
        o, e, v, d = _axis_change(axis, value)
        loader.load(v or cfg.variant, d or cfg.data, {**cfg.set, **o}, list(cfg.edits) + e,
                    f"{key}.{field_name}[{j}]")


def _check_rows(loader: _Loader, rs: Ruleset, table: str, where: dict, key: str) -> None:
    """A clear error for an unknown table, column or row (e.g. a misspelt card name)."""
    cfg = loader.cfg
    if table not in rs.tables:
        raise UserError(f"unknown table {table!r}; tables: {', '.join(rs.tables)}", file=cfg.file,
                        key=key + ".table")
    rows = rs.tables[table]
    for col, want in where.items():
        if col not in rows[0]:
            raise UserError(f"unknown column {col!r} of table {table}; columns: "
                            + ", ".join(c for c in rows[0] if c != "_row"), file=cfg.file, key=key + ".where")
        known = list(dict.fromkeys(str(r[col]) for r in rows))
        if str(want).lower() not in {k.lower() for k in known}:
            close = difflib.get_close_matches(str(want), known, 3)
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            raise UserError(f"no {table} row has {col} = {want!r}{hint}", file=cfg.file, key=key + ".where")


def ablation_target(cfg: SweepConfig, game) -> tuple[str, str]:
    """(table, name column) whose rows the ablation edits; for a knockout, the game's own choice."""
    a = cfg.ablation
    if a.kind != "knockout":
        return a.table, a.column
    targets = dict(getattr(game, "knockout_targets", None) or {})
    kind = a.entity_kind or game.entity_kind
    if kind not in targets:
        has = ", ".join(sorted(targets)) or "none yet"
        key = "ablation.entity_kind" if a.entity_kind else "ablation.kind"
        raise UserError(f"{cfg.ruleset} cannot knock out a {kind}: the kinds it can knock out are: {has}"
                        + ("" if targets else "; use kind = \"removal\" to edit the card table instead"),
                        file=cfg.file, key=key)
    return targets[kind]


def _ablation_edit(cfg: SweepConfig, target: tuple[str, str], entity: str) -> dict:
    return {"table": target[0], "where": {target[1]: entity}, "set": dict(cfg.ablation.set)}


def _entity_ids(game, rs: Ruleset, entity: str) -> tuple[int, ...]:
    names = game.entities(rs)
    return tuple(i for i, n in enumerate(names) if str(n).lower() == entity.lower())


def expand(cfg: SweepConfig) -> list[Point]:
    """All points of a config, in the fixed order; UserError (file + key) on any bad value."""
    loader = _Loader(cfg)
    game = loader.game
    loader.load(cfg.variant, cfg.data, cfg.set, list(cfg.edits), "base")
    for i, axis in enumerate(cfg.grid):
        _check_axis(loader, i, axis)
    abl = cfg.ablation
    target = None if abl is None else ablation_target(cfg, game)
    entities: tuple[str, ...] = ()
    if abl is not None:
        base_rs = loader.load(cfg.variant, cfg.data, cfg.set, list(cfg.edits), "base")
        if abl.where:
            _check_rows(loader, base_rs, target[0], abl.where, "ablation")
        entities = abl.entities or tuple(dict.fromkeys(
            str(r[target[1]]) for r in base_rs.tables[target[0]]
            if all(str(r.get(k)).lower() == str(v).lower() for k, v in abl.where.items())))
        for k, entity in enumerate(entities):
            try:
                _check_rows(loader, base_rs, target[0], {target[1]: entity}, "ablation")
            except UserError as e:
                raise UserError(e.message, file=cfg.file, key=f"ablation.entities[{k}]") from None
        # The flags that say, game by game, whether the entity played any part (pairing checks).
        tallied = abl.kind == "removal" or (abl.entity_kind or game.entity_kind) == game.entity_kind
    points: list[Point] = []
    planned = cfg.replicates * len(cfg.players) * (1 + (len(abl.entities) if abl is not None else 0))
    for axis in cfg.grid:
        planned *= len(axis.values)
    if planned > MAX_POINTS:
        raise UserError(f"the grid makes {planned:,} points (replicates x axis values x player counts x "
                        f"ablations), more than the {MAX_POINTS:,} a sweep may hold; split it into smaller "
                        "sweeps", file=cfg.file, key="grid")
    combos = list(itertools.product(*[list(zip(a.values, a.labels)) for a in cfg.grid]))
    for rep, seed in enumerate(replicate_seeds(cfg.seed, cfg.replicates)):
        for combo in combos:
            overrides, edits = dict(cfg.set), list(cfg.edits)
            variant, data, labels, bots = cfg.variant, cfg.data, {}, None
            for axis, (value, label) in zip(cfg.grid, combo):
                bots = value if axis.kind == "bots" else bots
                o, e, v, d = _axis_change(axis, value)
                overrides.update(o)
                edits += e
                variant, data = v or variant, d or data
                labels[axis.name] = label
            where = ", ".join(f"{k} = {v}" for k, v in labels.items()) or "base"
            rs = loader.load(variant, data, overrides, edits, "grid")
            for players in cfg.players:
                line_ups = restricted_lineups(cfg, game, rs, players) if cfg.restricted else \
                    lineups(cfg, players, game, bots)
                for lineup in line_ups:
                    spec = _spec(cfg, rs, lineup, players, seed, where)
                    tracked = {} if abl is None or not tallied else \
                        {ent: _entity_ids(game, rs, ent) for ent in entities}
                    # Every entity's per-seat flags: the adjusted association and the per-bot tables need them.
                    track = tuple(range(len(game.entities(rs))))
                    full = {**labels, "players": str(players), "bots": ",".join(lineup)}
                    if cfg.replicates > 1:
                        full["replicate"] = str(rep)
                    points.append(Point(len(points), full, variant, data, overrides, tuple(edits), spec,
                                        rep, track=track, tracked=tracked))
    if abl is not None:
        bases = list(points)
        if abl.at == "reference":     # only the points that play the config's own rules (else the first)
            bases = [p for p in bases if p.spec.ruleset.hash == base_rs.hash] or bases[:1]
        for base in bases:
            for k, entity in enumerate(entities):
                edits = list(base.edits) + [_ablation_edit(cfg, target, entity)]
                try:
                    rs = loader.load(base.variant, base.data, base.overrides, edits, f"ablation.entities[{k}]")
                except UserError as e:
                    hint = ("; to test a card that cannot be removed, knock it out instead (kind = \"knockout\", "
                            "the default)") if abl.kind == "removal" else ""
                    raise UserError(e.message + hint, file=e.file, key=e.key) from None
                spec = RunSpec(rs, base.spec.players, base.spec.bots, base.spec.seed, base.spec.factions,
                               base.spec.trajectories)
                points.append(Point(len(points), {**base.labels, "ablation": entity}, base.variant, base.data,
                                    base.overrides, tuple(edits), spec, base.replicate, ablated=entity,
                                    ablation_kind=abl.kind, base=base.index,
                                    track=tuple(range(len(game.entities(rs)))), tracked=base.tracked))
    return points


def _spec(cfg: SweepConfig, rs: Ruleset, lineup, players: int, seed: int, where: str) -> RunSpec:
    factions = cfg.factions
    if factions is not None and len(factions) == 1 and players > 1:
        factions = factions * players
    try:
        return run_spec(rs, list(lineup), players, factions, seed, cfg.trajectories)
    except UserError as e:
        key = {"players": "players", "bots": "bots", "trajectories": "trajectories", "seed": "seed"}.get(e.key or "", "factions")
        raise UserError(f"{e.message} (at point {where})", file=cfg.file, key=key) from None
