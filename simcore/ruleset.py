"""Rulesets: rule parameters (TOML) + card tables (CSV) + named variants (overlays).

Layout of a game's data folder (the same for every game):

    params.toml          [game] metadata and one [params.NAME] table per rule number:
                         value, type (int|float|bool|str|list), min, max, choices, source, doc
    <table>.csv          card tables, checked against the game's TableSchema
    variants/<name>.toml a named overlay: `description` and a [params] table of new values

A designer's folder (`--data DIR`) may hold any subset of these files; each file it holds
replaces the built-in one. `--set name=value` overrides one parameter. The loaded Ruleset
is frozen and carries a stable content hash: the same data always gives the same hash.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
import difflib
from types import MappingProxyType
from typing import Any, Mapping

from .errors import UserError
from .tables import SOURCES, TableSchema, read_table

PARAM_TYPES = {"int": int, "float": float, "bool": bool, "str": str, "list": list}
PARAM_KEYS = {"value", "type", "min", "max", "choices", "source", "doc", "item_type"}


@dataclass(frozen=True)
class Param:
    """One named rule number with its bounds and where it comes from."""

    name: str
    value: Any
    type: str
    source: str
    doc: str = ""
    min: float | None = None
    max: float | None = None
    choices: tuple | None = None
    item_type: str = "int"           # for lists: the type of each item


@dataclass(frozen=True)
class Ruleset:
    """A loaded, checked, immutable ruleset: what one experiment point plays with."""

    game: str
    variant: str
    params: Mapping[str, Any]        # name -> value (after variant and overrides)
    specs: Mapping[str, Param]       # name -> Param (value there = the resolved value)
    tables: Mapping[str, tuple]      # table name -> rows (dicts; `_row` = CSV line)
    files: Mapping[str, str]         # table/params name -> path actually read
    hash: str                        # sha256 of the canonical content, 16 hex digits
    variants: tuple[str, ...] = ()
    overrides: Mapping[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        return f"{self.game}/{self.variant}"

    def __getitem__(self, name: str) -> Any:
        return self.params[name]

    def table(self, name: str) -> tuple:
        return self.tables[name]

    def __reduce__(self):
        # Mapping proxies do not pickle; rebuild them (worker processes receive rulesets).
        return (_rebuild, (self.game, self.variant, dict(self.params), dict(self.specs),
                           dict(self.tables), dict(self.files), self.hash, self.variants,
                           dict(self.overrides)))

    def defaults_used(self) -> list[str]:
        """Names of parameters whose value is our own `default`, not a rulebook fact."""
        return [n for n, p in self.specs.items() if p.source == "default"]


def _rebuild(game, variant, params, specs, tables, files, digest, variants, overrides) -> Ruleset:
    return Ruleset(game=game, variant=variant, params=MappingProxyType(params),
                   specs=MappingProxyType(specs), tables=MappingProxyType(tables),
                   files=MappingProxyType(files), hash=digest, variants=variants,
                   overrides=MappingProxyType(overrides))


def _check_value(p: Param, value: Any, where: dict) -> Any:
    """Coerce and range-check `value` for parameter p; raise a UserError naming the key."""
    def fail(msg):
        raise UserError(msg, key=p.name, **where)

    def one(v, typ):
        if typ == "int":
            if isinstance(v, bool) or not isinstance(v, int):
                fail(f"must be a whole number, got {v!r}")
        elif typ == "float":
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                fail(f"must be a number, got {v!r}")
            v = float(v)
        elif typ == "bool":
            if not isinstance(v, bool):
                fail(f"must be true or false, got {v!r}")
        elif typ == "str":
            if not isinstance(v, str):
                fail(f"must be text, got {v!r}")
        if typ in ("int", "float"):
            if p.min is not None and v < p.min:
                fail(f"must be >= {p.min}, got {v}")
            if p.max is not None and v > p.max:
                fail(f"must be <= {p.max}, got {v}")
        if p.choices is not None and v not in p.choices:
            fail(f"must be one of {list(p.choices)}, got {v!r}")
        return v

    if p.type == "list":
        if not isinstance(value, (list, tuple)):
            fail(f"must be a list of {p.item_type}, got {value!r}")
        return tuple(one(v, p.item_type) for v in value)
    return one(value, p.type)


def read_toml(path: Path, what: str = "file") -> dict:
    """A TOML file as a dict; every way it can fail is a UserError naming the file."""
    file = str(path)
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"missing {what}", file=file) from None
    except IsADirectoryError:
        raise UserError(f"is a folder; expected a {what}", file=file) from None
    except UnicodeDecodeError:
        raise UserError("is not UTF-8 text", file=file) from None
    except OSError as exc:
        raise UserError(f"cannot be read: {exc.strerror}", file=file) from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"is not valid TOML: {exc}", file=file) from None


def _table(doc: dict, key: str, file: str) -> dict:
    value = doc.get(key, {})
    if not isinstance(value, dict):
        raise UserError(f"must be a table ([{key}]), got {value!r}", file=file, key=key)
    return value


def _read_params_file(path: Path) -> dict:
    """A params.toml as a dict holding only [game] and [params.*]."""
    doc = read_toml(path, "parameter file params.toml")
    unknown = set(doc) - {"game", "params"}
    if unknown:
        raise UserError(f"unknown top-level table(s) {sorted(unknown)}; expected [game] and [params.*]",
                        file=str(path), key=sorted(unknown)[0])
    return doc


def parse_params(path: Path) -> tuple[dict, dict[str, Param]]:
    """Read a game's built-in params.toml: ([game] metadata, {name: Param})."""
    file = str(path)
    doc = _read_params_file(path)
    _table(doc, "game", file)
    specs: dict[str, Param] = {}
    for name, spec in _table(doc, "params", file).items():
        if not isinstance(spec, dict) or "value" not in spec:
            raise UserError("each parameter needs a table with at least `value`, `type` and `source`",
                            file=file, key=f"params.{name}")
        bad = set(spec) - PARAM_KEYS
        if bad:
            raise UserError(f"unknown field(s) {sorted(bad)}; expected {sorted(PARAM_KEYS)}",
                            file=file, key=f"params.{name}")
        typ = spec.get("type", "int")
        if typ not in PARAM_TYPES:
            raise UserError(f"type must be one of {list(PARAM_TYPES)}, got {typ!r}",
                            file=file, key=f"params.{name}.type")
        source = spec.get("source")
        if source not in SOURCES:
            raise UserError(f"source must be one of {list(SOURCES)}, got {source!r}",
                            file=file, key=f"params.{name}.source")
        for bound in ("min", "max"):
            b = spec.get(bound)
            if b is not None and (isinstance(b, bool) or not isinstance(b, (int, float))):
                raise UserError(f"must be a number, got {b!r}", file=file, key=f"params.{name}.{bound}")
        if "choices" in spec and not isinstance(spec["choices"], list):
            raise UserError(f"must be a list, got {spec['choices']!r}", file=file, key=f"params.{name}.choices")
        if spec.get("item_type", "int") not in ("int", "float", "bool", "str"):
            raise UserError(f"must be int, float, bool or str, got {spec.get('item_type')!r}",
                            file=file, key=f"params.{name}.item_type")
        if not isinstance(spec.get("doc", ""), str):
            raise UserError("must be text", file=file, key=f"params.{name}.doc")
        p = Param(name=name, value=None, type=typ, source=source, doc=spec.get("doc", ""),
                  min=spec.get("min"), max=spec.get("max"),
                  choices=tuple(spec["choices"]) if "choices" in spec else None,
                  item_type=spec.get("item_type", "int"))
        value = _check_value(p, spec["value"], {"file": file})
        specs[name] = Param(**{**p.__dict__, "value": value})
    return doc.get("game", {}), specs


