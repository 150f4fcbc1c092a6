"""Greedy weights as data: strategies/<game>/weights/*.toml.

A game's `default.toml` names every weight its greedy bot reads, with today's value (the
hand-written heuristic), its type (an int in the file is an integer weight; the engines
compare integer scores, so both faces stay identical) and the range the trainer searches:

    [weights]
    keep_cancel = 3          # one-line comment: what it weighs
    [bounds]
    keep_cancel = [0, 12]

Another file (`greedy:weights=FILE`, a trained file) may give any subset of the weights;
the rest keep their default. An unknown name, a wrong type, a value outside its bounds or
a missing / unreadable file is a UserError naming the file and the key.
`[provenance]` (written by `balancelab train`) is kept as read, never interpreted here.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.errors import UserError

HERE = Path(__file__).resolve().parent


def weights_dir(game: str) -> Path:
    return HERE / game / "weights"


@dataclass(frozen=True)
class Weights:
    """One greedy bot's weights: names in the default file's order, values, and where from."""

    game: str
    names: tuple[str, ...]
    values: tuple                        # int or float per name, the default's type
    source: str                          # the file read ("default" for the game's default.toml)

    def __getitem__(self, name: str):
        return self.values[self.names.index(name)]

    def as_dict(self) -> dict:
        return dict(zip(self.names, self.values))

    def ints(self) -> np.ndarray:
        """(n_weights,) int64: what a compiled face reads (every weight of such a game is an int)."""
        return np.array(self.values, np.int64)


@dataclass(frozen=True)
class Schema:
    """The default file: names, default values, bounds (lo, hi) per name."""

    game: str
    names: tuple[str, ...]
    defaults: tuple
    bounds: tuple[tuple[float, float], ...]

    def is_int(self, name: str) -> bool:
        return isinstance(self.defaults[self.names.index(name)], int)


def _read(path: Path) -> dict:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise UserError("weights file not found", file=str(path)) from None
    except IsADirectoryError:
        raise UserError("is a folder, expected a weights .toml file", file=str(path)) from None
    except tomllib.TOMLDecodeError as e:
        raise UserError(f"not valid TOML ({e})", file=str(path)) from None


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


_SCHEMAS: dict[str, Schema] = {}


def schema(game: str) -> Schema:
    """The game's default.toml, checked (every weight a number with [lo, hi] bounds around it)."""
    if game in _SCHEMAS:
        return _SCHEMAS[game]
    path = weights_dir(game) / "default.toml"
    doc = _read(path)
    table, bounds = doc.get("weights"), doc.get("bounds", {})
    if not isinstance(table, dict) or not table:
        raise UserError("expected a [weights] table of named numbers", file=str(path), key="weights")
    names, defaults, bnds = [], [], []
    for name, value in table.items():
        b = bounds.get(name)
        if not _number(value):
            raise UserError(f"expected a number, got {value!r}", file=str(path), key=f"weights.{name}")
        if not (isinstance(b, list) and len(b) == 2 and all(map(_number, b)) and b[0] <= value <= b[1]):
            raise UserError(f"expected [lo, hi] bounds around {value}, got {b!r}", file=str(path),
                            key=f"bounds.{name}")
        names.append(name)
        defaults.append(value)
        bnds.append((b[0], b[1]))
    _SCHEMAS[game] = Schema(game, tuple(names), tuple(defaults), tuple(bnds))
    return _SCHEMAS[game]


def default(game: str) -> Weights:
    s = schema(game)
    return Weights(game, s.names, s.defaults, "default")


def load(game: str, path=None) -> Weights:
    """The weights of `path` (None: the game's default.toml) over the defaults; UserError on
    a missing file, an unknown weight, a wrong type or a value outside the bounds."""
    s = schema(game)
    if isinstance(path, Weights):          # the trainer's candidates travel as objects
        if path.game != game or path.names != s.names:
            raise UserError(f"weights of {path.game} ({', '.join(path.names)}) given to {game}'s greedy",
                            key="weights")
        return path
    if path is None or str(path) == "default":
        return default(game)
    path = Path(str(path))
    try:                # a file is read once per version: a reference run asks for it every game
        st = path.stat()
        stamp = (game, str(path.resolve()), st.st_mtime_ns, st.st_size)
    except OSError:
        stamp = None    # missing: _read says so
    if stamp in _LOADED:
        return _LOADED[stamp]
    w = _parse(game, s, path)
    if stamp is not None:
        _LOADED[stamp] = w
    return w


