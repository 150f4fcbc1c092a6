"""Card tables: CSV files checked against a per-game column schema.

Every row keeps its 1-based CSV line number so an error can say exactly where it is.
"""
from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import UserError

SOURCES = ("rulebook", "inferred", "default")


@dataclass(frozen=True)
class Column:
    """One column of a card table: its type and the values it may take."""

    name: str
    kind: type = str                 # int, str or bool
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] | None = None
    required: bool = True            # False: may be absent from the file (then `default`)
    default: Any = None
    doc: str = ""


@dataclass(frozen=True)
class TableSchema:
    """The columns of one CSV table, in order; `source` is always required."""

    file: str
    columns: tuple[Column, ...]
    doc: str = ""
    key: str = "name"                # column whose values name a row (for errors, lookups)
    unique_key: bool = False         # True: no two rows may share the key
    unique: tuple[str, ...] = ()     # the columns that together name a row, when the key alone does not

    def identity(self) -> tuple[str, ...]:
        """The columns no two rows may share all of: `unique`, else the key when unique_key.
        Every table of every game has one (tests/games/test_bad_data.py)."""
        return self.unique or ((self.key,) if self.unique_key else ())

    def names(self) -> list[str]:
        return [c.name for c in self.columns]


_TRUE = {"1", "true", "yes", "y"}
_FALSE = {"0", "false", "no", "n", ""}


def _parse(col: Column, raw: str, file: str, row: int) -> Any:
    raw = raw.strip()
    if col.kind is int:
        if raw == "" and not col.required:
            return col.default
        try:
            value = int(raw)
        except ValueError:
            raise UserError(f"column '{col.name}' must be a whole number, got {raw!r}",
                            file=file, row=row) from None
        if col.min is not None and value < col.min:
            raise UserError(f"column '{col.name}' must be >= {col.min}, got {value}",
                            file=file, row=row)
        if col.max is not None and value > col.max:
            raise UserError(f"column '{col.name}' must be <= {col.max}, got {value}",
                            file=file, row=row)
        return value
    if col.kind is bool:
        low = raw.lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise UserError(f"column '{col.name}' must be 0/1 (or true/false), got {raw!r}",
                        file=file, row=row)
    if raw == "" and col.default is not None:
        return col.default
    if col.choices is not None and raw not in col.choices:
        raise UserError(f"column '{col.name}' has unknown value {raw!r}; expected one of: "
                        + ", ".join(col.choices), file=file, row=row)
    if col.required and raw == "" and col.choices is None and col.name != "text":
        raise UserError(f"column '{col.name}' must not be empty", file=file, row=row)
    return raw


def read_table(path: Path, schema: TableSchema) -> tuple[dict, ...]:
    """Read and check one CSV table; rows are dicts with typed values and a `_row` number.

    Raises the first problem (in file order) as a UserError; check_table lists them all.
    """
    problems: list[UserError] = []
    rows = _read(path, schema, problems)
    if problems:
        raise problems[0]
    return rows


def check_table(path: Path, schema: TableSchema) -> list[UserError]:
    """Every problem of one CSV table, in file order (empty: the table is valid)."""
    problems: list[UserError] = []
    _read(path, schema, problems)
    return problems


def _swallowed_rows(cell: str | None, columns: int) -> bool:
    """A cell that holds whole later rows (a line with a full row's commas): the mark of an
    unbalanced quote, not of a quoted text that spans lines."""
    return bool(cell) and any(line.count(",") >= columns - 1 for line in cell.splitlines()[1:])


def _read(path: Path, schema: TableSchema, problems: list[UserError]) -> tuple[dict, ...]:
    """The rows that could be read; every problem met is appended to `problems` (reading goes on
    past a bad cell or row, and stops only when the file itself cannot be read)."""
    file = str(path)
    rows: list[dict] = []
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            known = set(schema.names())
            for name in header:
                if name not in known:
                    problems.append(UserError(f"unknown column '{name}'; expected columns: "
                                              + ", ".join(schema.names()), file=file, row=1))
            for col in schema.columns:
                if col.required and col.name not in header:
                    problems.append(UserError(f"missing column '{col.name}' ({col.doc or col.kind.__name__})",
                                              file=file, row=1))
            end = reader.line_num                    # the physical line the last record ended on
            for raw_row in reader:
                line_no, end = end + 1, reader.line_num
                if None in raw_row:
                    problems.append(UserError("more fields than the header has columns", file=file, row=line_no))
                    continue
                if end > line_no and any(_swallowed_rows(v, len(header)) for v in raw_row.values()):
                    # csv reads an unclosed quote's cell on to the next quote, over later rows
                    problems.append(UserError(f'a quoted cell runs from here over {end - line_no} more lines: '
                                              'an unbalanced " (a closing quote is missing)', file=file, row=line_no))
                    continue
                row: dict[str, Any] = {"_row": line_no}
                for col in schema.columns:
                    raw = raw_row.get(col.name)
                    if raw is None:
                        row[col.name] = col.default
                        continue
                    try:
                        row[col.name] = _parse(col, raw, file, line_no)
                    except UserError as e:
                        problems.append(e)
                        row[col.name] = col.default
                rows.append(row)
    except FileNotFoundError:
        problems.append(UserError(f"missing table file (expected {schema.file})", file=file))
        return ()
    except IsADirectoryError:
        problems.append(UserError(f"is a folder; expected the CSV table {schema.file}", file=file))
        return ()
    except UnicodeDecodeError:
        problems.append(UserError("is not UTF-8 text", file=file))
        return ()
    except csv.Error as exc:
        problems.append(UserError(f"is not valid CSV: {exc}", file=file))
        return ()
    except OSError as exc:
        problems.append(UserError(f"cannot be read: {exc.strerror}", file=file))
        return ()
    if not rows and not problems:
        problems.append(UserError("has no rows", file=file))
    ident = schema.identity()
    if ident and set(ident) <= set(schema.names()):
        seen: dict = {}
        named = " and ".join(ident)
        for row in rows:
            k = tuple(row[c] for c in ident)
            if k in seen:
                shown = k[0] if len(k) == 1 else k
                problems.append(UserError(f"duplicate {named} {shown!r} (also on row {seen[k]}); each row needs its "
                                          f"own {named}" + (" (use `copies` for several identical cards)"
                                                            if "copies" in schema.names() else ""),
                                          file=file, row=row["_row"]))
            else:
                seen[k] = row["_row"]
    return tuple(rows)


def source_column() -> Column:
    return Column("source", str, choices=SOURCES,
                  doc="where the fact comes from: rulebook, inferred or default")