def unknown_parameter(name: str, specs) -> str:
    """'unknown parameter' with the closest known name, or all of them when none is close."""
    close = difflib.get_close_matches(str(name), list(specs), n=3)
    if close:
        return f"unknown parameter; did you mean {', '.join(close)}?"
    return f"unknown parameter; known parameters: {', '.join(sorted(specs))}"


def overlay_params(path: Path, specs: dict[str, Param], game: str) -> dict[str, Param]:
    """A designer's params.toml over the built-in parameters.

    It may set the value (and the source) of any known parameter, as a table like the
    built-in file's (`[params.track_length]` with `value = 14`) or as a bare value
    (`track_length = 14` under [params]); other fields of a copied table (type, min, max,
    doc) are ignored: the built-in bounds always apply. Parameters it leaves out keep their
    built-in values. An unknown name is an error.
    """
    file = str(path)
    doc = _read_params_file(path)
    name_in_file = _table(doc, "game", file).get("name", game)
    if name_in_file != game:
        raise UserError(f"is for ruleset {name_in_file!r}, not {game!r}", file=file, key="game.name")
    out = dict(specs)
    for name, spec in _table(doc, "params", file).items():
        if name not in specs:
            raise UserError(unknown_parameter(name, specs), file=file, key=f"params.{name}")
        if isinstance(spec, dict):
            bad = set(spec) - PARAM_KEYS
            if bad:
                raise UserError(f"unknown field(s) {sorted(bad)}; expected value and source",
                                file=file, key=f"params.{name}")
            if "value" not in spec:
                raise UserError("needs a `value`", file=file, key=f"params.{name}")
            source = spec.get("source", specs[name].source)
            if source not in SOURCES:
                raise UserError(f"source must be one of {list(SOURCES)}, got {source!r}",
                                file=file, key=f"params.{name}.source")
            value = spec["value"]
        else:
            source, value = specs[name].source, spec
        value = _check_value(specs[name], value, {"file": file})
        out[name] = Param(**{**specs[name].__dict__, "value": value, "source": source})
    return out