_LOADED: dict = {}      # (game, file, mtime_ns, size) -> its Weights


def _parse(game: str, s: "Schema", path: Path) -> Weights:
    doc = _read(path)
    table = doc.get("weights")
    if not isinstance(table, dict):
        raise UserError(f"expected a [weights] table (weights of {game}: {', '.join(s.names)})",
                        file=str(path), key="weights")
    values = dict(zip(s.names, s.defaults))
    for name, value in table.items():
        key = f"weights.{name}"
        if name not in values:
            import difflib
            close = difflib.get_close_matches(name, s.names, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            raise UserError(f"unknown weight {name!r} for {game}{hint} (weights: {', '.join(s.names)})",
                            file=str(path), key=key)
        if s.is_int(name) and not (isinstance(value, int) and not isinstance(value, bool)):
            raise UserError(f"expected a whole number, got {value!r}", file=str(path), key=key)
        if not _number(value):
            raise UserError(f"expected a number, got {value!r}", file=str(path), key=key)
        lo, hi = s.bounds[s.names.index(name)]
        if not lo <= value <= hi:
            raise UserError(f"expected a value from {lo} to {hi}, got {value}", file=str(path), key=key)
        values[name] = value
    return Weights(game, s.names, tuple(values[n] for n in s.names), str(path))


def from_vector(game: str, x, source: str = "vector") -> Weights:
    """Weights from a vector in the schema's order (the trainer's candidates): integer
    weights rounded, every value clipped to its bounds."""
    s = schema(game)
    vals = []
    for name, v, (lo, hi), d in zip(s.names, x, s.bounds, s.defaults):
        v = min(max(float(v), lo), hi)
        vals.append(int(round(v)) if isinstance(d, int) else v)
    return Weights(game, s.names, tuple(vals), source)


def to_toml(w: Weights, provenance: dict | None = None, comments: dict | None = None) -> str:
    """The text of a weights file (what `balancelab train` writes)."""
    lines = []
    if provenance:
        lines.append("[provenance]")
        for k, v in provenance.items():
            lines.append(f"{k} = {_toml_value(v)}")
        lines.append("")
    lines.append("[weights]")
    for name, v in zip(w.names, w.values):
        note = (comments or {}).get(name)
        lines.append(f"{name} = {_toml_value(v)}" + (f"    # {note}" if note else ""))
    return "\n".join(lines) + "\n"


def _toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(round(v, 6))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def comments(game: str) -> dict:
    """Each weight's one-line comment in default.toml (copied into trained files)."""
    out = {}
    in_weights = False
    for line in (weights_dir(game) / "default.toml").read_text().splitlines():
        s = line.strip()
        if s.startswith("["):
            in_weights = s == "[weights]"
        elif in_weights and "=" in s and "#" in s:
            out[s.split("=", 1)[0].strip()] = s.split("#", 1)[1].strip()
    return out


class Weighted:
    """The weights face of a game's greedy bot class (each game's registered.py): `weights=FILE`
    plays that file over the game's default.toml; a subclass with `default_weights` (a file
    name under weights/, e.g. the `trained` bot) plays that file when none is given. Also
    takes the restricted-play modifier (`restriction=`)."""

    game: str = ""
    restrictable = True
    default_weights: str | None = None

    def __init__(self, weights=None, restriction=None):
        self.weights_file = weights
        self.restriction = restriction

    @classmethod
    def check_options(cls, options: dict) -> None:
        """A bad weights file is a UserError when the spec is read (registry.make_bot)."""
        load(cls.game, options.get("weights"))

    def _weights(self) -> "Weights":
        if self.weights_file is None and self.default_weights is not None:
            return load(self.game, weights_dir(self.game) / self.default_weights)
        return load(self.game, self.weights_file)
