"""The decision space: each variable's current value and allowed values, checked on the ruleset.

A candidate is a tuple of values, one per variable (in config order). Its ruleset is the
config's base ruleset plus parameter overrides and card-table `edits` (GameData.load), the
same mechanism a sweep's grid uses. Allowed values: current + k * step inside [min, max].
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from simcore.errors import UserError
from simcore.ruleset import Ruleset

from ..grid import _check_rows, _Loader, config_error
from .config import TuneConfig, Variable


def _clean(x: float) -> float | int:
    r = round(x, 9)
    return int(r) if float(r).is_integer() else r


@dataclass(frozen=True)
class Space:
    cfg: TuneConfig
    current: tuple                 # per variable: its value in the base ruleset
    values: tuple[tuple, ...]      # per variable: allowed values, ascending
    base_rs: Ruleset = field(repr=False, compare=False, default=None)

    def steps(self, candidate: tuple) -> tuple[int, ...]:
        """Per variable: how many steps the candidate moves it from the current value."""
        return tuple(int(round((x - c) / v.step)) for x, c, v in zip(candidate, self.current, self.cfg.variables))

    def changed(self, candidate: tuple) -> int:
        return sum(s != 0 for s in self.steps(candidate))

    def distance(self, candidate: tuple) -> int:
        return sum(abs(s) for s in self.steps(candidate))

    def moved(self, candidate: tuple, i: int, k: int) -> tuple | None:
        """The candidate with variable i moved k steps (None outside its bounds)."""
        v = self.cfg.variables[i]
        x = _clean(candidate[i] + k * v.step)
        if x not in self.values[i]:
            return None
        return candidate[:i] + (x,) + candidate[i + 1:]

    def change(self, candidate: tuple) -> tuple[dict, list]:
        """(overrides, edits) that turn the base ruleset into the candidate's."""
        cfg = self.cfg
        overrides, edits = dict(cfg.base.set), list(cfg.base.edits)
        lists: dict[str, list] = {}
        for v, x, cur in zip(cfg.variables, candidate, self.current):
            if v.kind == "param" and v.index is None:
                overrides[v.target] = x
            elif v.kind == "param":
                lists.setdefault(v.target, list(self.base_rs.params[v.target]))[v.index] = x
            else:
                edits.append({"table": v.target, "where": dict(v.where), "set": {v.column: x}})
        overrides.update(lists)
        return overrides, edits

    def diff(self, candidate: tuple) -> list[str]:
        """'Artigli strength 2 -> 3' lines for the variables the candidate changes."""
        return [f"{v.name} {_show(c)} -> {_show(x)}"
                for v, x, c in zip(self.cfg.variables, candidate, self.current) if x != c]


def _show(x) -> str:
    return str(_clean(x)) if isinstance(x, float) else str(x)