def parse_override(specs: Mapping[str, Param], text: str) -> tuple[str, Any]:
    """Parse one `name=value` override (from --set) into (name, typed value)."""
    if "=" not in text:
        raise UserError(f"--set expects name=value, got {text!r}")
    name, raw = (s.strip() for s in text.split("=", 1))
    if name not in specs:
        raise UserError(unknown_parameter(name, specs), key=name)
    p = specs[name]
    try:
        value = tomllib.loads(f"v = {raw}")["v"]
    except tomllib.TOMLDecodeError:
        value = raw  # bare words are text
    if p.type == "list" and not isinstance(value, list):
        value = [value]
    return name, value


def _canonical(obj: Any) -> Any:
    if isinstance(obj, Mapping):
        return {k: _canonical(v) for k, v in sorted(obj.items()) if k != "_row"}
    if isinstance(obj, (list, tuple)):
        return [_canonical(v) for v in obj]
    return obj


class GameData:
    """What a game package declares about its data: folder, table schemas, player range."""

    def __init__(self, name: str, data_dir: Path, schemas: Mapping[str, TableSchema],
                 validate=None):
        self.name = name
        self.data_dir = Path(data_dir)
        self.schemas = dict(schemas)
        self.validate = validate      # validate(ruleset) -> None, raises UserError

    def variant_names(self, data_dir: Path | None = None) -> list[str]:
        names = {"default"}
        for folder in (self.data_dir, data_dir):
            if folder is not None and (Path(folder) / "variants").is_dir():
                names |= {p.stem for p in (Path(folder) / "variants").glob("*.toml")}
        return sorted(names)

    def _pick(self, data_dir: Path | None, rel: str) -> Path:
        if data_dir is not None and (Path(data_dir) / rel).exists():
            return Path(data_dir) / rel
        return self.data_dir / rel

    def load(self, variant: str = "default", data_dir: str | Path | None = None,
             overrides: Mapping[str, Any] | list[str] | None = None,
             edits: list[Mapping[str, Any]] | None = None) -> Ruleset:
        """Load, overlay and check a ruleset. Raises UserError for any bad input.

        `edits` change card tables without a new data folder, each
        {"table": NAME, "where": {column: value, ...}, "set": {column: value, ...}}:
        every row matching all `where` values gets the `set` values (checked against the
        table's schema). An edit that matches no row is an error (a misspelt card name).
        """
        if data_dir is not None:
            data_dir = Path(data_dir)
            if not data_dir.is_dir():
                raise UserError("data folder does not exist or is not a folder", file=str(data_dir))
            known = {"params.toml", "variants"} | {s.file for s in self.schemas.values()}
            for p in data_dir.iterdir():
                if p.name not in known and not p.name.startswith(".") and p.suffix in (".csv", ".toml"):
                    raise UserError(f"unknown data file; expected some of: {', '.join(sorted(known))}",
                                    file=str(p))
            if not any((data_dir / f).exists() for f in known):
                raise UserError(f"holds none of {self.name}'s data files (expected some of: "
                                f"{', '.join(sorted(known))}); to play the built-in data, leave out --data",
                                file=str(data_dir))
        params_path = self._pick(data_dir, "params.toml")
        meta, specs = parse_params(self.data_dir / "params.toml")
        if params_path != self.data_dir / "params.toml":
            specs = overlay_params(params_path, specs, self.name)
        files = {"params": str(params_path)}
        variants = self.variant_names(data_dir)
        if variant not in variants:
            close = difflib.get_close_matches(str(variant), variants, n=1)
            raise UserError(f"unknown variant {variant!r} of {self.name}; known variants: " + ", ".join(variants)
                            + (f"; did you mean {close[0]!r}?" if close else ""), key="variant")
        values = {n: p.value for n, p in specs.items()}
        if variant != "default":
            vpath = self._pick(data_dir, f"variants/{variant}.toml")
            files["variant"] = str(vpath)
            vdoc = read_toml(vpath, "variant file")
            bad = set(vdoc) - {"description", "params"}
            if bad:
                raise UserError(f"unknown key(s) {sorted(bad)}; expected description and [params]",
                                file=str(vpath), key=sorted(bad)[0])
            for name, value in _table(vdoc, "params", str(vpath)).items():
                if name not in specs:
                    raise UserError("unknown parameter in variant", file=str(vpath), key=name)
                values[name] = _check_value(specs[name], value, {"file": str(vpath)})
        if isinstance(overrides, list):
            overrides = dict(parse_override(specs, o) for o in overrides)
        overrides = dict(overrides or {})
        for name, value in overrides.items():
            if name not in specs:
                raise UserError(unknown_parameter(name, specs), key=name)
            values[name] = _check_value(specs[name], value, {})
        resolved = {n: Param(**{**p.__dict__, "value": values[n]}) for n, p in specs.items()}
        tables = {}
        for tname, schema in self.schemas.items():
            path = self._pick(data_dir, schema.file)
            files[tname] = str(path)
            tables[tname] = read_table(path, schema)
        for i, edit in enumerate(edits or []):
            tables = apply_edit(tables, self.schemas, edit, f"edits[{i}]")
        content = {"game": self.name, "variant": variant, "params": values, "tables": tables}
        digest = hashlib.sha256(json.dumps(_canonical(content), sort_keys=True,
                                           default=str).encode()).hexdigest()[:16]
        rs = Ruleset(game=self.name, variant=variant, params=MappingProxyType(values),
                     specs=MappingProxyType(resolved), tables=MappingProxyType(tables),
                     files=MappingProxyType(files), hash=digest, variants=tuple(variants),
                     overrides=MappingProxyType(overrides))
        if self.validate is not None:
            self.validate(rs)
        return rs


