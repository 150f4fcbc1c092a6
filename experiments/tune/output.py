"""What the designer gets: the diff, a data folder of only the changed files, rows, the report."""
from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import polars as pl

from .. import store
from ..config import _toml_value
from .evaluate import candidate_id
from .search import Outcome
from .space import Space


def data_folder(space: Space, winner: tuple, folder: Path) -> list[str]:
    """Write only the files the proposal changes (params.toml, card tables) for `--data`."""
    cfg = space.cfg
    rs = space.base_rs
    game = rs.game
    written = []
    params = {}
    for v, x, cur in zip(cfg.variables, winner, space.current):
        if x == cur or v.kind != "param":
            continue
        if v.index is None:
            params[v.target] = x
        else:
            params.setdefault(v.target, list(rs.params[v.target]))[v.index] = x
    if params:
        lines = ["# Written by `balancelab tune`: only the parameters the proposal changes.",
                 f"[game]\nname = {_toml_value(game)}\n"]
        for name, value in params.items():
            lines.append(f"[params.{name}]\nvalue = {_toml_value(value)}\nsource = \"default\"\n")
        store.write_text(folder / "params.toml", "\n".join(lines))
        written.append("params.toml")
    tables: dict[str, list] = {}
    for v, x, cur in zip(cfg.variables, winner, space.current):
        if x != cur and v.kind == "table":
            tables.setdefault(v.target, []).append((v.where, v.column, x))
    for tname in tables:
        # The config's own `edits` of that table first, so the file holds everything the proposal plays.
        base = [(e.get("where", {}), col, x) for e in cfg.base.edits if e.get("table") == tname
                for col, x in e.get("set", {}).items()]
        changes = base + tables[tname]
        src = Path(rs.files[tname])
        text = src.read_text(encoding="utf-8")
        rows = list(csv.reader(io.StringIO(text)))
        header = rows[0]
        for where, column, x in changes:
            col = header.index(column)
            for row in rows[1:]:
                if row and all(str(row[header.index(c)]).strip().lower() == str(w).lower() for c, w in where.items()):
                    row[col] = str(int(x) if isinstance(x, (int, float)) and float(x).is_integer() else x)
                    _mark_changed(header, row, column)
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows)
        store.write_text(folder / src.name, buf.getvalue())
        written.append(src.name)
    return written


def _mark_changed(header: list, row: list, column: str) -> None:
    """The changed value is ours now: drop it from the row's `printed` (rulebook) columns."""
    if "printed" in header:
        p = header.index("printed")
        printed = [c for c in row[p].split(";") if c]
        if column in printed:
            row[p] = ";".join(c for c in printed if c != column)
    elif "source" in header:
        row[header.index("source")] = "default"


def evaluation_rows(space: Space, outcome: Outcome) -> pl.DataFrame:
    names = [v.name for v in space.cfg.variables]
    rows = []
    for r in outcome.records:
        row = {"candidate": candidate_id(r.candidate), "stage": r.stage, "rung": r.rung, "games": r.games,
               "changes": r.changes, "distance": r.distance, "shortfall": r.shortfall, "met": r.met,
               "diff": "; ".join(space.diff(r.candidate)) or "(no change)"}
        row.update({f"var:{n}": float(x) for n, x in zip(names, r.candidate)})
        for t, (est, lo, hi) in r.values.items():
            row.update({t: est, f"{t}_low": lo, f"{t}_high": hi})
        rows.append(row)
    return pl.DataFrame(rows, infer_schema_length=None)


def jsonable(x):
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if isinstance(x, float) and not math.isfinite(x):
        return None
    return x