def _current(cfg: TuneConfig, rs: Ruleset, i: int, v: Variable):
    key = f"variables[{i}]"
    if v.kind == "param":
        if v.target not in rs.specs:
            close = difflib.get_close_matches(v.target, list(rs.specs), 3)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; parameters: {', '.join(sorted(rs.specs))}"
            raise UserError(f"unknown parameter {v.target!r} of {cfg.base.ruleset}{hint}", file=cfg.file,
                            key=key + ".param")
        spec = rs.specs[v.target]
        value = rs.params[v.target]
        kind = spec.item_type if spec.type == "list" else spec.type
        if spec.type == "list":
            if v.index is None:
                raise UserError(f"{v.target} is a list of {len(value)} values; say which one with index = 0.."
                                f"{len(value) - 1}", file=cfg.file, key=key + ".index")
            if v.index >= len(value):
                raise UserError(f"{v.target} has {len(value)} values; index must be 0..{len(value) - 1}",
                                file=cfg.file, key=key + ".index")
            value = value[v.index]
        elif v.index is not None:
            raise UserError(f"{v.target} is not a list parameter; drop `index`", file=cfg.file, key=key + ".index")
        if kind not in ("int", "float"):
            raise UserError(f"{v.target} is a {kind} parameter; a variable must be a number", file=cfg.file,
                            key=key + ".param")
        for bound, x in (("min", v.lo), ("max", v.hi)):
            if (spec.min is not None and x < spec.min) or (spec.max is not None and x > spec.max):
                raise UserError(f"{x} is outside {v.target}'s range [{spec.min}, {spec.max}]", file=cfg.file,
                                key=f"{key}.{bound}")
        if kind == "int" and not all(float(x).is_integer() for x in (v.lo, v.hi, v.step)):
            raise UserError(f"{v.target} takes whole numbers; give whole min, max and step", file=cfg.file,
                            key=key + ".step")
        for bound, x in (("min", v.lo), ("max", v.hi)):      # the game's own checks (e.g. the track)
            if v.index is None:
                over = {v.target: int(x) if kind == "int" else x}
            else:
                items = list(rs.params[v.target])
                items[v.index] = int(x) if kind == "int" else x
                over = {v.target: items}
            try:
                _Loader(cfg.base).load(cfg.base.variant, cfg.base.data, {**cfg.base.set, **over},
                                       list(cfg.base.edits), "base")
            except UserError as e:
                raise UserError(e.message, file=cfg.file, key=f"{key}.{bound}") from None
        return value
    loader = _Loader(cfg.base)
    _check_rows(loader, rs, v.target, v.where, key)
    rows = [r for r in rs.tables[v.target]
            if all(str(r[c]).lower() == str(w).lower() for c, w in v.where.items())]
    if v.column not in rows[0]:
        cols = ", ".join(c for c in rows[0] if c != "_row")
        raise UserError(f"unknown column {v.column!r} of table {v.target}; columns: {cols}", file=cfg.file,
                        key=key + ".column")
    values = {r[v.column] for r in rows}
    if len(values) != 1 or isinstance(rows[0][v.column], (str, bool)):
        raise UserError(f"column {v.column} of the matching rows must be one number, got {sorted(map(str, values))}",
                        file=cfg.file, key=key + ".column")
    if not all(float(x).is_integer() for x in (v.lo, v.hi, v.step)):
        raise UserError("a card-table cell takes whole numbers; give whole min, max and step", file=cfg.file,
                        key=key + ".step")
    for bound, x in (("min", v.lo), ("max", v.hi)):      # the table schema says which values are allowed
        edit = {"table": v.target, "where": dict(v.where), "set": {v.column: int(x)}}
        try:
            loader.load(cfg.base.variant, cfg.base.data, cfg.base.set, list(cfg.base.edits) + [edit], "base")
        except UserError as e:
            raise UserError(e.message, file=cfg.file, key=f"{key}.{bound}") from None
    return rows[0][v.column]


def build_space(cfg: TuneConfig) -> Space:
    """Check every variable on the base ruleset; UserError naming the config key on a mistake."""
    loader = _Loader(cfg.base)
    rs = loader.load(cfg.base.variant, cfg.base.data, cfg.base.set, list(cfg.base.edits), "base")
    current, values = [], []
    for i, v in enumerate(cfg.variables):
        cur = _current(cfg, rs, i, v)
        if not v.lo <= cur <= v.hi:
            raise UserError(f"the bounds [{_show(v.lo)}, {_show(v.hi)}] must contain the current value "
                            f"{_show(cur)}", file=cfg.file, key=f"variables[{i}].min")
        down = int((cur - v.lo) / v.step + 1e-9)
        up = int((v.hi - cur) / v.step + 1e-9)
        vals = tuple(_clean(cur + k * v.step) for k in range(-down, up + 1))
        current.append(_clean(cur))
        values.append(vals)
    return Space(cfg, tuple(current), tuple(values), rs)


def load_candidate(space: Space, candidate: tuple, loader: _Loader | None = None) -> Ruleset:
    loader = loader or _Loader(space.cfg.base)
    o, e = space.change(candidate)
    try:
        return loader.load(space.cfg.base.variant, space.cfg.base.data, o, e, "variables")
    except UserError as err:
        raise config_error(space.cfg.base, err, "variables") from None