def apply_edit(tables: dict, schemas: Mapping[str, TableSchema], edit: Mapping[str, Any], where: str) -> dict:
    """Apply one table edit (see GameData.load); return the new tables dict."""
    from .tables import _parse
    bad = set(edit) - {"table", "where", "set"}
    if bad:
        raise UserError(f"unknown field(s) {sorted(bad)}; an edit has table, where and set", key=where)
    tname = edit.get("table")
    if tname not in schemas:
        raise UserError(f"unknown table {tname!r}; tables: {', '.join(schemas)}", key=f"{where}.table")
    schema = schemas[tname]
    cols = {c.name: c for c in schema.columns}
    for part in ("where", "set"):
        if not isinstance(edit.get(part, {}), Mapping):
            raise UserError(f"`{part}` must be a table of column = value, got {edit.get(part)!r}",
                            key=f"{where}.{part}")
    match = dict(edit.get("where", {}))
    changes = dict(edit.get("set", {}))
    if not changes:
        raise UserError("an edit needs a non-empty `set`", key=f"{where}.set")
    for col in list(match) + list(changes):
        if col not in cols:
            raise UserError(f"unknown column {col!r} of {schema.file}; columns: {', '.join(cols)}",
                            key=where)
    typed = {c: _parse(cols[c], str(int(v) if isinstance(v, bool) else v), schema.file, 0)
             for c, v in changes.items()}
    rows, hit = [], 0
    for row in tables[tname]:
        if all(str(row[c]).lower() == str(v).lower() if not isinstance(row[c], bool) else row[c] == bool(v)
               for c, v in match.items()):
            row = {**row, **typed}
            hit += 1
        rows.append(row)
    if hit == 0:
        raise UserError(f"no row of {schema.file} matches {match}", key=f"{where}.where")
    return {**tables, tname: tuple(rows)}
