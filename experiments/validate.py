"""`balancelab validate DIR`: every problem in every file of a designer's data folder, one line each.

Each CSV table is read to its end (simcore.tables.check_table), each parameter of params.toml
is checked on its own, then the folder is loaded as a whole for the checks across files.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from simcore.errors import UserError
from simcore.games import get_game
from simcore.ruleset import overlay_params, parse_params, read_toml
from simcore.tables import check_table

from .config import _toml_key, _toml_value

EXIT_USER_ERROR = 2


def _param_problems(path: Path, builtin: dict, game: str) -> list[UserError]:
    """Every problem of a designer's params.toml: the file's shape, then each parameter on its own."""
    try:
        doc = read_toml(path, "parameter file params.toml")
    except UserError as e:
        return [e]
    problems: list[UserError] = []
    unknown = sorted(set(doc) - {"game", "params"})
    if unknown:
        problems.append(UserError(f"unknown top-level table(s) {unknown}; expected [game] and [params.*]",
                                  file=str(path), key=unknown[0]))
    parts = [{"game": doc["game"]} if isinstance(doc.get("game"), dict) else {}]
    params = doc.get("params", {})
    if isinstance(params, dict):
        parts += [{"params": {n: spec}} for n, spec in params.items()]
    else:
        parts = [{k: v for k, v in doc.items() if k in ("game", "params")}]
    with tempfile.TemporaryDirectory(prefix="balancelab-validate-") as tmp:
        for k, part in enumerate(parts):
            one = Path(tmp) / f"part{k}.toml"
            lines = []
            for table, entries in part.items():
                if not isinstance(entries, dict):
                    lines.append(f"{_toml_key(table)} = {_toml_value(entries)}")
                    continue
                lines.append(f"[{table}]")
                lines += [f"{_toml_key(n)} = {_toml_value(v)}" for n, v in entries.items()]
            one.write_text("\n".join(lines) + "\n")
            try:
                overlay_params(one, builtin, game)
            except UserError as e:
                problems.append(UserError(e.message, file=str(path), row=e.row, key=e.key))
    return problems


def validate_folder(folder: str, ruleset: str | None) -> int:
    """Check a designer's data folder: every problem of every file, one line each on stderr; the exit code."""
    folder = Path(folder)
    if not folder.is_dir():
        raise UserError("is not a folder", file=str(folder))
    name = ruleset
    if name is None and (folder / "params.toml").exists():
        game_table = read_toml(folder / "params.toml", "parameter file params.toml").get("game", {})
        name = game_table.get("name") if isinstance(game_table, dict) else None
    if name is None:
        raise UserError("cannot tell which ruleset this folder is for: give --ruleset NAME "
                        "(or a params.toml with [game] name)", file=str(folder))
    game = get_game(name)
    problems: list[str] = []
    if (folder / "params.toml").exists():
        _, builtin = parse_params(game.data.data_dir / "params.toml")
        problems += [e.render() for e in _param_problems(folder / "params.toml", builtin, name)]
    for schema in game.data.schemas.values():
        if (folder / schema.file).exists():
            problems += [e.render() for e in check_table(folder / schema.file, schema)]
    # Cross-file checks (effects, references between tables, variants): a problem already listed
    # above comes back here as the first one met, so it is not listed twice.
    try:
        for v in game.data.variant_names(folder):
            game.data.load(v, data_dir=folder)
    except UserError as e:
        if e.render() not in problems:
            problems.append(e.render())
    if problems:
        for p in problems:
            print(f"error: {p}", file=sys.stderr)
        print(f"{folder}: {len(problems)} problem(s)", file=sys.stderr)
        return EXIT_USER_ERROR
    print(f"{folder}: valid {name} data ({', '.join(sorted(p.name for p in folder.iterdir() if not p.name.startswith('.')))})")
    return 0
